/**
 * The browser's PeerJS peer and its device links — spec §4 "Signal connection status", "Device
 * connection"; §7 `get_browser_token` (servers, token); ARCHITECTURE "The device link".
 *
 * - One `Peer` per tab, id = browserId ('web-' + random), ICE servers from POST get_browser_token's
 *   `servers`; path '/peerjs', key 'peerjs', host/port/secure from window.location.
 * - Signalling credential (issue 15 "tokens never in URLs"): get_browser_token also sets the HttpOnly cookie
 *   `edge_sig_<browserId>` (Path=/peerjs, 120 s) that the PeerJS upgrade sends; the answer's `token` is never
 *   given to PeerJS (it would go in the socket URL), whose `token` option stays its own random string. The
 *   cookie is short-lived, so it is fetched again before every (re)connect, `peer.reconnect()` included.
 * - ICE (issue 15 "Relayed WebRTC"): `servers` may hold TURN credentials that expire at `expires_at`, and
 *   `policy` 'relay' forces relayed candidates. The link keeps one RTCConfiguration object (given to PeerJS,
 *   which reads it for every new device connection; `rtcConfiguration()` for stream and inference peer
 *   connections) and refreshes it from GET ice-servers once half the credentials' lifetime has passed
 *   (a timer while signalling is open, and a check before each `openDevice`).
 *   peerjs is loaded with a dynamic `import('peerjs')` so the /login route does not ship it.
 * - A signalling drop (peer 'disconnected') is reported to the signal machine (`onLost`), which calls
 *   `open()` again: the same peer reconnects, or a new one is created when it was destroyed.
 * - Device links: `openDevice` = POST device-grant → peer.connect(device_id, { serialization: 'json',
 *   reliable: true }) → hello/hello.ok. `callDevice(deviceId, process, payload)` is the typed request/reply.
 * - The device-link code (deviceRpc.ts, which validates with zod) is loaded on demand: prefetched when
 *   signalling opens, awaited by `openDevice`; device links only exist after that, so `callDevice` never waits.
 */
import { guardLateSignals } from '../../protocol/peerjsGuard';
import { DEVICE_CONNECTION_TIMEOUT_MS, PEERJS_KEY, PEERJS_PATH } from '../../protocol/constants';
import type { CommandReply, CommandRequest, DeviceProcess } from '../../protocol/commands';
import type { IceServer, IceServersResponse } from '../../protocol/rest';
import type { DeviceLinkClient } from './deviceRpc';
import { DeviceCommandError, randomId, type CallOptions, type DataConnectionLike } from './linkShared';

export { DeviceCommandError } from './linkShared';

type DeviceRpcModule = typeof import('./deviceRpc');
let deviceRpc: Promise<DeviceRpcModule> | null = null;
/**
 * deviceRpc.ts (and with it zod and the command/link schemas), imported once: prefetched when signalling
 * opens, awaited by the first `openDevice`. A failed load is retried next time.
 */
function loadDeviceRpc(): Promise<DeviceRpcModule> {
  deviceRpc ??= import('./deviceRpc').catch((error: unknown) => {
    deviceRpc = null;
    throw error;
  });
  return deviceRpc;
}

/** The part of a PeerJS `Peer` we use. */
export interface PeerLike {
  readonly id: string;
  readonly open: boolean;
  readonly disconnected: boolean;
  readonly destroyed: boolean;
  on(event: 'open', listener: (id: string) => void): unknown;
  on(event: 'disconnected' | 'close', listener: () => void): unknown;
  on(event: 'error', listener: (error: Error & { type?: string }) => void): unknown;
  off(event: string, listener: (...args: never[]) => void): unknown;
  connect(peerId: string, options: { serialization: 'json'; reliable: true }): DataConnectionLike;
  reconnect(): void;
  destroy(): void;
}

/** Options given to the PeerJS `Peer` constructor. */
export interface PeerOptions {
  host: string;
  port: number;
  path: string;
  key: string;
  secure: boolean;
  config: IceConfiguration;
  debug: number;
}

/** Where the signalling server is: the page's own origin. */
export interface PeerLocation {
  hostname: string;
  port: string;
  protocol: string;
}

/** The RTCConfiguration part the server decides: ICE servers and transport policy. */
export interface IceConfiguration {
  iceServers: IceServer[];
  iceTransportPolicy: 'all' | 'relay';
}

/**
 * The server calls the link needs (features/signalling/api.ts: §7 get_browser_token, device-grant, and
 * ice-servers to refresh expiring TURN credentials; without `iceServers` the first answer is kept).
 */
