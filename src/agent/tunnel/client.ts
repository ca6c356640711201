/**
 * The agent's end of the device tunnel (spec §7 request_remote_device; the original's frp client, §7
 * `restart-frp-client`): a control WebSocket to the server, kept open with reconnects, and per `open` one TCP
 * connection to a container's web app spliced with one data WebSocket. No port is opened on the device: every
 * connection is made outward, to the server and to the device-local app port.
 *
 *   const tunnel = startTunnelClient({ serverUrl, deviceToken, resolveTarget, log });
 *   await tunnel.close();
 *
 * `resolveTarget(container)` names the web app of a container (id, 12-character prefix or name) as a
 * device-local { host, port }, or null when it has none; it is the only way to a port (the engine's
 * `webTarget`: container web apps only, never an arbitrary port). A control socket silent for `idleMs` is
 * dropped; reconnects wait `minBackoffMs` doubling to `maxBackoffMs` (±50 % jitter), and stop on close().
 * Every server message is validated (protocol.ts); malformed ones are dropped. At most `maxConnections`
 * tunnel connections at once (more are refused 'busy').
 */
import net from 'node:net';
import WebSocket, { createWebSocketStream } from 'ws';
import { errorMessage, type Logger } from '../log';
import {
  AgentToServer,
  parseControl,
  ServerToAgent,
  TUNNEL_CLOSE_REPLACED,
  TUNNEL_CONTROL_MAX_BYTES,
  TUNNEL_DATA_MAX_FRAME_BYTES,
  TUNNEL_PATH,
  tunnelDataPath,
} from '../../protocol/tunnel';
import { splice } from './splice';

/** A container web app's device-local address. */
export interface TunnelTarget {
  host: string;
  port: number;
}

export interface TunnelClientOptions {
  /** Server origin, e.g. 'http://127.0.0.1:8080' (https → wss). */
  serverUrl: string;
  /** The device token (`Authorization: Token …` on every socket). */
  deviceToken: string;
  /** The web app of a container, or null when it has none (see the module comment). */
  resolveTarget(container: string): Promise<TunnelTarget | null>;
  log: Logger;
  /** Tunnel connections at once. Default 256. */
  maxConnections?: number;
  /** Drop a control socket that received nothing (not even a ping) for this long, ms. Default 45 000. */
  idleMs?: number;
  /** Reconnect back-off, ms. Default 500 doubling to 30 000. */
  minBackoffMs?: number;
  maxBackoffMs?: number;
  /** Connecting to the app and opening the data socket, ms. Default 10 000. */
  connectTimeoutMs?: number;
}

/** A running tunnel client. */
export interface TunnelClient {
  /** True while the control socket is open. */
  readonly connected: boolean;
  /** Closes the control socket and every tunnel connection; no reconnect after. Idempotent. */
  close(): Promise<void>;
}

/** Zero mask: the agent is no browser, so frames need no masking (RFC 6455 §10.3 guards browser scripts). */
const zeroMask = (mask: Uint8Array) => mask.fill(0);

