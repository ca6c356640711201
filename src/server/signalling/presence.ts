/**
 * Who is registered with the signalling server right now (spec §7 signalling calls: isOnline, exist;
 * get_devices is_active / active_devices_count). Fed by the PeerJS server's connection/disconnect events of
 * this instance, and (issue 15 "Scale-out") by a `RemotePresence` view of the peers connected to the other
 * server instances (./cluster.ts), so the answers are the same from any instance. `subscribe` reports only
 * this instance's changes (each instance records its own peers' last-seen).
 */

/** Peers connected to other server instances. */
export interface RemotePresence {
  remoteInstanceOf(peerId: string): string | null;
  remoteIds(): string[];
  /** Asks the instance holding `peerId` to close its socket; false when no other instance holds it. */
  kickRemote(peerId: string, reason: string): boolean;
  /** A number that changes whenever remoteIds() may answer differently. */
  version(): number;
}

/** The longest an online list is reused while nothing reported a change (a closing socket reports late). */
export const ONLINE_LIST_TTL_MS = 1000;

/** The part of a PeerJS client the tracker needs. */
export interface PeerClientLike {
  getId(): string;
  getSocket(): { readyState: number; close(code?: number, reason?: string): void } | null;
}

const WS_OPEN = 1;

export class Presence {
  private readonly clients = new Map<string, PeerClientLike>();
  private readonly listeners = new Set<(peerId: string, online: boolean) => void>();
  private remote: RemotePresence | null = null;
  /** Bumped by every local connect and disconnect. */
  private localChanges = 0;
  private online: { ids: readonly string[]; local: number; remote: number; atMs: number } | null = null;

  /** Adds the other instances' peers to every answer (set by the signalling server). */
  setRemote(remote: RemotePresence | null): void {
    this.remote = remote;
  }

  /** The client of `peerId` connected to this instance. */
  local(peerId: string): PeerClientLike | undefined {
    return this.clients.get(peerId);
  }

  /** `peerId` is registered with this instance. */
  existsHere(peerId: string): boolean {
    return this.clients.has(peerId);
  }

  /** A peer registered (or re-attached its socket). */
  connected(client: PeerClientLike): void {
    this.clients.set(client.getId(), client);
    this.localChanges++;
    this.emit(client.getId(), true);
  }

  /** A peer left (socket closed or heartbeat timed out). */
  disconnected(client: PeerClientLike): void {
    if (this.clients.get(client.getId()) === client) {
      this.clients.delete(client.getId());
      this.localChanges++;
      this.emit(client.getId(), false);
    }
  }

  /** `exist`: the peer id is registered with the signalling server. */
  exists(peerId: string): boolean {
    return this.clients.has(peerId) || !!this.remote?.remoteInstanceOf(peerId);
  }

  /** `isOnline`: registered and its WebSocket is open right now. */
  isOnline(peerId: string): boolean {
    if (this.clients.get(peerId)?.getSocket()?.readyState === WS_OPEN) return true;
    return !this.clients.has(peerId) && !!this.remote?.remoteInstanceOf(peerId);
  }

  /**
   * Peer ids online right now, as one frozen array reused until a peer connects or leaves here or on another
   * instance (or ONLINE_LIST_TTL_MS passes): every device list asks for it, and the same array object lets the
   * database layer reuse its serialized parameter (src/server/db/scope.ts isAnyOf).
   */
  onlineIds(): readonly string[] {
    const remote = this.remote?.version() ?? 0;
    const now = Date.now();
    const cached = this.online;
    if (
      cached &&
      cached.local === this.localChanges &&
      cached.remote === remote &&
      now - cached.atMs < ONLINE_LIST_TTL_MS
    )
      return cached.ids;
    const here = [...this.clients.keys()].filter((id) => this.isOnline(id));
    const set = new Set(here);
    for (const id of this.remote?.remoteIds() ?? []) if (!this.clients.has(id)) set.add(id);
    const ids = Object.freeze([...set]);
    this.online = { ids, local: this.localChanges, remote, atMs: now };
    return ids;
  }

  /** Closes the signalling socket of `peerId` (e.g. its device token was revoked). */
  kick(peerId: string, reason = 'token revoked'): void {
    const client = this.clients.get(peerId);
    if (client) client.getSocket()?.close(4001, reason);
    else this.remote?.kickRemote(peerId, reason);
  }

  /** Subscribes to presence changes; returns the unsubscribe function. */
  subscribe(fn: (peerId: string, online: boolean) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  private emit(peerId: string, online: boolean): void {
    for (const fn of this.listeners) {
      try {
        fn(peerId, online);
      } catch {
        // a listener's failure must not break signalling
      }
    }
  }
}