export interface SignallingCalls {
  getBrowserToken(browserId: string): Promise<{ token: string } & IceServersResponse>;
  deviceGrant(deviceId: string, browserId: string, signal?: AbortSignal): Promise<{ grant: string }>;
  iceServers?(): Promise<IceServersResponse>;
}

/** Shortest wait before a scheduled ICE refresh (ms), so a clock skew cannot make it spin. */
const ICE_REFRESH_MIN_MS = 10_000;

export interface PeerLinkOptions {
  browserId: string;
  api: SignallingCalls;
  /** Creates the Peer (tests); default: dynamic import of peerjs. */
  createPeer?: (id: string, options: PeerOptions) => Promise<PeerLike>;
  /** Default window.location. */
  location?: PeerLocation;
}

/** A new browser peer id: 'web-' + 16 random hex characters (§ brief "Peer ids"). */
export function createBrowserId(): string {
  return `web-${randomId(8)}`;
}

async function defaultCreatePeer(id: string, options: PeerOptions): Promise<PeerLike> {
  const { default: Peer } = await import('peerjs');
  return new Peer(id, options) as unknown as PeerLike;
}

/** PeerJS error types that mean the signalling connection is unusable (not a single failed connect). */
const FATAL_PEER_ERRORS = new Set([
  'network',
  'server-error',
  'socket-error',
  'socket-closed',
  'unavailable-id',
  'invalid-id',
  'invalid-key',
  'browser-incompatible',
  'ssl-unavailable',
]);

/** The browser's signalling peer and its device links. */
export class PeerLink {
  private peer: PeerLike | null = null;
  private opening: Promise<void> | null = null;
  private readonly links = new Map<string, DeviceLinkClient>();
  private readonly lostListeners = new Set<(error: string) => void>();
  /** A drop is being reported (see reportLost). */
  private lostPending = false;
  private readonly eventListeners = new Set<DeviceEventListener>();
  /**
   * ICE servers and policy from the last get_browser_token / ice-servers answer. The same object is PeerJS's
   * `config` (updated in place on refresh); stream and inference peer connections read it when they start.
   */
  private readonly ice: IceConfiguration = { iceServers: [], iceTransportPolicy: 'all' };
  /** When the ICE answer should be refreshed (ms since epoch: half its lifetime); null = never. */
  private iceRefreshAt: number | null = null;
  private iceTimer: ReturnType<typeof setTimeout> | null = null;
  private iceRefreshing: Promise<void> | null = null;

  constructor(private readonly options: PeerLinkOptions) {}

  get browserId(): string {
    return this.options.browserId;
  }

  /** ICE servers of the last answer (stream and inference peer connections). */
  get iceServers(): IceServer[] {
    return this.ice.iceServers;
  }

  /** 'relay' when the server asks for relayed candidates only (ICE_TRANSPORT_POLICY), else 'all'. */
  get iceTransportPolicy(): 'all' | 'relay' {
    return this.ice.iceTransportPolicy;
  }

  /** A fresh RTCConfiguration for a new peer connection: `{ iceServers, iceTransportPolicy }`. */
  rtcConfiguration(): IceConfiguration {
    return { iceServers: [...this.ice.iceServers], iceTransportPolicy: this.ice.iceTransportPolicy };
  }

  /** Takes an ICE answer: updates the shared configuration in place and schedules the next refresh. */
  private applyIce(answer: IceServersResponse): void {
    this.ice.iceServers = answer.servers;
    this.ice.iceTransportPolicy = answer.policy ?? 'all';
    const now = Date.now();
    this.iceRefreshAt =
      answer.expires_at === undefined ? null : now + Math.max(0, (answer.expires_at - now) / 2);
    if (this.iceTimer) clearTimeout(this.iceTimer);
    this.iceTimer = null;
    if (this.iceRefreshAt !== null && this.options.api.iceServers) {
      this.iceTimer = setTimeout(
        () => void this.refreshIce().catch(() => undefined),
        Math.max(ICE_REFRESH_MIN_MS, this.iceRefreshAt - now),
      );
    }
  }

  /**
   * Fetches new ICE servers (GET ice-servers) when half the current credentials' lifetime has passed;
   * concurrent calls share one request. A failed request keeps the current answer (and rejects).
   */
  refreshIce(): Promise<void> {
    const fetchIce = this.options.api.iceServers?.bind(this.options.api);
    if (!fetchIce || this.iceRefreshAt === null || Date.now() < this.iceRefreshAt) return Promise.resolve();
    this.iceRefreshing ??= fetchIce()
      .then((answer) => this.applyIce(answer))
      .finally(() => {
        this.iceRefreshing = null;
      });
    return this.iceRefreshing;
  }

