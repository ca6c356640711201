/**
 * The browser's signalling credential as a cookie (issue 15 "tokens never in URLs or logs"). A browser's
 * WebSocket cannot send headers, so POST get_browser_token (spec §7) also answers the signed browser token
 * (JWT typ 'browser', browser_id = the tab's PeerJS peer id) as
 *   Set-Cookie: edge_sig_<browser_id>=<jwt>; Path=/peerjs; Max-Age=BROWSER_TOKEN_EXPIRY_S; HttpOnly;
 *               SameSite=Strict[; Secure over https]
 * and the PeerJS upgrade (`/peerjs/peerjs?id=<browser_id>…`) reads the cookie named after its `id`. One cookie
 * per peer id, so two tabs never overwrite each other's; the JWT is signed with the server key every instance
 * shares, so any instance behind a proxy verifies it.
 */
import type { IncomingMessage } from 'node:http';
import { BROWSER_TOKEN_EXPIRY_S, PEERJS_PATH, SIGNALLING_COOKIE_PREFIX } from '../../protocol';
import { cookieValues } from '../tunnel/session';

/** The cookie name of browser peer id `peerId` (ids are A–Z a–z 0–9 _ -, valid in a cookie name). */
export function signallingCookieName(peerId: string): string {
  return SIGNALLING_COOKIE_PREFIX + peerId;
}

/** The Set-Cookie header carrying `token` for `peerId`. */
export function signallingCookie(peerId: string, token: string, secure: boolean): string {
  return (
    `${signallingCookieName(peerId)}=${token}; Path=${PEERJS_PATH}; Max-Age=${BROWSER_TOKEN_EXPIRY_S}; ` +
    `HttpOnly; SameSite=Strict${secure ? '; Secure' : ''}`
  );
}

/**
 * The signalling cookie's value for peer id `peerId` on an upgrade request, or null. Of several (other
 * paths), the first: browsers send the most specific path first.
 */
export function signallingCookieOf(req: IncomingMessage, peerId: string): string | null {
  return cookieValues(req.headers.cookie, signallingCookieName(peerId))[0] ?? null;
}
