/**
 * Remote-app sessions (spec §7 request_remote_device): the HttpOnly cookie that lets one browser open one
 * container's web app through the proxy. Value `<payload>.<mac>`: payload = base64url JSON
 * { u: user id, d: device_id, c: short container id, e: expiry (s since the epoch) }, mac = base64url
 * HMAC-SHA-256 over 'remote-session.v1.' + payload.
 *
 * Key: HKDF-SHA-256 of the server's Ed25519 signing key (the oldest row of `server_keys`, the one tokens are
 * signed with) — so sessions survive a server restart and are valid on every server sharing the database,
 * and a key rotation (a new oldest key) ends them. It never leaves the process.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db';
import { deriveServerKey } from '../auth/keys';

/** The cookie's name. One per container path (Path=remoteBasePath), so several can coexist. */
export const REMOTE_COOKIE = 'edge_remote';
const MAC_LABEL = 'remote-session.v1.';

/** What a valid session says. */
export interface RemoteSession {
  userId: string;
  deviceId: string;
  /** Short container id (shortContainerId). */
  container: string;
  /** Expiry, s since the epoch. */
  exp: number;
}

export class RemoteSessions {
  constructor(private readonly key: Buffer) {}

  /**
   * Keys sessions from the server's signing key (see the module comment).
   * @throws Error when the database has no signing key yet (loadSigningKey creates it at start-up).
   */
  static async fromDatabase(db: Db): Promise<RemoteSessions> {
    return new RemoteSessions(await deriveServerKey(db, 'remote-session cookie v1'));
  }

  private mac(payload: string): Buffer {
    return createHmac('sha256', this.key)
      .update(MAC_LABEL + payload)
      .digest();
  }

  /** The cookie value of a session. */
  sign(session: RemoteSession): string {
    const payload = Buffer.from(
      JSON.stringify({ u: session.userId, d: session.deviceId, c: session.container, e: session.exp }),
    ).toString('base64url');
    return `${payload}.${this.mac(payload).toString('base64url')}`;
  }

  /** The session of a cookie value; null when forged, malformed or expired at `nowS`. */
  verify(value: string, nowS = Date.now() / 1000): RemoteSession | null {
    if (value.length > 2048) return null;
    const dot = value.indexOf('.');
    if (dot <= 0) return null;
    const payload = value.slice(0, dot);
    const given = Buffer.from(value.slice(dot + 1), 'base64url');
    const expected = this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    let claims: unknown;
    try {
      claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8'));
    } catch {
      return null;
    }
    const c = claims as { u?: unknown; d?: unknown; c?: unknown; e?: unknown };
    if (
      typeof c.u !== 'string' ||
      typeof c.d !== 'string' ||
      typeof c.c !== 'string' ||
      typeof c.e !== 'number' ||
      c.e <= nowS
    ) {
      return null;
    }
    return { userId: c.u, deviceId: c.d, container: c.c, exp: c.e };
  }

  /**
   * The valid session for (deviceId, container) among the REMOTE_COOKIE cookies of a Cookie header, or null.
   */
  fromCookieHeader(header: string | undefined, deviceId: string, container: string): RemoteSession | null {
    for (const value of cookieValues(header, REMOTE_COOKIE)) {
      const session = this.verify(value);
      if (session && session.deviceId === deviceId && session.container === container) return session;
    }
    return null;
  }
}

/** The values of every cookie named `name` in a Cookie header. */
export function cookieValues(header: string | undefined, name: string): string[] {
  if (!header) return [];
  const out: string[] = [];
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    out.push(part.slice(eq + 1).trim());
  }
  return out;
}

/** A Cookie header without the cookies named `name` (undefined when nothing is left). */
export function withoutCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  const kept = header
    .split(';')
    .map((p) => p.trim())
    .filter((p) => p !== '' && p.slice(0, Math.max(0, p.indexOf('='))).trim() !== name);
  return kept.length ? kept.join('; ') : undefined;
}

/** The Set-Cookie header of a session for `path`, valid `maxAgeS` seconds. */
export function sessionCookie(value: string, path: string, maxAgeS: number, secure: boolean): string {
  return (
    `${REMOTE_COOKIE}=${value}; Path=${path}; Max-Age=${Math.max(0, Math.floor(maxAgeS))}; HttpOnly; ` +
    `SameSite=Strict${secure ? '; Secure' : ''}`
  );
}