/** Starts the tunnel client (see the module comment). Never throws; failures are logged and retried. */
export function startTunnelClient(options: TunnelClientOptions): TunnelClient {
  const { deviceToken, resolveTarget, log } = options;
  const maxConnections = options.maxConnections ?? 256;
  const idleMs = options.idleMs ?? 45_000;
  const minBackoffMs = options.minBackoffMs ?? 500;
  const maxBackoffMs = options.maxBackoffMs ?? 30_000;
  const connectTimeoutMs = options.connectTimeoutMs ?? 10_000;
  const base = new URL(options.serverUrl.endsWith('/') ? options.serverUrl : `${options.serverUrl}/`);
  base.protocol = base.protocol === 'https:' ? 'wss:' : 'ws:';
  const wsUrl = (path: string) => new URL(path.replace(/^\//, ''), base).toString();
  const headers = { Authorization: `Token ${deviceToken}` };

  let closed = false;
  let control: WebSocket | null = null;
  let connected = false;
  let failures = 0;
  let retryTimer: NodeJS.Timeout | null = null;
  let idleTimer: NodeJS.Timeout | null = null;
  let lastError = '';
  const connections = new Set<{ destroy(): void }>();

  const send = (ws: WebSocket, message: AgentToServer) => {
    if (ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
  };

  const touch = (ws: WebSocket) => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = setTimeout(() => {
      log.warn('tunnel: the server went silent; reconnecting');
      ws.terminate();
    }, idleMs);
  };

  const schedule = () => {
    if (closed || retryTimer) return;
    const delay = Math.min(maxBackoffMs, minBackoffMs * 2 ** Math.min(failures, 16));
    failures++;
    retryTimer = setTimeout(
      () => {
        retryTimer = null;
        connect();
      },
      delay * (0.5 + Math.random()),
    );
  };

  function connect(): void {
    if (closed) return;
    const ws = new WebSocket(wsUrl(TUNNEL_PATH), {
      headers,
      perMessageDeflate: false,
      maxPayload: TUNNEL_CONTROL_MAX_BYTES,
      handshakeTimeout: connectTimeoutMs,
    });
    control = ws;
    ws.on('open', () => {
      connected = true;
      failures = 0;
      lastError = '';
      log.info('tunnel connected');
      touch(ws);
    });
    ws.on('ping', () => touch(ws));
    ws.on('message', (data, isBinary) => {
      touch(ws);
      const message = parseControl(ServerToAgent, data, isBinary);
      if (!message) return log.warn('tunnel: malformed control message dropped');
      if (message.type === 'check') void check(ws, message.id, message.container);
      else void open(ws, message.id, message.container);
    });
    ws.on('error', (err) => {
      const text = errorMessage(err);
      if (text !== lastError) log.warn('tunnel: connection failed; retrying', { error: text });
      lastError = text;
    });
    ws.on('close', (code) => {
      if (idleTimer) clearTimeout(idleTimer);
      idleTimer = null;
      if (control === ws) control = null;
      if (connected) {
        log.info('tunnel disconnected', { code });
        if (code === TUNNEL_CLOSE_REPLACED) {
          log.warn('tunnel: replaced by another connection of this device (another agent with this token?)');
        }
      }
      connected = false;
      schedule();
    });
  }

  async function check(ws: WebSocket, id: string, container: string): Promise<void> {
    try {
      const target = await resolveTarget(container);
      send(ws, { type: 'checked', id, ok: target !== null, ...(target ? {} : { reason: 'no web app' }) });
    } catch (err) {
      send(ws, { type: 'checked', id, ok: false, reason: errorMessage(err).slice(0, 500) });
    }
  }

  async function open(ws: WebSocket, id: string, container: string): Promise<void> {
    const refuse = (reason: string) => send(ws, { type: 'refused', id, reason: reason.slice(0, 500) });
    if (connections.size >= maxConnections) return refuse('The device has too many open connections.');
    let target: TunnelTarget | null;
    try {
      target = await resolveTarget(container);
    } catch (err) {
      return refuse(`The app could not be found: ${errorMessage(err)}`);
    }
    if (!target) return refuse('The container has no web app running.');
    if (closed) return refuse('The device is stopping.');
    const tcp = net.connect({ host: target.host, port: target.port });
    tcp.setNoDelay(true);
    let data: WebSocket | null = null;
    const entry = {
      destroy() {
        tcp.destroy();
        data?.terminate();
      },
    };
    connections.add(entry);
    const timer = setTimeout(() => {
      refuse('The app did not answer in time.');
      entry.destroy();
    }, connectTimeoutMs);
    tcp.once('close', () => {
      clearTimeout(timer);
      connections.delete(entry);
    });
    tcp.once('error', (err) => {
      if (data) return; // spliced: splice tears both down
      clearTimeout(timer);
      refuse(`The app refused the connection (${(err as NodeJS.ErrnoException).code ?? err.message}).`);
    });
    tcp.once('connect', () => {
      if (closed) return entry.destroy();
      const socket = new WebSocket(wsUrl(tunnelDataPath(id)), {
        headers,
        perMessageDeflate: false,
        maxPayload: TUNNEL_DATA_MAX_FRAME_BYTES,
        handshakeTimeout: connectTimeoutMs,
        generateMask: zeroMask,
      });
      data = socket;
      socket.once('open', () => {
        clearTimeout(timer);
        const stream = createWebSocketStream(socket, { allowHalfOpen: false });
        splice(tcp, stream);
      });
      socket.once('error', () => tcp.destroy());
      socket.once('close', () => tcp.end());
    });
  }

  connect();

  return {
    get connected() {
      return connected;
    },
    async close() {
      if (closed) return;
      closed = true;
      if (retryTimer) clearTimeout(retryTimer);
      retryTimer = null;
      for (const c of [...connections]) c.destroy();
      const ws = control;
      if (!ws || ws.readyState === WebSocket.CLOSED) return;
      await new Promise<void>((resolve) => {
        const force = setTimeout(() => {
          ws.terminate();
          resolve();
        }, 2000);
        ws.once('close', () => {
          clearTimeout(force);
          resolve();
        });
        if (ws.readyState === WebSocket.CONNECTING) ws.terminate();
        else ws.close(1001, 'agent stopping');
      });
    },
  };
}
