/**
 * The server's end of the device tunnels (spec §7 request_remote_device; protocol in
 * src/agent/tunnel/protocol.ts). One control WebSocket per device (device_id → socket; a newer one replaces
 * the older); per proxied TCP connection the hub sends `open` and waits for the agent's data WebSocket for that
 * id, which becomes a Duplex carrying the connection's bytes (`openStream`). `check` asks the agent whether a
 * container has a web app. Keep-alive `http.Agent`s per (device, container) reuse tunnel connections, so
 * repeat requests skip the open round trip.
 *
 * Limits: control messages ≤ TUNNEL_CONTROL_MAX_BYTES (bigger frames close the socket, 1009), at most
 * `messagesPerSecond` (burst ×2; the excess is dropped, and a socket that keeps sending malformed or excess
 * messages is closed with 1008); at most `maxConnectionsPerDevice` tunnel connections (open or opening) per
 * device (TunnelError 503 beyond). Nothing an agent sends throws out of the hub.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { createWebSocketStream, WebSocketServer, type WebSocket } from 'ws';
import {
  AgentToServer,
  parseControl,
  TUNNEL_CLOSE_POLICY,
  TUNNEL_CLOSE_REPLACED,
  TUNNEL_CONTROL_MAX_BYTES,
  TUNNEL_DATA_MAX_FRAME_BYTES,
  type ServerToAgent,
} from '../../protocol/tunnel';
import { tunnelSocket } from './socket';

/** Why a tunnel connection could not be made: `status` is the HTTP status the proxy answers. */
export class TunnelError extends Error {
  constructor(
    readonly status: 502 | 503 | 504,
    readonly reason: string,
  ) {
    super(reason);
    this.name = 'TunnelError';
  }
}

export interface TunnelHubOptions {
  /** Heartbeat: ping every `pingMs`; a socket without a pong by the next ping is dropped. Default 15 000. */
  pingMs?: number;
  /** How long an `open` waits for the agent's data socket, ms. Default 10 000 (then 504). */
  openTimeoutMs?: number;
  /** How long a `check` waits for `checked`, ms. Default 5 000 (then 'unreachable'). */
  checkTimeoutMs?: number;
  /** Tunnel connections (open or opening) per device. Default 256 (then 503). */
  maxConnectionsPerDevice?: number;
  /** Control messages accepted per second from one agent (burst twice that). Default 100. */
  messagesPerSecond?: number;
  /** Idle keep-alive tunnel connections are closed after this many ms. Default 4 000. */
  idleConnectionMs?: number;
  /** Given each tunnel connection's stream, to count its bytes (src/server/profile/traffic.ts). */
  meter?: (deviceId: string, stream: Duplex) => void;
}

/** A device whose agent holds a control socket. */
interface Session {
  deviceId: string;
  ws: WebSocket;
  alive: boolean;
  timer: NodeJS.Timeout;
  tokens: number;
  refilledAt: number;
  strikes: number;
}

interface Pending {
  deviceId: string;
  timer: NodeJS.Timeout;
  resolve(stream: Duplex): void;
  reject(err: TunnelError): void;
}

interface PendingCheck {
  deviceId: string;
  timer: NodeJS.Timeout;
  resolve(answer: 'ok' | 'missing' | 'unreachable'): void;
}

/** Strikes (malformed or excess messages) after which a control socket is closed. */
const MAX_STRIKES = 200;

