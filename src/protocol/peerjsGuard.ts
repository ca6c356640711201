/**
 * A guard around one PeerJS 1.5.5 data connection's signalling messages (ARCHITECTURE "The device link"),
 * shared by both ends of the device link: the agent's accepted connections (src/agent/link/guard.ts) and the
 * console's device links (src/console/platform/peerLink.ts). No imports: the console's entry chunk takes it.
 *
 * Why: `DataConnection.handleMessage` is async and awaits `negotiator.handleCandidate` (and `handleSDP`), and
 * `Peer._handleMessage` calls it without awaiting or catching. When the connection is closed while an ICE
 * candidate is being added — `close()` closes the RTCPeerConnection and sets `provider`, `_negotiator` and
 * `peerConnection` to null synchronously — the pending `addIceCandidate` rejects, and handleCandidate's own
 * catch block then calls `this.connection.provider.emitError(...)` on the null provider: a TypeError that
 * escapes as an unhandled promise rejection (node_modules/peerjs/dist/bundler.mjs, `handleCandidate`). The
 * connection is gone by then, so there is nobody to tell; the rejection only has to be caught. Seen in the
 * agent (tests/unit/agent/sendRaceChild.ts: browsers closing links abruptly while ICE is still trickling).
 * A candidate that arrives after the close is not the problem: `Peer._handleMessage` no longer finds the
 * connection and stores the message; the race is a candidate being added while the connection closes.
 *
 * `Peer._handleMessage` looks `handleMessage` up on the connection object at every message, so replacing it
 * on the instance (before any signalling message reaches it: right after `peer.connect()`, or in the
 * `connection` listener, which PeerJS calls before it replays stored messages) catches every such promise.
 * MediaConnection's handleMessage does not return the candidate's promise; we use no media connections.
 */

/** The part of a PeerJS DataConnection this guard touches (absent on test doubles: nothing to guard). */
interface SignalledConnection {
  handleMessage?: (message: unknown) => unknown;
}

const GUARDED = Symbol('edge.peerGuarded');

/**
 * Wraps `conn.handleMessage` so that a rejection of it (a signalling message handled while or after the
 * connection closed) is given to `onLate` instead of becoming an unhandled rejection. Returns `conn`.
 * Idempotent; a connection without handleMessage is returned unchanged.
 */
export function guardLateSignals<C extends object>(conn: C, onLate: (error: unknown) => void = () => {}): C {
  const target = conn as C & SignalledConnection & { [GUARDED]?: true };
  const original = target.handleMessage;
  if (typeof original !== 'function' || target[GUARDED]) return conn;
  target[GUARDED] = true;
  target.handleMessage = (message: unknown) => {
    const outcome = original.call(target, message);
    if (outcome instanceof Promise) return outcome.catch(onLate);
    return outcome;
  };
  return conn;
}
