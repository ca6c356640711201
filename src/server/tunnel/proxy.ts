/**
 * The remote-app proxy (spec §7 request_remote_device, data.url): every method under
 * `/remote/<device_id>/<short container id>/…`, and WebSocket upgrades there, forwarded unchanged (path and
 * query: the app's base_url is remoteBasePath) through the device's tunnel to the container's web app.
 *
 * Access: the REMOTE_COOKIE session for exactly that device and container (set by request_remote_device),
 * unexpired, of a user who still owns the device (checked at most every OWNER_CACHE_MS per user and device);
 * anything else answers 403 with FORBIDDEN_PAGE, so another signed-in user cannot open the URL.
 * Forwarded headers: the request's, without hop-by-hop headers, Authorization and the session cookie (the
 * app's own cookies pass), with X-Forwarded-For/-Proto/-Host set; Host is kept (Jupyter compares it with
 * Origin). The app's answer comes back without hop-by-hop headers and without any Set-Cookie of the session
 * cookie (an app may not overwrite sessions). Failures of the tunnel answer its TunnelError status
 * (502/503/504) with a readable page.
 */
import http from 'node:http';
import type { IncomingMessage, OutgoingHttpHeaders } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import { REMOTE_PATH_PREFIX } from '../../protocol/containers';
import type { Db } from '../db';
import { findOwnDevice } from '../db/scope';
import { TunnelError, type TunnelHub } from './hub';
import {
  FORBIDDEN_PAGE,
  NOT_FOUND_PAGE,
  PAGE_HEADERS,
  pageHtml,
  tunnelFailurePage,
  writePageToSocket,
  type ProxyPage,
} from './pages';
import { REMOTE_COOKIE, withoutCookie, type RemoteSessions } from './session';
import { splice } from '../../agent/tunnel/splice';

/** How long a user's ownership of a device is trusted before it is read again, ms. */
export const OWNER_CACHE_MS = 2000;

/** Request headers never forwarded (hop-by-hop, and the console's credentials). */
const DROPPED = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'proxy-authorization',
  'transfer-encoding',
  'te',
  'trailer',
  'upgrade',
  'http2-settings',
  'authorization',
  'x-forwarded-for',
  'x-forwarded-proto',
  'x-forwarded-host',
  'forwarded',
]);
/** Response headers not passed back (hop-by-hop; Node frames the body itself). */
const DROPPED_BACK = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'trailer',
]);

/** A parsed proxy path. */
interface Target {
  deviceId: string;
  container: string;
}

type Access = { ok: true; target: Target } | { ok: false; page: ProxyPage; redirect?: string };

/** `/remote/<device_id>/<container>/…` → target; 'slash' when the path stops right after the container. */
export function parseRemotePath(url: string): Target | 'slash' | null {
  const pathname = url.split('?')[0] ?? '';
  if (!pathname.startsWith(REMOTE_PATH_PREFIX)) return null;
  const match = /^([^/]{1,200})\/([A-Za-z0-9][A-Za-z0-9_.-]{0,63})(\/.*)?$/.exec(
    pathname.slice(REMOTE_PATH_PREFIX.length),
  );
  if (!match) return null;
  let deviceId: string;
  try {
    deviceId = decodeURIComponent(match[1]!);
  } catch {
    return null;
  }
  if (match[3] === undefined) return 'slash';
  return { deviceId, container: match[2]! };
}

/** The ownership check of the proxy, against the database (device named by its device_id). */
export const ownerCheck =
  (db: Db) =>
  async (userId: string, deviceId: string): Promise<boolean> =>
    (await findOwnDevice(db, userId, deviceId))?.deviceId === deviceId;

export class RemoteProxy {
  private readonly owners = new Map<string, { owned: boolean; until: number }>();

  /**
   * `ownsDevice(userId, deviceId)`: does the user own the device now (default: a database read through
   * findOwnDevice, see `ownerCheck`)? Rejections count as "no".
   */
  constructor(
    private readonly ownsDevice: (userId: string, deviceId: string) => Promise<boolean>,
    private readonly hub: TunnelHub,
    private readonly sessions: RemoteSessions,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** Decides whether `req` may reach its target (see the module comment). Never throws. */
  async access(req: IncomingMessage): Promise<Access> {
    const url = req.url ?? '/';
    const target = parseRemotePath(url);
    if (target === 'slash') {
      const [path, query] = [url.split('?')[0]!, url.includes('?') ? url.slice(url.indexOf('?')) : ''];
      return { ok: false, page: NOT_FOUND_PAGE, redirect: `${path}/${query}` };
    }
    if (!target) return { ok: false, page: NOT_FOUND_PAGE };
    const cookie = req.headers.cookie;
    const session = this.sessions.fromCookieHeader(cookie, target.deviceId, target.container);
    if (!session || !(await this.owns(session.userId, target.deviceId))) {
      return { ok: false, page: FORBIDDEN_PAGE };
    }
    return { ok: true, target };
  }

  private async owns(userId: string, deviceId: string): Promise<boolean> {
    const key = `${userId}\n${deviceId}`;
    const now = Date.now();
    const cached = this.owners.get(key);
    if (cached && cached.until > now) return cached.owned;
    let owned = false;
    try {
      owned = await this.ownsDevice(userId, deviceId);
    } catch (err) {
      this.log.warn({ err }, 'remote proxy: ownership check failed');
      return false;
    }
    if (this.owners.size > 10_000) this.owners.clear();
    this.owners.set(key, { owned, until: now + OWNER_CACHE_MS });
    return owned;
  }

  /** The headers forwarded to the app (see the module comment). */
  private forwardHeaders(req: IncomingMessage): OutgoingHttpHeaders {
    const listed = new Set(
      String(req.headers.connection ?? '')
        .toLowerCase()
        .split(',')
        .map((s) => s.trim()),
    );
    const out: OutgoingHttpHeaders = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (value === undefined || DROPPED.has(name) || listed.has(name)) continue;
      if (name === 'cookie') {
        const kept = withoutCookie(Array.isArray(value) ? value.join('; ') : value, REMOTE_COOKIE);
        if (kept) out.cookie = kept;
        continue;
      }
      out[name] = value;
    }
    out['x-forwarded-for'] = req.socket.remoteAddress ?? '';
    out['x-forwarded-proto'] = (req.socket as { encrypted?: boolean }).encrypted ? 'https' : 'http';
    if (req.headers.host) out['x-forwarded-host'] = req.headers.host;
    return out;
  }

