/**
 * PeerJS signalling server (team brief "Signalling"): the `peer` package mounted at /peerjs on the server's
 * own HTTP server, key 'peerjs'. Every peer is authenticated on the WebSocket upgrade
 * (`/peerjs/peerjs?key=peerjs&id=…&token=…`):
 *   - a browser token whose browser_id = id (and id is not a device peer id), sent as the HttpOnly cookie
 *     `edge_sig_<id>` that POST get_browser_token sets (./cookie.ts; a browser's WebSocket cannot send
 *     headers) or as `Authorization: Token …` (Node clients), or
 *   - a device token whose device_id = id and whose jti is the device's current one, sent as
 *     `Authorization: Token …`.
 * Issue 15 "tokens never in URLs or logs": a signalling token (any JWT) in the URL is refused; the URL's
 * `token` is PeerJS's own random string, which only ties a reconnect to its registration.
 * Anything else is refused with HTTP 401 before the upgrade. Connect/disconnect events feed `Presence`.
 * Every message a peer sends goes through `MessageGuard` (guard.ts) first: only well-formed PeerJS messages
 * within the size and per-peer rate limits reach the package's relay.
 *
 * Several server instances (issue 15 "Scale-out past one server"): a checked message whose `dst` is connected
 * to another instance goes there through PostgreSQL (./cluster.ts) and is written to the destination's socket
 * by that instance; peer owners and presence are shared the same way. The guard runs where the sender is
 * connected, as on one instance.
 */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { decodeJwt } from 'jose';
import { ExpressPeerServer } from 'peer';
import pg from 'pg';
import { WebSocketServer } from 'ws';
import { PEERJS_KEY, PEERJS_PATH } from '../../protocol';
import { findDeviceForToken } from '../auth/guard';
import type { ServerContext } from '../context';
import { isDevicePeerId } from './peerIds';
import { DEFAULT_LIMITS, guardSocket, MessageGuard, type GuardLimits } from './guard';
import type { PeerClientLike } from './presence';
import { runWithTrackedTimers } from './timers';
import { refuseUpgrade, type UpgradeRouter } from './upgrade';
import { handleClientErrors } from '../db';
import { defaultInstanceId, SignallingCluster, type RelayedMessage } from './cluster';
import { attachCluster, ownedByAnother, ownerOf, releaseOwner, setOwner } from './peerOwners';
import { signallingCookieOf } from './cookie';

/** WebSocket path the PeerJS client connects to: `${path}/peerjs`. */
export const PEERJS_WS_PATH = `${PEERJS_PATH}/peerjs`;

/** Frames larger than this close the socket (ws 1009); messages over MAX_SIGNALLING_MESSAGE_BYTES are dropped. */
export const MAX_FRAME_BYTES = 256 * 1024;

/** A running signalling server. */
export interface SignallingServer {
  /** This process's instance id (signalling_instances). */
  instanceId: string;
  /** Settles once the instance is registered and LISTENing (or its first attempt failed, logged). */
  ready: Promise<void>;
  /** Closes every peer socket and stops the peer server's timers; removes this instance's registrations. */
  close(): Promise<void>;
}

/**
 * Decides whether `token` may register peer id `id`. Returns the reason when refused.
 * Never throws.
 */
export async function authorizePeer(
  ctx: ServerContext,
  id: string,
  token: string,
  from: CredentialSource,
): Promise<string | null> {
  let typ: unknown;
  try {
    typ = decodeJwt(token).typ;
  } catch {
    return 'token is not a JWT';
  }
  // Proxies and access logs keep URLs: a signalling token is never taken from one.
  if (from === 'url')
    return 'a signalling token goes in a cookie or the Authorization header, not in the URL';
  try {
    if (typ === 'browser') {
      const claims = await ctx.tokens.verify(token, 'browser');
      if (claims.browser_id !== id) return 'browser token is for another peer id';
      if (isDevicePeerId(id)) return 'a browser cannot register a device peer id';
      return null;
    }
    if (typ === 'device') {
      // Good for 60 days and for the device's REST calls: only in the upgrade's Authorization header.
      if (from === 'cookie') return 'a device token goes in the Authorization header';
      const claims = await ctx.tokens.verify(token, 'device');
      if (claims.device_id !== id) return 'device token is for another peer id';
      return (await findDeviceForToken(ctx, claims)) ? null : 'device token revoked';
    }
    return 'not a browser or device token';
  } catch (err) {
    return err instanceof Error ? err.message : 'invalid token';
  }
}