export class TunnelHub {
  private readonly sessions = new Map<string, Session>();
  private readonly pending = new Map<string, Pending>();
  private readonly checks = new Map<string, PendingCheck>();
  /** Tunnel connections (open or opening) per device. */
  private readonly streams = new Map<string, number>();
  private readonly agents = new Map<string, http.Agent>();
  private readonly controlServer = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: TUNNEL_CONTROL_MAX_BYTES,
  });
  private readonly dataServer = new WebSocketServer({
    noServer: true,
    perMessageDeflate: false,
    maxPayload: TUNNEL_DATA_MAX_FRAME_BYTES,
  });
  private readonly opts: Required<Omit<TunnelHubOptions, 'meter'>> & Pick<TunnelHubOptions, 'meter'>;
  private closed = false;

  constructor(
    private readonly log: FastifyBaseLogger,
    options: TunnelHubOptions = {},
  ) {
    this.opts = {
      pingMs: 15_000,
      openTimeoutMs: 10_000,
      checkTimeoutMs: 5_000,
      maxConnectionsPerDevice: 256,
      messagesPerSecond: 100,
      idleConnectionMs: 4_000,
      ...options,
    };
  }

  /** True while `deviceId`'s agent holds a control socket. */
  isConnected(deviceId: string): boolean {
    return this.sessions.has(deviceId);
  }

  /** Number of devices with a control socket (diagnostics, tests). */
  get connectedCount(): number {
    return this.sessions.size;
  }

  /** Tunnel connections (open or opening) of a device. */
  connectionCount(deviceId: string): number {
    return this.streams.get(deviceId) ?? 0;
  }

  /**
   * Accepts an authenticated agent's control socket (after the upgrade request was checked). A previous
   * socket of the same device is closed with TUNNEL_CLOSE_REPLACED.
   */
  acceptControl(deviceId: string, req: IncomingMessage, socket: Duplex, head: Buffer): void {
    if (this.closed) return void socket.destroy();
    this.controlServer.handleUpgrade(req, socket, head, (ws) => {
      const previous = this.sessions.get(deviceId);
      if (previous) this.dropSession(previous, TUNNEL_CLOSE_REPLACED, 'replaced by a newer connection');
      const session: Session = {
        deviceId,
        ws,
        alive: true,
        tokens: this.opts.messagesPerSecond * 2,
        refilledAt: Date.now(),
        strikes: 0,
        timer: setInterval(() => {
          if (!session.alive) return void ws.terminate();
          session.alive = false;
          ws.ping();
        }, this.opts.pingMs),
      };
      this.sessions.set(deviceId, session);
      this.log.info({ deviceId }, 'tunnel connected');
      ws.on('pong', () => (session.alive = true));
      ws.on('message', (data, isBinary) => this.onMessage(session, data, isBinary));
      ws.on('error', (err) => this.log.warn({ deviceId, err }, 'tunnel control socket error'));
      ws.on('close', () => {
        clearInterval(session.timer);
        if (this.sessions.get(deviceId) !== session) return;
        this.sessions.delete(deviceId);
        this.failDevice(deviceId);
        this.log.info({ deviceId }, 'tunnel disconnected');
      });
    });
  }

  /**
   * Accepts an authenticated agent's data socket for connection `id`. Refuses (false, nothing written) when
   * no `open` of that device waits for it; the caller then answers the upgrade.
   */
  acceptData(deviceId: string, id: string, req: IncomingMessage, socket: Duplex, head: Buffer): boolean {
    const waiting = this.pending.get(id);
    if (!waiting || waiting.deviceId !== deviceId || this.closed) return false;
    this.pending.delete(id);
    clearTimeout(waiting.timer);
    let settled = false;
    // ws drops a socket that closed during the handshake without calling back.
    socket.once('close', () => {
      if (!settled) waiting.reject(new TunnelError(502, 'The device closed the connection.'));
      settled = true;
    });
    this.dataServer.handleUpgrade(req, socket, head, (ws) => {
      if (settled) return void ws.terminate();
      settled = true;
      const stream = createWebSocketStream(ws, { allowHalfOpen: false });
      ws.on('error', () => stream.destroy());
      this.opts.meter?.(deviceId, stream);
      waiting.resolve(tunnelSocket(stream));
    });
    return true;
  }

  /**
   * A new tunnel connection to `container`'s web app on `deviceId`: a Duplex of its bytes.
   * @throws TunnelError 502 (device not connected, agent refused: no such web app, connect failed),
   *   503 (too many connections to the device), 504 (the agent did not answer within openTimeoutMs).
   */
  openStream(deviceId: string, container: string): Promise<Duplex> {
    const session = this.sessions.get(deviceId);
    if (!session) return Promise.reject(new TunnelError(502, 'The device is not connected.'));
    const count = this.streams.get(deviceId) ?? 0;
    if (count >= this.opts.maxConnectionsPerDevice) {
      return Promise.reject(new TunnelError(503, 'Too many connections to this device.'));
    }
    this.streams.set(deviceId, count + 1);
    let released = false;
    const release = () => {
      if (released) return;
      released = true;
      const n = (this.streams.get(deviceId) ?? 1) - 1;
      if (n > 0) this.streams.set(deviceId, n);
      else this.streams.delete(deviceId);
    };
    const id = randomBytes(16).toString('base64url');
    return new Promise<Duplex>((resolve, reject) => {
      this.pending.set(id, {
        deviceId,
        timer: setTimeout(() => {
          this.pending.delete(id);
          release();
          reject(new TunnelError(504, 'The device did not answer in time.'));
        }, this.opts.openTimeoutMs),
        resolve: (stream) => {
          stream.once('close', release);
          resolve(stream);
        },
        reject: (err) => {
          release();
          reject(err);
        },
      });
      this.send(session, { type: 'open', id, container });
    });
  }

  /**
   * Asks the agent whether `container` has a web app: 'ok', 'missing' (no such container or no web app), or
   * 'unreachable' (no control socket, or no answer within checkTimeoutMs).
   */
  check(deviceId: string, container: string): Promise<'ok' | 'missing' | 'unreachable'> {
    const session = this.sessions.get(deviceId);
    if (!session) return Promise.resolve('unreachable');
    const id = randomBytes(16).toString('base64url');
    return new Promise((resolve) => {
      this.checks.set(id, {
        deviceId,
        timer: setTimeout(() => {
          this.checks.delete(id);
          resolve('unreachable');
        }, this.opts.checkTimeoutMs),
        resolve,
      });
      this.send(session, { type: 'check', id, container });
    });
  }

  /**
   * The keep-alive HTTP agent whose connections are tunnel connections to `container` on `deviceId` (one per
   * target; dropped with the device's control socket). Requests through it fail with TunnelError.
   */
  httpAgent(deviceId: string, container: string): http.Agent {
    const key = `${deviceId}\n${container}`;
    let agent = this.agents.get(key);
    if (!agent) {
      agent = new http.Agent({
        keepAlive: true,
        maxSockets: 64,
        maxFreeSockets: 16,
        timeout: this.opts.idleConnectionMs,
      });
      // The agent's connections are tunnel connections; its 'timeout' closes idle kept-alive ones.
      const open = (_options: unknown, done: (err: Error | null, socket?: Duplex) => void) => {
        this.openStream(deviceId, container).then(
          (stream) => done(null, stream),
          (err: Error) => done(err),
        );
        return undefined;
      };
      (agent as unknown as { createConnection: typeof open }).createConnection = open;
      this.agents.set(key, agent);
    }
    return agent;
  }

  /** Closes every control socket and pending connection (server shutdown). */
  close(): void {
    this.closed = true;
    for (const session of [...this.sessions.values()]) this.dropSession(session, 1001, 'server stopping');
    for (const [id, p] of this.pending) {
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new TunnelError(502, 'The server is stopping.'));
    }
    for (const agent of this.agents.values()) agent.destroy();
    this.agents.clear();
    for (const ws of this.dataServer.clients) ws.terminate();
  }

  private send(session: Session, message: ServerToAgent): void {
    if (session.ws.readyState === session.ws.OPEN) session.ws.send(JSON.stringify(message));
  }

  private dropSession(session: Session, code: number, reason: string): void {
    clearInterval(session.timer);
    if (this.sessions.get(session.deviceId) === session) {
      this.sessions.delete(session.deviceId);
      this.failDevice(session.deviceId);
    }
    session.ws.close(code, reason);
    // A peer that does not answer the close frame is cut after 2 s.
    setTimeout(() => session.ws.terminate(), 2000).unref();
  }

  /** The device's control socket is gone: fail what waits on it, forget its HTTP agents. */
  private failDevice(deviceId: string): void {
    for (const [id, p] of this.pending) {
      if (p.deviceId !== deviceId) continue;
      clearTimeout(p.timer);
      this.pending.delete(id);
      p.reject(new TunnelError(502, 'The device disconnected.'));
    }
    for (const [id, c] of this.checks) {
      if (c.deviceId !== deviceId) continue;
      clearTimeout(c.timer);
      this.checks.delete(id);
      c.resolve('unreachable');
    }
    for (const [key, agent] of this.agents) {
      if (!key.startsWith(`${deviceId}\n`)) continue;
      agent.destroy();
      this.agents.delete(key);
    }
  }

  private strike(session: Session, what: string): void {
    session.strikes++;
    if (session.strikes === 1 || session.strikes % 50 === 0) {
      this.log.warn({ deviceId: session.deviceId, strikes: session.strikes }, `tunnel: ${what}`);
    }
    if (session.strikes >= MAX_STRIKES)
      this.dropSession(session, TUNNEL_CLOSE_POLICY, 'too many bad messages');
  }

  private onMessage(session: Session, data: unknown, isBinary: boolean): void {
    session.alive = true;
    const now = Date.now();
    const rate = this.opts.messagesPerSecond;
    session.tokens = Math.min(rate * 2, session.tokens + ((now - session.refilledAt) / 1000) * rate);
    session.refilledAt = now;
    if (session.tokens < 1) return this.strike(session, 'control messages over the rate limit dropped');
    session.tokens -= 1;
    const message = parseControl(AgentToServer, data, isBinary);
    if (!message) return this.strike(session, 'malformed control message dropped');
    if (message.type === 'refused') {
      const p = this.pending.get(message.id);
      if (!p || p.deviceId !== session.deviceId) return;
      clearTimeout(p.timer);
      this.pending.delete(message.id);
      p.reject(new TunnelError(502, message.reason || 'The device refused the connection.'));
    } else {
      const c = this.checks.get(message.id);
      if (!c || c.deviceId !== session.deviceId) return;
      clearTimeout(c.timer);
      this.checks.delete(message.id);
      c.resolve(message.ok ? 'ok' : 'missing');
    }
  }
}
