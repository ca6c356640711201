/**
 * TURN relay credentials (issue 15 "Relayed WebRTC"; spec §7 `get_browser_token` servers, `ice-servers`).
 *
 * The TURN REST API convention coturn implements with `use-auth-secret` + `static-auth-secret`: the server and
 * the TURN server share one secret; for each caller the server mints
 *   username   = `<expiry, unix seconds>:<caller id>` (user id for a browser, device_id for an agent)
 *   credential = base64(HMAC-SHA1(secret, username))
 * and the TURN server recomputes the HMAC and refuses a username whose expiry is in the past. Nothing is
 * stored; the secret never leaves the server and is never logged.
 *
 * Environment (README "Configuration"): TURN_URLS (comma list of `turn:`/`turns:` URLs), TURN_SECRET, TURN_TTL_S
 * (seconds, default 3600), ICE_TRANSPORT_POLICY (`all` default, or `relay`: every peer connection of browsers
 * and agents uses relayed candidates only). Invalid values stop the server at start with a message naming the
 * variable (README "Decisions where the spec is silent").
 */
import { createHmac } from 'node:crypto';
import type { IceServer, IceTransportPolicy } from '../../protocol';

/** Default lifetime of minted credentials: one hour. */
export const DEFAULT_TURN_TTL_S = 3600;
/** Shortest TTL accepted (a client refreshes before expiry; below this it would refresh constantly). */
export const MIN_TURN_TTL_S = 60;

/** Resolved TURN settings: where the relays are, the shared secret, and how long minted credentials live. */
export interface TurnConfig {
  /** `turn:`/`turns:` URLs handed to every caller, e.g. ['turn:127.0.0.1:3478?transport=udp']. */
  urls: string[];
  /** coturn's `static-auth-secret`. Never logged nor returned. */
  secret: string;
  /** Lifetime of minted credentials in seconds. */
  ttlS: number;
}

/** What GET ice-servers / get_browser_token answer about ICE (src/protocol/signalling.ts). */
export interface IceAnswer {
  servers: IceServer[];
  /** ICE_TRANSPORT_POLICY 'relay' (every peer connection uses relayed candidates only); absent = 'all'. */
  policy?: 'relay';
  /** When the minted TURN credentials expire (ms since epoch); absent without TURN. */
  expires_at?: number;
}

/** Thrown for an invalid TURN_* / ICE_TRANSPORT_POLICY value; the message names the variable (never the secret). */
export class TurnConfigError extends Error {
  override readonly name = 'TurnConfigError';
}

/**
 * Parses TURN_URLS, TURN_SECRET, TURN_TTL_S from `env`. Returns null when neither TURN_URLS nor TURN_SECRET is
 * set. Throws TurnConfigError when only one of them is set, a URL is not `turn:`/`turns:` (or contains
 * whitespace), or TURN_TTL_S is not a whole number ≥ MIN_TURN_TTL_S.
 */
export function parseTurnConfig(env: Record<string, string | undefined>): TurnConfig | null {
  const rawUrls = env.TURN_URLS?.trim() ?? '';
  const secret = env.TURN_SECRET ?? '';
  if (rawUrls === '' && secret === '') return null;
  if (rawUrls === '') throw new TurnConfigError('TURN_SECRET is set but TURN_URLS is empty');
  if (secret.trim() === '') throw new TurnConfigError('TURN_URLS is set but TURN_SECRET is empty');
  const urls = rawUrls
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const url of urls) {
    if (!/^turns?:[^\s]+$/i.test(url)) {
      throw new TurnConfigError(`TURN_URLS: "${url}" is not a turn: or turns: URL`);
    }
  }
  const rawTtl = env.TURN_TTL_S?.trim() ?? '';
  const ttlS = rawTtl === '' ? DEFAULT_TURN_TTL_S : Number(rawTtl);
  if (!Number.isInteger(ttlS) || ttlS < MIN_TURN_TTL_S) {
    throw new TurnConfigError(`TURN_TTL_S must be a whole number of seconds ≥ ${MIN_TURN_TTL_S}`);
  }
  return { urls, secret, ttlS };
}

/**
 * Parses ICE_TRANSPORT_POLICY: unset or '' → 'all'; 'all' or 'relay' (any case). Throws TurnConfigError for
 * another value, and for 'relay' when no relay exists (`hasRelay` false: no TURN_URLS and no turn: URL in
 * ICE_SERVERS) — relay-only ICE could then never connect.
 */
export function parseIceTransportPolicy(raw: string | undefined, hasRelay: boolean): IceTransportPolicy {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'all') return 'all';
  if (value !== 'relay') throw new TurnConfigError('ICE_TRANSPORT_POLICY must be "all" or "relay"');
  if (!hasRelay) {
    throw new TurnConfigError('ICE_TRANSPORT_POLICY=relay needs TURN_URLS (or a turn: URL in ICE_SERVERS)');
  }
  return 'relay';
}

/** True when one of `servers` names a `turn:`/`turns:` URL. */
export function hasTurnUrl(servers: IceServer[]): boolean {
  return servers.some((s) => (Array.isArray(s.urls) ? s.urls : [s.urls]).some((u) => /^turns?:/i.test(u)));
}

/**
 * Mints one caller's TURN credentials (see the module comment). `callerId` must not contain ':' (it is the
 * separator coturn splits on); user ids (uuid) and device ids ('dev-' + hex) never do. `nowMs` in ms since
 * epoch. Returns the RTCIceServer entry and the expiry in ms since epoch (a whole second).
 */
export function mintTurnCredentials(
  turn: TurnConfig,
  callerId: string,
  nowMs: number = Date.now(),
): { server: IceServer; expiresAt: number } {
  const expiry = Math.floor(nowMs / 1000) + turn.ttlS;
  const username = `${expiry}:${callerId.replaceAll(':', '_')}`;
  const credential = createHmac('sha1', turn.secret).update(username).digest('base64');
  return { server: { urls: turn.urls, username, credential }, expiresAt: expiry * 1000 };
}

/**
 * The ICE answer for one caller: the static servers (ICE_SERVERS), then the minted TURN entry when TURN is
 * configured, and `policy: 'relay'` when relay-only is asked for (absent means 'all': the answer without TURN
 * and relay stays `{ servers }` as before issue 15, and old clients ignore the new fields).
 */
export function iceAnswerFor(
  config: { iceServers: IceServer[]; turn: TurnConfig | null; iceTransportPolicy: IceTransportPolicy },
  callerId: string,
  nowMs: number = Date.now(),
): IceAnswer {
  const answer: IceAnswer = { servers: [...config.iceServers] };
  if (config.iceTransportPolicy === 'relay') answer.policy = 'relay';
  if (config.turn) {
    const { server, expiresAt } = mintTurnCredentials(config.turn, callerId, nowMs);
    answer.servers.push(server);
    answer.expires_at = expiresAt;
  }
  return answer;
}