/** Where an upgrade's credential came from. */
export type CredentialSource = 'header' | 'cookie' | 'url';

/**
 * The credential of a signalling upgrade for peer id `id`: `Authorization: Token <jwt>` (the agent's device
 * token), else the cookie `edge_sig_<id>` (a browser's token, ./cookie.ts). A JWT in the URL's `token` is
 * returned as from 'url' so that it is refused; any other URL `token` is PeerJS's own random string and no
 * credential. Null when there is none.
 */
export function credentialOf(
  req: IncomingMessage,
  url: URL,
  id: string,
): { value: string; from: CredentialSource } | null {
  const inUrl = url.searchParams.get('token');
  if (inUrl && isJwt(inUrl)) return { value: inUrl, from: 'url' };
  const header = req.headers.authorization;
  if (typeof header === 'string' && /^Token \S+$/.test(header))
    return { value: header.slice(6), from: 'header' };
  const cookie = id ? signallingCookieOf(req, id) : null;
  return cookie ? { value: cookie, from: 'cookie' } : null;
}

function isJwt(value: string): boolean {
  try {
    decodeJwt(value);
    return true;
  } catch {
    return false;
  }
}

/**
 * Mounts the PeerJS server: WebSocket upgrades at /peerjs/peerjs through `upgrades`, the package's small HTTP
 * API (GET /peerjs, /peerjs/peerjs/id) through Fastify.
 */
