/**
 * Server-side request forgery guard (issue 15 "Server-side request forgery guarded wherever the server fetches
 * a URL a user typed"; OWASP ASVS 5.2.6 / 12.6.1): before the server sends a request to an address a user typed
 * (alarm-channel webhooks and Slack webhook URLs), the host is resolved and the request is refused when any of
 * its addresses is loopback, unspecified, link-local (169.254.0.0/16 — cloud metadata 169.254.169.254 —,
 * fe80::/10), private (10/8, 172.16/12, 192.168/16, fc00::/7 — AWS's fd00:ec2::254 —), shared (100.64/10 —
 * Alibaba's metadata 100.100.100.200 —), multicast, reserved or benchmark space; IPv4 inside IPv6
 * (::ffff:a.b.c.d, 64:ff9b::/96, 2002::/16) is judged by its IPv4 address.
 *
 * `ALLOW_PRIVATE_URLS=1` lets private addresses through: the end-to-end stack and tests post to a receiver on
 * 127.0.0.1, and an on-premises install may post to its own LAN. The check happens on each send, after DNS, so a
 * name that later resolves elsewhere is checked again; the connection itself resolves once more, so a DNS server
 * that answers differently within that instant (rebinding) is not covered — README "Decisions".
 */
import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';

/** Machine-readable code of a refused URL (HTTP 400 on save, a failed attempt's error on send). */
export const URL_REFUSED_CODE = 'Url_refused';

/** A URL the server will not fetch; `message` says why, for the user. */
export class UrlRefusedError extends Error {
  readonly code = URL_REFUSED_CODE;
  constructor(message: string) {
    super(message);
    this.name = 'UrlRefusedError';
  }
}

const blocked = new BlockList();
for (const [net, bits] of [
  ['0.0.0.0', 8], // "this network", 0.0.0.0
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT; Alibaba Cloud metadata 100.100.100.200
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local; AWS/GCP/Azure metadata 169.254.169.254
  ['172.16.0.0', 12],
  ['192.0.0.0', 24], // IETF protocol assignments (Oracle metadata 192.0.0.192)
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16],
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(net, bits, 'ipv4');
}
for (const [net, bits] of [
  ['::', 128], // unspecified
  ['::1', 128], // loopback
  ['fc00::', 7], // unique local (AWS metadata fd00:ec2::254)
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
  ['2001:db8::', 32], // documentation
  ['100::', 64], // discard
] as const) {
  blocked.addSubnet(net, bits, 'ipv6');
}

/** The IPv4 address carried inside an IPv6 one (mapped, compatible, NAT64, 6to4), or null. */
function embeddedIpv4(ip: string): string | null {
  const lower = ip.toLowerCase();
  const dotted = /^(?:::ffff:|::|64:ff9b::)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(lower);
  if (dotted) return dotted[1]!;
  const words = expandIpv6(lower);
  if (!words) return null;
  const v4 = (hi: number, lo: number) => `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
  const zeros = (from: number, to: number) => words.slice(from, to).every((w) => w === 0);
  if (zeros(0, 5) && words[5] === 0xffff) return v4(words[6]!, words[7]!); // ::ffff:a.b.c.d
  if (words[0] === 0x64 && words[1] === 0xff9b && zeros(2, 6)) return v4(words[6]!, words[7]!); // NAT64
  if (words[0] === 0x2002) return v4(words[1]!, words[2]!); // 6to4
  return null;
}

/** The eight 16-bit words of an IPv6 address in hex form, or null. */
function expandIpv6(ip: string): number[] | null {
  if (ip.includes('.')) return null;
  const [head, tail, ...rest] = ip.split('::');
  if (rest.length > 0) return null;
  const part = (s: string | undefined) => (s ? s.split(':').map((w) => parseInt(w, 16)) : []);
  const a = part(head);
  const b = tail === undefined ? [] : part(tail);
  const fill = 8 - a.length - b.length;
  if (tail === undefined ? fill !== 0 : fill < 0) return null;
  const words = [...a, ...Array<number>(fill).fill(0), ...b];
  return words.every((w) => Number.isInteger(w) && w >= 0 && w <= 0xffff) ? words : null;
}

/** True when `ip` (IPv4 or IPv6 text) is an address the server must not send a user's request to. */
export function isNonPublicAddress(ip: string): boolean {
  const bare = ip.replace(/^\[(.*)\]$/, '$1').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true; // not an address at all: refuse
  const v4 = embeddedIpv4(bare);
  if (v4 !== null) return isIP(v4) !== 4 || blocked.check(v4, 'ipv4');
  return blocked.check(bare, 'ipv6');
}

/** `ALLOW_PRIVATE_URLS=1` (or `true`): private and loopback addresses are allowed (tests, on-premises LANs). */
export function privateUrlsAllowed(env: NodeJS.ProcessEnv = process.env): boolean {
  const v = env.ALLOW_PRIVATE_URLS?.trim().toLowerCase();
  return v === '1' || v === 'true';
}

export interface PublicUrlOptions {
  /** Let private addresses through (default: env ALLOW_PRIVATE_URLS). */
  allowPrivate?: boolean;
  /** Resolves a host name to its addresses (default: the system resolver, every address). */
  resolve?: (host: string) => Promise<string[]>;
  /**
   * false: judge only address literals and `localhost` names, without DNS (on save, where a name may not
   * resolve yet; the send checks again after DNS). Default true.
   */
  dns?: boolean;
}

const systemResolve = async (host: string) =>
  (await lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/**
 * Resolves when `raw` is an http(s) URL whose host resolves only to public addresses.
 * @throws UrlRefusedError naming the host and the refused address (or why the URL is not usable).
 */
export async function assertPublicUrl(raw: string, options: PublicUrlOptions = {}): Promise<void> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UrlRefusedError('The address is not a valid URL.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UrlRefusedError('Only http(s) addresses can be used.');
  }
  if (options.allowPrivate ?? privateUrlsAllowed()) return;
  const host = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: string[];
  if (isIP(host)) addresses = [host];
  else if (/(^|\.)localhost\.?$/i.test(host)) addresses = ['127.0.0.1'];
  else if (options.dns === false) return;
  else {
    try {
      addresses = await (options.resolve ?? systemResolve)(host);
    } catch {
      throw new UrlRefusedError(`The host ${host} could not be resolved.`);
    }
    if (addresses.length === 0) throw new UrlRefusedError(`The host ${host} could not be resolved.`);
  }
  const refused = addresses.find(isNonPublicAddress);
  if (refused !== undefined) {
    throw new UrlRefusedError(
      `The server does not send requests to ${host === refused ? refused : `${host} (${refused})`}: ` +
        'a loopback, link-local, private or metadata address. Use a public address.',
    );
  }
}
