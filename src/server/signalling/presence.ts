/**
 * Who is registered with the signalling server right now (spec §7 signalling calls: isOnline, exist;
 * get_devices is_active / active_devices_count). Fed by the PeerJS server's connection/disconnect events.
 */

/** The part of a PeerJS client the tracker needs. */
export interface PeerClientLike {
  getId(): string;
  getSocket(): { readyState: number; close(code?: number, reason?: string): void } | null;
}

const WS_OPEN = 1;

export class Presence {
  private readonly clients = new Map<string, PeerClientLike>();
  private readonly listeners = new Set<(peerId: string, online: boolean) => void>();

  /** A peer registered (or re-attached its socket). */
  connected(client: PeerClientLike): void {
    this.clients.set(client.getId(), client);
    this.emit(client.getId(), true);
  }

  /** A peer left (socket closed or heartbeat timed out). */
  disconnected(client: PeerClientLike): void {
    if (this.clients.get(client.getId()) === client) {
      this.clients.delete(client.getId());
      this.emit(client.getId(), false);
    }
  }

  /** `exist`: the peer id is registered with the signalling server. */
  exists(peerId: string): boolean {
    return this.clients.has(peerId);
  }

  /** `isOnline`: registered and its WebSocket is open right now. */
  isOnline(peerId: string): boolean {
    return this.clients.get(peerId)?.getSocket()?.readyState === WS_OPEN;
  }

  /** Peer ids online right now. */
  onlineIds(): string[] {
    return [...this.clients.keys()].filter((id) => this.isOnline(id));
  }

  /** Closes the signalling socket of `peerId` (e.g. its device token was revoked). */
  kick(peerId: string, reason = 'token revoked'): void {
    this.clients.get(peerId)?.getSocket()?.close(4001, reason);
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
