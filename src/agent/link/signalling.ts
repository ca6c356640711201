/**
 * The agent's registration with the PeerJS signalling server under its device_id (team brief
 * "Signalling"). Keeps it registered: when the socket drops ('disconnected') it calls peer.reconnect();
 * when the peer is destroyed (first connection failed, id taken) it creates a new one — both with
 * exponential backoff (1 s … 30 s). After a failed attempt it asks the server whether the device token is
 * still accepted, and gives up (onFatal) when it is not.
 *
 * Every Peer is guarded (guard.ts): a malformed or hostile signalling message is dropped or confined to
 * the connection it names, never thrown into the socket.
 *
 * Watchdog (issue 7): a socket can look open while nothing comes through it (a wedged reader, a connection
 * silently dropped on the way, a server that lost us). Every WATCHDOG_INTERVAL_MS the agent sends itself a
 * probe through signalling (a LEAVE addressed to its own id, which the server relays back like any message;
 * harmless to peerjs if it ever got there). No probe back within WATCHDOG_TIMEOUT_MS:
 *   - first time: disconnect the socket and reconnect with the same Peer (data connections stay up);
 *   - again before a probe has come back: destroy the Peer and create a new one with the same id.
 * A Peer that stays down with no retry pending for WATCHDOG_STUCK_TICKS ticks is recreated too.
 * The watchdog acts only once a probe has come back at least once (a server that does not relay them must
 * not make the agent cycle). Worst-case detection: interval + timeout = 15 s.
 */
import type { DataConnection, Peer as PeerType, PeerOptions } from 'peerjs';
import { PEERJS_KEY, PEERJS_PATH } from '../../protocol';
import type { IceServer } from '../../protocol';
import { WATCHDOG_PROBE_PREFIX } from '../../protocol/peerjsMessages';
import type { Logger } from '../log';
import { errorMessage } from '../log';
import { authorizeSignalling, loadPeer } from '../wrtc';
import { guardPeer } from './guard';

/** How often the watchdog probes signalling. */
export const WATCHDOG_INTERVAL_MS = 10_000;
/** How long a probe may take to come back. */
export const WATCHDOG_TIMEOUT_MS = 5_000;
/** Watchdog ticks a Peer may stay down (destroyed or disconnected) with no retry pending before it is recreated. */
export const WATCHDOG_STUCK_TICKS = 3;

const BACKOFF_START_MS = 1_000;
const BACKOFF_MAX_MS = 30_000;
/** Peer error types after which retrying cannot help. */
const FATAL_PEER_ERRORS = new Set(['browser-incompatible', 'invalid-id', 'invalid-key', 'ssl-unavailable']);

export interface SignallingOptions {
  /** Server origin, e.g. 'http://127.0.0.1:8080'; host, port and secure come from it. */
  serverUrl: string;
  deviceId: string;
  deviceToken: string;
  iceServers: IceServer[];
  /**
   * The agent's live ICE configuration (src/agent/iceConfig.ts, issue 15): when given it is PeerJS's `config`
   * itself (refreshed in place, with the transport policy) and `iceServers` is not used.
   */
  iceConfig?: { iceServers: IceServer[]; iceTransportPolicy: 'all' | 'relay' };
  logger: Logger;
  /** Every incoming data connection. */
  onConnection(conn: DataConnection): void;
  /** Rejects (e.g. TokenRefusedError) when the token is no longer accepted. */
  checkToken?: () => Promise<void>;
  /** Unrecoverable failure after start() resolved. */
  onFatal?(err: Error): void;
  /** Watchdog timing (tests); `intervalMs: 0` turns it off. */
  watchdog?: { intervalMs?: number; timeoutMs?: number };
}

/**
 * PeerJS client options for a server URL (team brief: path '/peerjs', key 'peerjs', token, secure). `token`
 * is a browser's signalling token (it travels in the URL); a device passes undefined and its token goes in the
 * socket's Authorization header (`authorizeSignalling`, ../wrtc.ts). `config`, when given, is passed as is
 * (PeerJS reads it for each new connection); else `{ iceServers }`.
 */
export function peerOptions(
  serverUrl: string,
  token: string | undefined,
  iceServers: IceServer[],
  config?: PeerOptions['config'],
): PeerOptions {
  const url = new URL(serverUrl);
  const secure = url.protocol === 'https:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: PEERJS_PATH,
    key: PEERJS_KEY,
    // undefined: PeerJS's own random token (it only ties a reconnect to its registration).
    ...(token === undefined ? {} : { token }),
    secure,
    config: config ?? { iceServers },
    debug: 0,
  };
}