export function startSignalling(
  app: FastifyInstance,
  ctx: ServerContext,
  upgrades: UpgradeRouter,
  log: FastifyBaseLogger,
  limits: GuardLimits = DEFAULT_LIMITS,
): SignallingServer {
  const server = app.server as Server;
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_FRAME_BYTES });
  // Peer id → the user it belongs to (a browser's user, a device's owner), from the token it registered with.
  // Devices stay known after they leave (messages may wait for a device that reconnects); browsers are
  // forgotten when their socket closes (their ids are new on every page load).
  const base = (ctx.db as unknown as { $client: pg.Pool }).$client.options;
  const pool = new pg.Pool({ ...(base as pg.PoolConfig), max: 4 });
  pool.on('error', (err) => log.warn({ err }, 'signalling cluster connection error'));
  handleClientErrors(pool, (err) => log.warn({ err }, 'signalling cluster connection lost'));
  const cluster = new SignallingCluster(
    pool,
    { ...base } as pg.ClientConfig,
    defaultInstanceId(),
    log,
    (m: RelayedMessage) => {
      const socket = ctx.presence.local(m.dst)?.getSocket() as {
        readyState: number;
        send(d: string): void;
      } | null;
      if (!socket || socket.readyState !== 1) return false;
      socket.send(JSON.stringify(m));
      return true;
    },
    (peerId, reason) => ctx.presence.local(peerId)?.getSocket()?.close(4001, reason),
  );
  attachCluster(ctx, cluster);
  ctx.presence.setRemote(cluster);
  const ready = cluster.start().catch((err: unknown) => {
    log.error({ err }, 'signalling cluster did not start; this instance relays only its own peers');
  });
  const guard = new MessageGuard(
    limits,
    (peerId, dropped, last) => log.warn({ peerId, dropped, last }, 'signalling messages dropped'),
    Date.now,
    (peerId) => ownerOf(ctx, peerId),
  );
  // A checked message for a peer connected to another instance goes there; anything else to the package.
  const route = (peerId: string, m: { type: string; dst?: unknown; payload?: unknown }): boolean => {
    if (typeof m.dst !== 'string' || ctx.presence.existsHere(m.dst)) return false;
    const instance = cluster.remoteInstanceOf(m.dst);
    if (!instance) return false;
    cluster.send(instance, { type: m.type, src: peerId, dst: m.dst, payload: m.payload });
    return true;
  };
  const timers = runWithTrackedTimers(
    () => {
      const peerApp = ExpressPeerServer(server, {
        path: PEERJS_PATH,
        key: PEERJS_KEY,
        allow_discovery: false,
        // The peer package builds its WebSocket server through this hook; we hand it ours (no own upgrade
        // listener) and route upgrades ourselves after authentication.
        createWebSocketServer: () => wss,
      });
      peerApp.on('connection', (client: PeerClientLike) => ctx.presence.connected(client));
      peerApp.on('disconnect', (client: PeerClientLike) => {
        ctx.presence.disconnected(client);
        // A browser peer that left frees its id (issue 15: bound to its user only while registered).
        const id = client.getId();
        if (!ctx.presence.existsHere(id)) releaseOwner(ctx, id, isDevicePeerId(id));
      });
      peerApp.on('error', (err: unknown) => log.warn({ err }, 'signalling error'));
      // 'mount' creates the realm, the WebSocket layer and the housekeeping timers. We mount it at the root
      // without an Express parent: the parent handed to Express's own mount listener changes nothing.
      const proto = (o: object) => Object.getPrototypeOf(o) as object;
      peerApp.emit('mount', {
        settings: proto(peerApp.settings),
        request: proto(peerApp.request),
        response: proto(peerApp.response),
        engines: proto((peerApp as unknown as { engines: object }).engines),
      });
      return peerApp as unknown as (req: IncomingMessage, res: ServerResponse) => void;
    },
    (err) => log.error({ err }, 'signalling housekeeping failed'),
  );

  upgrades.add(PEERJS_PATH, (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== PEERJS_WS_PATH) {
      return refuseUpgrade(socket, 404, 'Not_found', `No WebSocket endpoint at ${url.pathname}`);
    }
    const id = url.searchParams.get('id') ?? '';
    const key = url.searchParams.get('key') ?? '';
    const token = credentialOf(req, url, id);
    if (!id || !token || key !== PEERJS_KEY || id.length > 128) {
      return refuseUpgrade(socket, 401, 'Unauthorized', 'Authorization is missing.');
    }
    void authorizePeer(ctx, id, token.value, token.from).then((refusal) => {
      if (refusal) {
        log.info({ peerId: id, refusal }, 'signalling upgrade refused');
        return refuseUpgrade(socket, 401, 'invalid_token', 'You tried to access with invalid token');
      }
      if (socket.destroyed) return;
      const owner = decodeJwt(token.value).sub;
      // A registered id stays its user's: another user's token (for the same id) cannot take it over.
      if (owner && ownedByAnother(ctx, id, owner)) {
        log.info({ peerId: id }, 'signalling upgrade refused: peer id registered by another user');
        return refuseUpgrade(socket, 409, 'Peer_id_taken', 'This peer id is registered by another user.');
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        if (owner) setOwner(ctx, id, owner);
        if (!isDevicePeerId(id)) {
          ws.once('close', () => {
            if (!ctx.presence.existsHere(id)) releaseOwner(ctx, id, false);
          });
        }
        // Still registered: the peer's previous socket has not closed yet (it reconnects after a silent drop).
        const reattach = ctx.presence.existsHere(id);
        // The peer package accepts the socket and adds its message listener synchronously; the guard then
        // takes that listener over.
        wss.emit('connection', ws, req);
        const accepted = ws.listenerCount('message') > 0 && ws.readyState === ws.OPEN;
        guardSocket(ws, id, guard, log, (m) => route(id, m));
        // The package answers OPEN only to a new registration and silently moves an existing one to the new
        // socket; a PeerJS client waits for OPEN, so it gets one.
        if (accepted && reattach) ws.send(JSON.stringify({ type: 'OPEN' }));
      });
    });
  });

  // The package's HTTP API (server info, random id); PeerJS clients with their own id do not need it.
  const peerHttp = timers.result;
  const toExpress = (request: { raw: IncomingMessage }, reply: { hijack(): void; raw: ServerResponse }) => {
    reply.hijack();
    peerHttp(request.raw, reply.raw);
  };
  app.get(PEERJS_PATH, { schema: { hide: true } }, toExpress);
  app.get(`${PEERJS_PATH}/*`, { schema: { hide: true } }, toExpress);

  return {
    instanceId: cluster.instanceId,
    ready,
    async close() {
      timers.stop();
      for (const ws of wss.clients) ws.terminate();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await ready;
      await cluster.close();
      ctx.presence.setRemote(null);
      await pool.end().catch(() => undefined);
    },
  };
}