  /** Fastify handler of every method under /remote/ (the body stream is left unread by the route's parser). */
  async handleHttp(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const req = request.raw;
    const res = reply.raw;
    const access = await this.access(req);
    reply.hijack();
    if (!access.ok) {
      if (access.redirect && (req.method === 'GET' || req.method === 'HEAD')) {
        res.writeHead(308, { location: access.redirect, 'cache-control': 'no-store' }).end();
      } else sendPage(res, access.page);
      req.resume();
      return;
    }
    const { deviceId, container } = access.target;
    const agent = this.hub.httpAgent(deviceId, container);
    const headers = this.forwardHeaders(req);
    const method = req.method ?? 'GET';
    const hasBody =
      req.headers['content-length'] !== undefined || req.headers['transfer-encoding'] !== undefined;
    const send = (attempt: number) => {
      const upstream = http.request({ agent, method, path: req.url, headers, setHost: false });
      upstream.on('response', (answer) => {
        const raw = answer.rawHeaders;
        const back: string[] = [];
        for (let i = 0; i + 1 < raw.length; i += 2) {
          const name = raw[i]!.toLowerCase();
          if (DROPPED_BACK.has(name) || (name === 'set-cookie' && setsSessionCookie(raw[i + 1]!))) continue;
          back.push(raw[i]!, raw[i + 1]!);
        }
        res.writeHead(answer.statusCode ?? 502, answer.statusMessage, back);
        answer.pipe(res);
        answer.on('error', () => res.destroy());
        answer.on('aborted', () => res.destroy());
      });
      upstream.on('error', (err) => {
        // A kept-alive tunnel connection the app closed just as it was reused: retry once when safe.
        const retry =
          attempt === 0 &&
          upstream.reusedSocket &&
          !hasBody &&
          ['GET', 'HEAD', 'OPTIONS'].includes(method) &&
          !res.headersSent;
        if (retry) return send(1);
        if (res.headersSent) return void res.destroy();
        const page =
          err instanceof TunnelError
            ? tunnelFailurePage(err.status, err.reason)
            : tunnelFailurePage(502, 'The app closed the connection.');
        sendPage(res, page);
      });
      res.on('close', () => {
        if (!res.writableFinished) upstream.destroy();
      });
      if (hasBody) req.pipe(upstream);
      else upstream.end();
    };
    send(0);
  }

  /** UpgradeRouter handler of /remote/: the upgrade request is written to a tunnel connection and spliced. */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    void (async () => {
      const access = await this.access(req);
      if (!access.ok) return writePageToSocket(socket, access.page);
      let stream: Duplex;
      try {
        stream = await this.hub.openStream(access.target.deviceId, access.target.container);
      } catch (err) {
        const page =
          err instanceof TunnelError
            ? tunnelFailurePage(err.status, err.reason)
            : tunnelFailurePage(502, 'The app cannot be reached.');
        return writePageToSocket(socket, page);
      }
      if (socket.destroyed) return void stream.destroy();
      const headers = this.forwardHeaders(req);
      let text = `${req.method ?? 'GET'} ${req.url ?? '/'} HTTP/1.1\r\n`;
      for (const [name, value] of Object.entries(headers)) {
        for (const one of Array.isArray(value) ? value : [value]) text += `${name}: ${String(one)}\r\n`;
      }
      text += `connection: Upgrade\r\nupgrade: ${String(req.headers.upgrade ?? 'websocket')}\r\n\r\n`;
      stream.write(text);
      if (head.length) stream.write(head);
      (socket as { setNoDelay?: (on: boolean) => void }).setNoDelay?.(true);
      splice(socket, stream);
    })().catch((err: unknown) => {
      this.log.warn({ err }, 'remote proxy: upgrade failed');
      socket.destroy();
    });
  }
}

/** True for a Set-Cookie of REMOTE_COOKIE: an app may not overwrite the console's sessions. */
function setsSessionCookie(value: string): boolean {
  return value.slice(0, value.indexOf('=')).trim() === REMOTE_COOKIE;
}

function sendPage(res: http.ServerResponse, page: ProxyPage): void {
  if (res.headersSent) return void res.destroy();
  const body = pageHtml(page);
  res.writeHead(page.status, { ...PAGE_HEADERS, 'content-length': Buffer.byteLength(body) }).end(body);
}