/** Keeps one Peer registered; see the module comment. */
export class Signalling {
  private peer: PeerType | null = null;
  private closing = false;
  private attempt = 0;
  private timer: NodeJS.Timeout | null = null;
  private everOpened = false;
  private firstOpen: { resolve(): void; reject(err: Error): void } | null = null;
  private watchdogTimer: NodeJS.Timeout | null = null;
  private probe: { id: string; peer: PeerType; timer: NodeJS.Timeout } | null = null;
  private probeSeq = 0;
  private probeEverAnswered = false;
  /** The watchdog reconnected the socket; a further failed probe recreates the Peer. */
  private watchdogReconnected = false;
  private stuckTicks = 0;
  /** The watchdog acted and no probe has come back since. */
  private recovering = false;
  private unansweredLogged = false;
  /** Times the watchdog reconnected (socket) or recreated (Peer) (diagnostics, tests). */
  readonly watchdogActions = { reconnects: 0, recreates: 0 };

  constructor(private readonly options: SignallingOptions) {}

  /** Whether the peer is registered with the signalling server now. */
  get connected(): boolean {
    return !!this.peer && this.peer.open && !this.peer.disconnected;
  }

  /** The current PeerJS Peer (diagnostics, tests). */
  get currentPeer(): PeerType | null {
    return this.peer;
  }

