/**
 * The agent's registration with the PeerJS signalling server under its device_id (team brief
 * "Signalling"). Keeps it registered: when the socket drops ('disconnected') it calls peer.reconnect();
 * when the peer is destroyed (first connection failed, id taken) it creates a new one — both with
 * exponential backoff (1 s … 30 s). After a failed attempt it asks the server whether the device token is
 * still accepted, and gives up (onFatal) when it is not.
 */
import type { DataConnection, Peer as PeerType, PeerOptions } from 'peerjs';
import { PEERJS_KEY, PEERJS_PATH } from '../../protocol';
import type { IceServer } from '../../protocol';
import type { Logger } from '../log';
import { errorMessage } from '../log';
import { loadPeer } from '../wrtc';

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
  logger: Logger;
  /** Every incoming data connection. */
  onConnection(conn: DataConnection): void;
  /** Rejects (e.g. TokenRefusedError) when the token is no longer accepted. */
  checkToken?: () => Promise<void>;
  /** Unrecoverable failure after start() resolved. */
  onFatal?(err: Error): void;
}

/** PeerJS client options for a server URL (team brief: path '/peerjs', key 'peerjs', token, secure). */
export function peerOptions(serverUrl: string, token: string, iceServers: IceServer[]): PeerOptions {
  const url = new URL(serverUrl);
  const secure = url.protocol === 'https:';
  return {
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 443 : 80,
    path: PEERJS_PATH,
    key: PEERJS_KEY,
    token,
    secure,
    config: { iceServers },
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

  constructor(private readonly options: SignallingOptions) {}

  /** Whether the peer is registered with the signalling server now. */
  get connected(): boolean {
    return !!this.peer && this.peer.open && !this.peer.disconnected;
  }

  /**
   * Registers the peer. Resolves on the first 'open'; keeps retrying on network failures and rejects only
   * on fatal errors (invalid id/key, token refused).
   */
  start(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.firstOpen = { resolve, reject };
      void this.create();
    });
  }

  /** Destroys the peer (closing its data connections) and stops reconnecting. */
  close(): void {
    this.closing = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
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
    const peer = new Peer(o.deviceId, peerOptions(o.serverUrl, o.deviceToken, o.iceServers));
    this.peer = peer;
    peer.on('open', () => {
      if (peer !== this.peer) return;
      this.attempt = 0;
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
