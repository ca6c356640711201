/**
 * Device tunnels and the remote-app proxy (spec §7 request_remote_device), wired into the server:
 *   createTunnels(db, log)            the hub, the session signer and the proxy (ServerContext.tunnels)
 *   registerRemoteRoutes(app, ctx)    every method under /remote/* (raw body passed through)
 *   mountTunnelUpgrades(ctx, upgrades)  WebSocket upgrades: /api/agent/tunnel[/<id>] (device token),
 *                                     /remote/… (session cookie)
 * The agent's end is src/agent/tunnel/client.ts (startTunnelClient); the wire protocol
 * src/agent/tunnel/protocol.ts.
 */
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { TUNNEL_PATH, TunnelId } from '../../protocol/tunnel';
import { REMOTE_PATH_PREFIX } from '../../protocol/containers';
import { findDeviceForToken } from '../auth/guard';
import type { ServerContext } from '../context';
import type { Db } from '../db';
import type { ZodApp } from '../routes/types';
import { refuseUpgrade, type UpgradeRouter } from '../signalling/upgrade';
import { TunnelHub, type TunnelHubOptions } from './hub';
import { ownerCheck, RemoteProxy } from './proxy';
import { RemoteSessions } from './session';
import type { Tunnels } from './tunnels';

export { TunnelHub, TunnelError } from './hub';
export { RemoteSessions, REMOTE_COOKIE } from './session';
export { remoteDeviceHandlers } from './remoteRoute';

export type { Tunnels } from './tunnels';

/** Creates the hub, the session signer (keyed from the server's signing key) and the proxy. */
export async function createTunnels(
  db: Db,
  log: FastifyBaseLogger,
  options: TunnelHubOptions = {},
): Promise<Tunnels> {
  const hub = new TunnelHub(log, options);
  const sessions = await RemoteSessions.fromDatabase(db);
  return { hub, sessions, proxy: new RemoteProxy(ownerCheck(db), hub, sessions, log) };
}

/**
 * Registers the /remote/* proxy route (all methods; bodies are streamed to the app, not parsed).
 * POST /api/request_remote_device is in the route table (remoteDeviceHandlers, ./remoteRoute.ts).
 */
export async function registerRemoteRoutes(app: ZodApp, ctx: ServerContext): Promise<void> {
  await app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, _payload, done) => done(null, undefined));
    scope.all(`${REMOTE_PATH_PREFIX}*`, (request, reply) => ctx.tunnels.proxy.handleHttp(request, reply));
  });
}

/** Device tokens recently verified for data sockets: token → device_id (re-verified after 30 s). */
const DATA_AUTH_CACHE_MS = 30_000;

/** Routes the tunnel's and the proxy's WebSocket upgrades. */
export function mountTunnelUpgrades(
  ctx: ServerContext,
  upgrades: UpgradeRouter,
  log: FastifyBaseLogger,
): void {
  const { hub, proxy } = ctx.tunnels;
  const verified = new Map<string, { deviceId: string; until: number }>();

  const authenticate = async (req: IncomingMessage, cacheable: boolean): Promise<string | null> => {
    const token = /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(req.headers.authorization ?? '')?.[1];
    if (!token) return null;
    const hit = verified.get(token);
    if (cacheable && hit && hit.until > Date.now()) return hit.deviceId;
    try {
      const claims = await ctx.tokens.verify(token, 'device');
      const device = await findDeviceForToken(ctx, claims);
      if (!device) return null;
      if (verified.size > 1000) verified.clear();
      verified.set(token, { deviceId: device.deviceId, until: Date.now() + DATA_AUTH_CACHE_MS });
      return device.deviceId;
    } catch {
      return null;
    }
  };

  upgrades.add(TUNNEL_PATH, (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = (req.url ?? '/').split('?')[0] ?? '/';
    const control = pathname === TUNNEL_PATH;
    const id = control ? '' : pathname.slice(TUNNEL_PATH.length + 1);
    if (!control && !TunnelId.safeParse(id).success) {
      return refuseUpgrade(socket, 404, 'Not_found', 'No such tunnel connection');
    }
    // The control socket re-checks the token (revocation); a data socket pairs only with an `open` the
    // server sent over an authenticated control socket, so its token may come from the cache.
    void authenticate(req, !control).then((deviceId) => {
      if (!deviceId) {
        log.info({ control }, 'tunnel upgrade refused: device token invalid');
        return refuseUpgrade(socket, 401, 'invalid_token', 'You tried to access with invalid token');
      }
      if (socket.destroyed) return;
      if (control) return hub.acceptControl(deviceId, req, socket, head);
      if (!hub.acceptData(deviceId, id, req, socket, head)) {
        refuseUpgrade(socket, 404, 'Not_found', 'No such tunnel connection');
      }
    });
  });

  upgrades.add(REMOTE_PATH_PREFIX.replace(/\/$/, ''), (req, socket, head) =>
    proxy.handleUpgrade(req, socket, head),
  );
}