  /**
   * Registers the peer. Resolves on the first 'open'; keeps retrying on network failures and rejects only
   * on fatal errors (invalid id/key, token refused).
   */
  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.firstOpen = { resolve, reject };
      void this.create();
      const intervalMs = this.options.watchdog?.intervalMs ?? WATCHDOG_INTERVAL_MS;
      if (intervalMs > 0 && !this.watchdogTimer) {
        this.watchdogTimer = setInterval(() => this.tick(), intervalMs);
        this.watchdogTimer.unref();
      }
    });
  }

  /** Destroys the peer (closing its data connections) and stops reconnecting. */
  close(): void {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.watchdogTimer) clearInterval(this.watchdogTimer);
    this.watchdogTimer = null;
    this.clearProbe();
    this.peer?.destroy();
    this.peer = null;
    this.firstOpen?.reject(new Error('Agent closed before registering with signalling'));
    this.firstOpen = null;
  }

  private async create(): Promise<void> {
    if (this.closing) return;
    const Peer = await loadPeer();
    if (this.closing) return;
    const o = this.options;
    // The device token travels in the signalling socket's Authorization header, not in its URL (wrtc.ts).
    authorizeSignalling(o.deviceId, o.deviceToken);
    const peer = new Peer(o.deviceId, peerOptions(o.serverUrl, undefined, o.iceServers, o.iceConfig));
    guardPeer(peer, {
      ownId: o.deviceId,
      logger: o.logger,
      onProbe: (id) => this.probeAnswered(peer, id),
    });
    this.peer = peer;
    this.stuckTicks = 0;
    peer.on('open', () => {
      if (peer !== this.peer) return;
      this.attempt = 0;
      this.clearProbe();
      o.logger.info(this.everOpened ? 'reconnected to signalling' : 'registered with signalling', {
        peer: o.deviceId,
      });
      this.everOpened = true;
      this.firstOpen?.resolve();
      this.firstOpen = null;
    });
    peer.on('connection', (conn) => {
      if (peer !== this.peer) return;
      try {
        o.onConnection(conn);
      } catch (err) {
        o.logger.error(`incoming connection failed: ${errorMessage(err)}`);
        conn.close();
      }
    });
    peer.on('disconnected', () => {
      if (peer !== this.peer || this.closing) return;
      this.clearProbe();
      o.logger.warn('signalling connection lost; reconnecting');
      this.schedule();
    });
    peer.on('close', () => {
      if (peer !== this.peer || this.closing) return;
      o.logger.warn('signalling peer destroyed; recreating');
      this.schedule();
    });
    peer.on('error', (err) => {
      if (peer !== this.peer || this.closing) return;
      const type = String((err as { type?: string }).type ?? 'unknown');
      if (FATAL_PEER_ERRORS.has(type)) {
        this.fatal(new Error(`Signalling refused the agent (${type}): ${err.message}`));
        return;
      }
      if (type === 'peer-unavailable' || type === 'webrtc') {
        o.logger.warn(`peer error (${type}): ${err.message}`);
        return;
      }
      o.logger.warn(`signalling error (${type}): ${err.message}`);
      if (type === 'unavailable-id') {
        // Our id is still held by a stale session on the server: start over with a fresh peer.
        peer.destroy();
      }
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.closing || this.timer) return;
    const delay = Math.min(BACKOFF_MAX_MS, BACKOFF_START_MS * 2 ** this.attempt);
    this.attempt++;
    this.timer = setTimeout(() => void this.retry(), delay);
  }

  private async retry(): Promise<void> {
    this.timer = null;
    if (this.closing) return;
    if (this.attempt > 1 && this.options.checkToken) {
      try {
        await this.options.checkToken();
      } catch (err) {
        if (err instanceof Error && err.name === 'TokenRefusedError') {
          this.fatal(err);
          return;
        }
        // server unreachable: keep trying
      }
      if (this.closing) return;
    }
    const peer = this.peer;
    if (peer && !peer.destroyed && peer.disconnected) {
      this.options.logger.info(`reconnecting to signalling (attempt ${this.attempt})`);
      try {
        peer.reconnect();
      } catch (err) {
        this.options.logger.warn(`reconnect failed: ${errorMessage(err)}`);
        peer.destroy();
        await this.create();
      }
    } else if (!peer || peer.destroyed) {
      this.options.logger.info(`recreating signalling peer (attempt ${this.attempt})`);
      await this.create();
    }
  }

  /** One watchdog tick; see the module comment. */
  private tick(): void {
    const peer = this.peer;
    if (this.closing || !peer || this.timer || this.probe) return;
    if (peer.destroyed || peer.disconnected) {
      // Down, and no retry pending: nothing else will bring it back.
      if (++this.stuckTicks >= WATCHDOG_STUCK_TICKS) {
        this.options.logger.warn(
          `signalling peer down with no retry pending for ${this.stuckTicks} watchdog ticks; recreating it`,
        );
        this.recreate();
      }
      return;
    }
    this.stuckTicks = 0;
    // Probed whether or not peerjs saw OPEN: what matters is that messages go round.
    const id = `${WATCHDOG_PROBE_PREFIX}${Date.now().toString(36)}-${++this.probeSeq}`;
    const timer = setTimeout(
      () => this.probeMissed(peer, id),
      this.options.watchdog?.timeoutMs ?? WATCHDOG_TIMEOUT_MS,
    );
    timer.unref();
    this.probe = { id, peer, timer };
    try {
      (peer.socket as unknown as { send(m: unknown): void }).send({
        type: 'LEAVE',
        dst: this.options.deviceId,
        payload: { connectionId: id },
      });
    } catch (err) {
      this.options.logger.warn(`watchdog probe could not be sent: ${errorMessage(err)}`);
    }
  }

  private probeAnswered(peer: PeerType, id: string): void {
    if (this.probe?.id !== id || this.probe.peer !== peer) return;
    this.clearProbe();
    if (!this.probeEverAnswered || this.recovering) {
      this.options.logger.info('signalling watchdog: probe answered', { peer: this.options.deviceId });
    }
    this.probeEverAnswered = true;
    this.watchdogReconnected = false;
    this.recovering = false;
  }

  private probeMissed(peer: PeerType, id: string): void {
    if (this.probe?.id !== id) return;
    this.probe = null;
    if (this.closing || peer !== this.peer) return;
    const timeoutMs = this.options.watchdog?.timeoutMs ?? WATCHDOG_TIMEOUT_MS;
    if (!this.probeEverAnswered) {
      if (!this.unansweredLogged) {
        this.unansweredLogged = true;
        this.options.logger.warn(
          `signalling watchdog: no probe back within ${timeoutMs} ms, and none ever was (server does not relay them?); not acting`,
        );
      }
      return;
    }
    // Already down: the reconnect machinery is in charge.
    if (peer.destroyed || peer.disconnected || this.timer) return;
    if (this.watchdogReconnected) {
      this.options.logger.warn(
        `signalling watchdog: still no probe back within ${timeoutMs} ms; recreating the peer`,
      );
      this.recreate();
      return;
    }
    this.options.logger.warn(`signalling watchdog: no probe back within ${timeoutMs} ms; reconnecting`);
    this.watchdogReconnected = true;
    this.recovering = true;
    this.watchdogActions.reconnects++;
    // 'disconnected' → schedule() → peer.reconnect() on a fresh socket; data connections stay up.
    peer.disconnect();
  }

  /** Destroys the current Peer (closing its data connections) and registers a new one with the same id. */
  private recreate(): void {
    const peer = this.peer;
    this.peer = null;
    this.clearProbe();
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.watchdogReconnected = false;
    this.recovering = true;
    this.watchdogActions.recreates++;
    try {
      peer?.destroy();
    } catch (err) {
      this.options.logger.warn(`destroying the signalling peer failed: ${errorMessage(err)}`);
    }
    void this.create();
  }

  private clearProbe(): void {
    if (this.probe) clearTimeout(this.probe.timer);
    this.probe = null;
  }

  private fatal(err: Error): void {
    this.options.logger.error(err.message);
    if (this.firstOpen) {
      this.firstOpen.reject(err);
      this.firstOpen = null;
      this.close();
    } else {
      this.close();
      this.options.onFatal?.(err);
    }
  }
}
