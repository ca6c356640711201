/**
 * Signalling-related calls (spec §7 server calls + signalling server calls, team brief "Tokens"):
 *   POST get_browser_token       { browser_id } → { servers, token } — browser token valid only for that peer id
 *   GET  ice-servers             ?deviceId → { servers } ([] unless env ICE_SERVERS); user or device token
 *   POST device-grant            { device_id, browser_id } → { grant, expires_at (ms since epoch) }; owner only,
 *                                else 404 Not_found. The agent verifies the grant with the JWKS.
 *   GET  peerjs/peerjs/:device_id → { isOnline }   (owner only, else 404)
 *   GET  check/peerjs/:device_id  → { exist }      (owner only, else 404)
 *   GET  .well-known/jwks.json    → { keys } public, the server's Ed25519 public key(s)
 */
import { decodeJwt } from 'jose';
import { z } from 'zod';
import {
  BROWSER_TOKEN_EXPIRY_S,
  BrowserTokenRequest,
  BrowserTokenResponse,
  DEVICE_GRANT_EXPIRY_S,
  DeviceGrantRequest,
  DeviceGrantResponse,
  ExistResponse,
  IceServersQuery,
  IceServersResponse,
  PresenceResponse,
} from '../../protocol';
import { authenticateDevice, authenticateUser, userOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { findOwnDevice } from '../db/scope';
import { badRequest, notFound } from '../errors';
import { AUTH_ERRORS, OWNED_ERRORS, type ZodApp } from './types';

/** Peer ids starting with this prefix belong to devices; a browser can never register one. */
export const DEVICE_PEER_PREFIX = 'dev-';

export function isDevicePeerId(id: string): boolean {
  return id.toLowerCase().startsWith(DEVICE_PEER_PREFIX);
}

const DeviceParams = z.object({ device_id: z.string().min(1).max(200) });
const Jwks = z.object({ keys: z.array(z.looseObject({ kty: z.string() })) });

export function registerSignallingRoutes(app: ZodApp, ctx: ServerContext): void {
  const auth = authenticateUser(ctx);
  const userAuth = auth;
  const deviceAuth = authenticateDevice(ctx);

  app.post(
    '/api/get_browser_token',
    {
      schema: {
        tags: ['signalling'],
        body: BrowserTokenRequest,
        response: { 200: BrowserTokenResponse, ...AUTH_ERRORS },
      },
      preHandler: auth,
    },
    async (request) => {
      const browserId = request.body.browser_id;
      if (isDevicePeerId(browserId))
        throw badRequest(`body.browser_id: must not start with "${DEVICE_PEER_PREFIX}"`);
      const { token } = await ctx.tokens.sign(
        { typ: 'browser', sub: userOf(request).id, browser_id: browserId },
        BROWSER_TOKEN_EXPIRY_S,
      );
      return { servers: ctx.config.iceServers, token };
    },
  );

  app.get(
    '/api/ice-servers',
    {
      schema: {
        tags: ['signalling'],
        querystring: IceServersQuery,
        response: { 200: IceServersResponse, ...AUTH_ERRORS },
      },
      // Browsers call it with their access token, agents with their device token (typ says which).
      preHandler: async (request, reply) => {
        const check = tokenTypeOf(request.headers.authorization) === 'device' ? deviceAuth : userAuth;
        await check.call(app, request, reply);
      },
    },
    async () => ({ servers: ctx.config.iceServers }),
  );

  app.post(
    '/api/device-grant',
    {
      schema: {
        tags: ['signalling'],
        body: DeviceGrantRequest,
        response: { 200: DeviceGrantResponse, ...OWNED_ERRORS },
      },
      preHandler: auth,
    },
    async (request) => {
      const user = userOf(request);
      const device = await findOwnDevice(ctx.db, user.id, request.body.device_id);
      if (!device) throw notFound('Device');
      const { token, exp } = await ctx.tokens.sign(
        { typ: 'grant', sub: user.id, device_id: device.deviceId, browser_id: request.body.browser_id },
        DEVICE_GRANT_EXPIRY_S,
      );
      return { grant: token, expires_at: exp * 1000 };
    },
  );

  app.get(
    '/api/peerjs/peerjs/:device_id',
    {
      schema: {
        tags: ['signalling'],
        params: DeviceParams,
        response: { 200: PresenceResponse, ...OWNED_ERRORS },
      },
      preHandler: auth,
    },
    async (request) => {
      const device = await findOwnDevice(ctx.db, userOf(request).id, request.params.device_id);
      if (!device) throw notFound('Device');
      return { isOnline: ctx.presence.isOnline(device.deviceId) };
    },
  );

  app.get(
    '/api/check/peerjs/:device_id',
    {
      schema: {
        tags: ['signalling'],
        params: DeviceParams,
        response: { 200: ExistResponse, ...OWNED_ERRORS },
      },
      preHandler: auth,
    },
    async (request) => {
      const device = await findOwnDevice(ctx.db, userOf(request).id, request.params.device_id);
      if (!device) throw notFound('Device');
      return { exist: ctx.presence.exists(device.deviceId) };
    },
  );

  app.get(
    '/api/.well-known/jwks.json',
    { schema: { tags: ['signalling'], response: { 200: Jwks } } },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return ctx.tokens.jwks();
    },
  );
}

/** The unverified `typ` claim of an `Authorization: Token …` header (only to pick the verifier). */
function tokenTypeOf(header: string | undefined): unknown {
  const token = /^(?:Token|Bearer)\s+(\S+)/i.exec(header ?? '')?.[1];
  if (!token) return undefined;
  try {
    return decodeJwt(token).typ;
  } catch {
    return undefined;
  }
}