  /** True while the peer is registered with the signalling server. */
  get isOpen(): boolean {
    return !!this.peer && this.peer.open && !this.peer.disconnected && !this.peer.destroyed;
  }

  /**
   * Opens (or re-opens) the signalling peer; resolves when it is registered. Concurrent calls share one
   * attempt. Rejects with an Error whose message says why (server refused the token, network…).
   */
  open(): Promise<void> {
    if (this.isOpen) return Promise.resolve();
    if (!this.opening) {
      this.opening = this.doOpen().finally(() => {
        this.opening = null;
      });
    }
    return this.opening;
  }

  private async doOpen(): Promise<void> {
    const existing = this.peer;
    if (existing && !existing.destroyed && existing.disconnected) {
      // Same peer id: a fresh signalling cookie, then PeerJS re-registers.
      await this.fetchCredential();
      await this.awaitOpen(existing, () => existing.reconnect());
      return;
    }
    if (existing) this.destroyPeer();
    loadDeviceRpc().catch(() => undefined); // prefetch for the first openDevice
    await this.fetchCredential();
    const loc = this.options.location ?? window.location;
    const secure = loc.protocol === 'https:';
    const peer = await (this.options.createPeer ?? defaultCreatePeer)(this.options.browserId, {
      host: loc.hostname,
      port: loc.port ? Number(loc.port) : secure ? 443 : 80,
      path: PEERJS_PATH,
      key: PEERJS_KEY,
      secure,
      config: this.ice,
      debug: 0,
    });
    this.peer = peer;
    peer.on('disconnected', () => this.reportLost('Signalling connection lost.'));
    peer.on('close', () => this.reportLost('Signalling peer closed.'));
    peer.on('error', (error) => this.onPeerError(error));
    await this.awaitOpen(peer, () => undefined);
  }

  /**
   * POST get_browser_token: sets the signalling cookie for this peer id (the answer's token is not kept) and
   * brings new ICE servers.
   */
  private async fetchCredential(): Promise<void> {
    this.applyIce(await this.options.api.getBrowserToken(this.options.browserId));
  }

