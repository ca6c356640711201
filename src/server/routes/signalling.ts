/**
 * Signalling-related calls (spec §7 server calls + signalling server calls; README "Who may reach a device",
 * "Presence"); contracts in src/protocol/signalling.ts:
 *   POST get_browser_token       { browser_id } → { servers, token, policy, expires_at? } — browser token valid
 *                                only for that peer id, for BROWSER_TOKEN_EXPIRY_S; also set as the HttpOnly
 *                                cookie edge_sig_<browser_id> (Path=/peerjs) the PeerJS upgrade reads
 *                                (../signalling/cookie.ts); ICE part as ice-servers (minted for the user)
 *   GET  ice-servers             ?deviceId → { servers, policy, expires_at? }: env ICE_SERVERS plus, with
 *                                TURN_URLS/TURN_SECRET, TURN credentials minted for the caller (user id or
 *                                device_id) expiring at expires_at (ms); user or device token
 *                                (src/server/signalling/turn.ts)
 *   POST device-grant            { device_id, browser_id } → { grant, expires_at (ms since epoch) }; owner only,
 *                                else 404 Not_found. The agent verifies the grant with the JWKS and takes
 *                                each grant once (jti). A peer id registered by another user: 409.
 *   GET  peerjs/peerjs/:device_id → { isOnline }   (owner only, else 404)
 *   GET  check/peerjs/:device_id  → { exist }      (owner only, else 404)
 *   GET  .well-known/jwks.json    → { keys } public, the server's Ed25519 public key(s)
 */
import { BROWSER_TOKEN_EXPIRY_S, DEVICE_GRANT_EXPIRY_S, type signallingRoutes } from '../../protocol';
import { deviceOf, userOf } from '../auth/guard';
import { findOwnDevice } from '../db/scope';
import { badRequest, HttpError, notFound } from '../errors';
import { signallingCookie } from '../signalling/cookie';
import { ownedByAnother } from '../signalling/peerOwners';
import { iceAnswerFor } from '../signalling/turn';
import { DEVICE_PEER_PREFIX, isDevicePeerId } from '../signalling/peerIds';
import type { HandlersOf } from './register';

/** 409 Peer_id_taken: `browserId` is registered with signalling by another user (issue 15). */
function refuseForeignPeer(ctx: Parameters<typeof ownedByAnother>[0], browserId: string, userId: string) {
  if (ownedByAnother(ctx, browserId, userId)) {
    throw new HttpError(409, 'Peer_id_taken', 'This browser peer id is registered by another user.');
  }
}

export const signallingHandlers: HandlersOf<typeof signallingRoutes> = (ctx) => ({
  'signalling.browserToken': async ({ body }, request, reply) => {
    const browserId = body.browser_id;
    if (isDevicePeerId(browserId))
      throw badRequest(`body.browser_id: must not start with "${DEVICE_PEER_PREFIX}"`);
    refuseForeignPeer(ctx, browserId, userOf(request).id);
    const { token } = await ctx.tokens.sign(
      { typ: 'browser', sub: userOf(request).id, browser_id: browserId },
      BROWSER_TOKEN_EXPIRY_S,
    );
    // Issue 15 "tokens never in URLs": the PeerJS upgrade takes the token from this cookie, not the URL.
    void reply.header('set-cookie', signallingCookie(browserId, token, request.protocol === 'https'));
    void reply.header('cache-control', 'no-store');
    return { ...iceAnswerFor(ctx.config, userOf(request).id), token };
  },

  'signalling.iceServers': async (_input, request) =>
    iceAnswerFor(ctx.config, request.user ? request.user.id : deviceOf(request).deviceId),

  'signalling.deviceGrant': async ({ body }, request) => {
    const user = userOf(request);
    const device = await findOwnDevice(ctx.db, user.id, body.device_id);
    if (!device) throw notFound('Device');
    refuseForeignPeer(ctx, body.browser_id, user.id);
    const { token, exp } = await ctx.tokens.sign(
      {
        typ: 'grant',
        sub: user.id,
        device_id: device.deviceId,
        browser_id: body.browser_id,
        jti: ctx.tokens.newJti(),
      },
      DEVICE_GRANT_EXPIRY_S,
    );
    return { grant: token, expires_at: exp * 1000 };
  },

  'signalling.isOnline': async ({ params }, request) => {
    const device = await findOwnDevice(ctx.db, userOf(request).id, params.device_id);
    if (!device) throw notFound('Device');
    return { isOnline: ctx.presence.isOnline(device.deviceId) };
  },

  'signalling.exist': async ({ params }, request) => {
    const device = await findOwnDevice(ctx.db, userOf(request).id, params.device_id);
    if (!device) throw notFound('Device');
    return { exist: ctx.presence.exists(device.deviceId) };
  },

  'signalling.jwks': async (_input, _request, reply) => {
    void reply.header('cache-control', 'public, max-age=300');
    return ctx.tokens.jwks();
  },
});
