/**
 * The real-time socket (§7 "A real-time socket with a token header also exists"; src/protocol/notifications.ts):
 * socket.io on the server's HTTP server at `/socket.io`. A client authenticates with its access token
 * (handshake `auth.token`, or `Authorization: Token {token}`); a bad token is refused with the connect error
 * `invalid_token`, an expired one with `Token_expired`, a disabled user's with `invalid_token`. Each socket
 * joins the room `user:<id>`. One LISTEN connection per process receives `pg_notify('edge_realtime')`
 * (publish.ts) and emits each message to its user's room, so a message published by any server process
 * reaches every socket of that user; `pg_notify('edge_outbox')` kicks the outbox worker.
 */
import type { Server as HttpServer } from 'node:http';
import type pg from 'pg';
import { Server, type Socket } from 'socket.io';
import { API_ERROR_CODES } from '../../protocol';
import { REALTIME_EVENT, REALTIME_PATH, RealtimeMessage } from '../../protocol/notifications';
import { TokenError, type TokenSigner } from '../auth/tokens';
import { listenLoop } from './listen';
import { OUTBOX_CHANNEL, REALTIME_CHANNEL } from './publish';

export interface RealtimeLog {
  warn(obj: unknown, msg?: string): void;
  error(obj: unknown, msg?: string): void;
}

export interface Realtime {
  io: Server;
  close(): Promise<void>;
}

/** Reads the access token of a handshake: `auth.token`, else `Authorization: Token|Bearer <t>`. */
export function handshakeToken(socket: Pick<Socket, 'handshake'>): string | null {
  const auth = socket.handshake.auth as { token?: unknown } | undefined;
  if (typeof auth?.token === 'string' && auth.token) return auth.token;
  const header = socket.handshake.headers.authorization;
  const m = typeof header === 'string' ? /^(?:Token|Bearer)\s+(\S+)\s*$/i.exec(header) : null;
  return m?.[1] ?? null;
}

/**
 * Attaches socket.io to `server` and LISTENs on `connectionString`. `isActive(userId)` refuses disabled users.
 * `onOutbox` is called on each outbox wake-up.
 */
export function startRealtime(opts: {
  server: HttpServer;
  tokens: TokenSigner;
  connection: pg.ClientConfig;
  isActive: (userId: string) => Promise<boolean>;
  onOutbox: () => void;
  log: RealtimeLog;
}): Realtime {
  const io = new Server(opts.server, {
    path: REALTIME_PATH,
    serveClient: false,
    // Other WebSocket paths (signalling, tunnels) are routed by the server's UpgradeRouter; leave them be.
    destroyUpgrade: false,
    maxHttpBufferSize: 16 * 1024,
  });
  io.use((socket, next) => {
    const token = handshakeToken(socket);
    if (!token) return next(new Error(API_ERROR_CODES.unauthorized));
    opts.tokens
      .verify(token, 'access')
      .then(async (claims) => {
        if (!(await opts.isActive(claims.sub))) return next(new Error(API_ERROR_CODES.invalidToken));
        socket.data.userId = claims.sub;
        await socket.join(`user:${claims.sub}`);
        next();
      })
      .catch((err: unknown) =>
        next(
          new Error(
            err instanceof TokenError && err.reason === 'expired'
              ? API_ERROR_CODES.tokenExpired
              : API_ERROR_CODES.invalidToken,
          ),
        ),
      );
  });
  // Clients only listen; anything they send is ignored.

  const listener = listenLoop({
    connection: opts.connection,
    channels: [REALTIME_CHANNEL, OUTBOX_CHANNEL],
    name: 'real-time',
    log: opts.log,
    onNotification: (channel, payload) => {
      if (channel === OUTBOX_CHANNEL) return opts.onOutbox();
      if (channel !== REALTIME_CHANNEL || !payload) return;
      try {
        const env = JSON.parse(payload) as { u?: unknown; m?: unknown };
        const m = RealtimeMessage.safeParse(env.m);
        if (typeof env.u === 'string' && m.success) io.to(`user:${env.u}`).emit(REALTIME_EVENT, m.data);
      } catch {
        opts.log.warn({ channel }, 'unreadable real-time payload dropped');
      }
    },
    // Anything enqueued while we were not listening.
    onListening: () => opts.onOutbox(),
  });
  return {
    io,
    async close() {
      const stopped = listener.close();
      // Not io.close(): that would close the HTTP server, which Fastify closes itself. Not disconnectSockets()
      // either: a socket.io client takes a server-side disconnect for a kick and never reconnects (issue 15
      // "Server restarted: browsers reconnect without a reload"); closing the transports is a "transport
      // close", after which clients reconnect with their back-off.
      io.engine.close();
      await stopped;
    },
  };
}
