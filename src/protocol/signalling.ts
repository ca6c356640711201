/**
 * Signalling (spec §7 server calls and signalling server calls; README "Who may reach a device",
 * "Presence"): browser tokens and ICE servers for the PeerJS peer, device grants the agent verifies, presence.
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

// ---------------------------------------------------------------------------------------------------------
// REST calls

/** A browser's PeerJS peer id: 8–64 of A–Z a–z 0–9 _ - (the console makes 'web-' + 16 hex). */
export const BrowserId = z.string().regex(/^[A-Za-z0-9_-]{8,64}$/, 'Enter 8–64 letters, digits, _ or -');

/** POST get_browser_token { browser_id } → servers (ICE), token (signalling token for that peer id). */
export const BrowserTokenRequest = z.object({ browser_id: BrowserId });
export const IceServer = z.object({
  urls: z.union([z.string(), z.array(z.string())]),
  username: z.string().optional(),
  credential: z.string().optional(),
});
export type IceServer = z.infer<typeof IceServer>;
/**
 * RTCConfiguration.iceTransportPolicy the server asks for (env ICE_TRANSPORT_POLICY, issue 15 "Relayed
 * WebRTC"): 'relay' = every peer connection (device link and media) uses TURN-relayed candidates only.
 */
export const IceTransportPolicy = z.enum(['all', 'relay']);
export type IceTransportPolicy = z.infer<typeof IceTransportPolicy>;
/**
 * What both ICE answers add to `servers` (optional: servers before issue 15 answered neither).
 * policy: absent = 'all'. expires_at: when the TURN credentials in `servers` expire (ms since epoch); the
 * console and the agent fetch new ones before then (src/server/signalling/turn.ts).
 */
const IceExtras = {
  policy: IceTransportPolicy.optional(),
  expires_at: z.number().int().nonnegative().optional(),
};
export const BrowserTokenResponse = z.object({
  servers: z.array(IceServer),
  token: z.string(),
  ...IceExtras,
});

/** GET ice-servers?deviceId → servers (static ICE_SERVERS + per-caller TURN credentials), policy, expires_at. */
export const IceServersQuery = z.object({ deviceId: Id.optional() });
export const IceServersResponse = z.object({ servers: z.array(IceServer), ...IceExtras });
export type IceServersResponse = z.infer<typeof IceServersResponse>;

/**
 * POST device-grant { device_id, browser_id } → a short-lived signed grant (EdDSA JWT) the agent verifies
 * before it answers any command (ARCHITECTURE "The device link"). Not a spec §7 call: it is how the server
 * decides who may reach a device. expires_at in ms since epoch.
 */
export const DeviceGrantRequest = z.object({ device_id: Id, browser_id: BrowserId });
export const DeviceGrantResponse = z.object({ grant: z.string(), expires_at: z.number() });
/**
 * Claims inside a grant (bounded like the request). `jti` makes a grant single-use: the agent refuses a second
 * link opened with the same grant (issue 15).
 */
export const DeviceGrantClaims = z.object({
  sub: Id,
  device_id: Id,
  browser_id: BrowserId,
  jti: z.string().uuid(),
});
export type DeviceGrantClaims = z.infer<typeof DeviceGrantClaims>;

/** GET peerjs/peerjs/{device_id} → isOnline. GET check/peerjs/{device_id} → exist. */
export const DeviceIdParams = z.object({ device_id: Id });
export const PresenceResponse = z.object({ isOnline: z.boolean() });
export const ExistResponse = z.object({ exist: z.boolean() });
/** GET .well-known/jwks.json — the server's public keys; agents verify device grants with them. */
export const JwksResponse = z.object({ keys: z.array(z.looseObject({ kty: z.string() })) });

export const signallingRoutes = defineRoutes({
  'signalling.browserToken': {
    method: 'POST',
    path: '/api/get_browser_token',
    auth: 'user',
    summary: 'ICE servers and a signalling token valid only for this browser peer id',
    body: BrowserTokenRequest,
    answer: BrowserTokenResponse,
    /** 409 Peer_id_taken: the peer id is registered by another user now. */
    errors: [409],
  },
  'signalling.iceServers': {
    method: 'GET',
    path: '/api/ice-servers',
    auth: 'userOrDevice',
    summary: 'ICE/TURN servers for a peer connection (browsers and agents)',
    query: IceServersQuery,
    answer: IceServersResponse,
  },
  /** Owner only, else 404. */
  'signalling.deviceGrant': {
    method: 'POST',
    path: '/api/device-grant',
    auth: 'user',
    summary: 'A 60 s grant for (user, browser peer, device) that the device’s agent verifies',
    body: DeviceGrantRequest,
    answer: DeviceGrantResponse,
    /** 409 Peer_id_taken: browser_id is registered by another user. */
    errors: [404, 409],
  },
  /** Owner only, else 404. */
  'signalling.isOnline': {
    method: 'GET',
    path: '/api/peerjs/peerjs/:device_id',
    auth: 'user',
    summary: 'Whether the device is registered with signalling now',
    params: DeviceIdParams,
    answer: PresenceResponse,
    errors: [404],
  },
  /** Owner only, else 404. */
  'signalling.exist': {
    method: 'GET',
    path: '/api/check/peerjs/:device_id',
    auth: 'user',
    summary: 'Whether the device is registered with signalling now (§4 health fallback)',
    params: DeviceIdParams,
    answer: ExistResponse,
    errors: [404],
  },
  'signalling.jwks': {
    method: 'GET',
    path: '/api/.well-known/jwks.json',
    auth: 'none',
    summary: 'The server’s Ed25519 public keys (agents verify device grants with them)',
    answer: JwksResponse,
  },
});