  private awaitOpen(peer: PeerLike, start: () => void): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      if (peer.open && !peer.disconnected) {
        resolve();
        return;
      }
      const onOpen = () => {
        cleanup();
        resolve();
      };
      const onError = (error: Error & { type?: string }) => {
        if (error.type && !FATAL_PEER_ERRORS.has(error.type)) return;
        cleanup();
        reject(new Error(error.message || 'Signalling server is not reachable.'));
      };
      const onClose = () => {
        cleanup();
        reject(new Error('Signalling peer closed.'));
      };
      const cleanup = () => {
        peer.off('open', onOpen);
        peer.off('error', onError);
        peer.off('close', onClose);
      };
      peer.on('open', onOpen);
      peer.on('error', onError);
      peer.on('close', onClose);
      start();
    });
  }

  private onPeerError(error: Error & { type?: string }): void {
    if (error.type === 'peer-unavailable') {
      // "Could not connect to peer dev-…": fail that device's link at once instead of waiting.
      for (const [deviceId, link] of this.links) {
        if (error.message.includes(deviceId)) link.fail('Device is not connected to signalling.');
      }
      return;
    }
    if (error.type && FATAL_PEER_ERRORS.has(error.type)) this.reportLost(error.message || error.type);
  }

  /**
   * Tells the listeners once the peer has settled: PeerJS reports a dropped socket as an 'error' (network)
   * *before* it marks itself disconnected, and a listener that reopened at once would find the peer still
   * open, "reconnect" nothing, and miss the 'disconnected' that follows. Reported on the next task, once per
   * drop, and only when the peer is then not open.
   */
  private reportLost(error: string): void {
    if (this.opening || this.lostPending) return; // the attempt in progress reports its own outcome
    this.lostPending = true;
    setTimeout(() => {
      this.lostPending = false;
      if (this.opening || this.isOpen) return;
      for (const listener of [...this.lostListeners]) listener(error);
    }, 0);
  }

  /** Listens for signalling drops while open; returns the unsubscribe function. */
  onLost(listener: (error: string) => void): () => void {
    this.lostListeners.add(listener);
    return () => this.lostListeners.delete(listener);
  }

  /** Destroys the peer and closes every device link (sign-out, signal.disconnect). */
  close(): void {
    for (const id of [...this.links.keys()]) this.closeDevice(id);
    this.destroyPeer();
    if (this.iceTimer) clearTimeout(this.iceTimer);
    this.iceTimer = null;
  }

  private destroyPeer(): void {
    const peer = this.peer;
    this.peer = null;
    if (peer && !peer.destroyed) {
      try {
        peer.destroy();
      } catch {
        // already gone
      }
    }
  }

  /**
   * Opens the link to a device: grant, connect, hello, hello.ok. Resolves with the open time (ms since
   * epoch). Aborting `signal` closes the half-open link. Rejects with an Error (DeviceCommandError for
   * link failures, ApiRequestError for the grant).
   */
  async openDevice(deviceId: string, signal?: AbortSignal): Promise<number> {
    this.closeDevice(deviceId);
    if (!this.isOpen) {
      if (!this.opening) throw new DeviceCommandError('signalling', 'Signalling is not connected.');
      await this.opening;
    }
    const { DeviceLinkClient } = await loadDeviceRpc().catch(() => {
      throw new DeviceCommandError('link_closed', 'Can not connect to the device.');
    });
    // Expiring TURN credentials are renewed before a new connection uses them; a failed refresh keeps the old.
    await this.refreshIce().catch(() => undefined);
    const { grant } = await this.options.api.deviceGrant(deviceId, this.options.browserId, signal);
    if (signal?.aborted) throw new DeviceCommandError('aborted', 'Connection attempt cancelled.');
    const peer = this.peer;
    if (!peer || !this.isOpen) throw new DeviceCommandError('signalling', 'Signalling is not connected.');
    // A CANDIDATE still being added when the link closes must not reject unhandled (protocol/peerjsGuard.ts).
    const conn = guardLateSignals(peer.connect(deviceId, { serialization: 'json', reliable: true }));
    const link = new DeviceLinkClient(conn, deviceId, (name, data) => {
      for (const listener of [...this.eventListeners]) listener(deviceId, name, data);
    });
    this.links.set(deviceId, link);
    link.onClose(() => {
      if (this.links.get(deviceId) === link) this.links.delete(deviceId);
    });
    const onAbort = () => link.close();
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await link.open(grant, DEVICE_CONNECTION_TIMEOUT_MS);
    } catch (error) {
      link.close();
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
    return Date.now();
  }

  /** Closes a device's link (idempotent). */
  closeDevice(deviceId: string): void {
    const link = this.links.get(deviceId);
    if (!link) return;
    this.links.delete(deviceId);
    link.close();
  }

  /**
   * Listens for events the agents push over their links (`{ type: 'event', name, data }`, link.ts), e.g.
   * 'stream.status' { callId, camera_id, status: 'closed', reason }. Returns the unsubscribe function.
   */
  onDeviceEvent(listener: DeviceEventListener): () => void {
    this.eventListeners.add(listener);
    return () => this.eventListeners.delete(listener);
  }

  /** Calls `listener` once when the device's open link closes (at once if there is none). */
  onDeviceClosed(deviceId: string, listener: (reason: string) => void): () => void {
    const link = this.links.get(deviceId);
    if (!link) {
      listener('The device link is closed.');
      return () => undefined;
    }
    return link.onClose(listener);
  }

  /**
   * Sends a device command and resolves with its validated reply (typed by the protocol registry).
   * Rejects with DeviceCommandError: the device's error reply `{ code, message }`, 'timeout',
   * 'link_closed' (no open link), 'invalid_payload' or 'invalid_reply'.
   */
  callDevice<P extends DeviceProcess>(
    deviceId: string,
    process: P,
    payload: CommandRequest<P>,
    options?: CallOptions,
  ): Promise<CommandReply<P>> {
    const link = this.links.get(deviceId);
    if (!link) {
      return Promise.reject(new DeviceCommandError('link_closed', 'The device is not connected.', process));
    }
    return link.call(process, payload, options);
  }
}

/** Creates the tab's PeerLink (nothing connects until `open()`). */
export function createPeerLink(options: PeerLinkOptions): PeerLink {
  return new PeerLink(options);
}

/** Receives an agent-pushed event; `data` is unvalidated. */
export type DeviceEventListener = (deviceId: string, name: string, data: unknown) => void;

/** Signature of `PeerLink.callDevice`, for services that only need to call devices. */
export type CallDevice = PeerLink['callDevice'];
