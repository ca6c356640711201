/**
 * WebRTC for Node (`@roamhq/wrtc`) and the PeerJS client on top of it.
 * PeerJS reads the browser globals when it is imported, so they are installed first and peerjs is then
 * imported dynamically (team brief "WebRTC in Node").
 */
import wrtc from '@roamhq/wrtc';
import { WebSocket, type ClientOptions } from 'ws';
import type { Peer as PeerClass } from 'peerjs';

export { wrtc };

/**
 * wrtc 0.10's RTCDataChannel.send (native) checks its channel is open, then sends through a pointer that
 * libwebrtc's signaling thread sets to null when the channel closes (RTCDataChannel::OnStateChange →
 * CleanupInternals, not on the JS thread): a send racing the remote end closing its peer connection
 * dereferences null and the process dies with SIGSEGV (the fuzz "link churn": a browser closing its link
 * while the agent answers it). Evidence (issue 15, a core dump of a repro with two wrtc peers, the remote
 * closing while the local end sends 4–15 KB messages): the faulting frame is `RTCDataChannel::Send`+1105, on
 * the JS thread, `mov (%rdi),%rax` with rdi = 0 just after reloading `_jingleDataChannel` (this+0x1d0), which
 * Send had checked non-null and open (`state()`, a synchronous call into the signaling thread) a few
 * instructions before; `OnStateChange` calls `CleanupInternals` directly on the signaling thread, and that
 * releases the channel *before* storing null (so a use after free is possible too). @roamhq/wrtc 0.10.0 is the
 * newest release. Nothing in JavaScript can close that window (it lies inside one native call); this narrows
 * it: a channel not open is refused here (InvalidStateError, as the native send would) without entering
 * native code, and a channel seen closed once is never sent on again. Links should send as little as
 * possible into a closing link (see StreamManager.start: offers that cannot work are refused before any peer
 * connection is made). A tight loop of 4–15 KB sends into a channel whose remote closes crashes within seconds;
 * the agent's real traffic with abrupt closes (tests/unit/agent/sendRace.test.ts) does not.
 */
const dataChannelProto = wrtc.RTCDataChannel.prototype as {
  send(data: unknown): void;
  readyState: string;
  __closedSeen?: boolean;
};
class InvalidStateError extends Error {
  override readonly name = 'InvalidStateError';
}
const nativeSend = dataChannelProto.send;
dataChannelProto.send = function guardedSend(this: typeof dataChannelProto, data: unknown) {
  const state = this.__closedSeen ? 'closed' : this.readyState;
  if (state !== 'open') {
    if (state === 'closing' || state === 'closed') this.__closedSeen = true;
    throw new InvalidStateError("RTCDataChannel.readyState is not 'open'");
  }
  nativeSend.call(this, data);
};
/** wrtc's non-standard media API: RTCVideoSource (I420 frames in), RTCVideoSink, i420ToRgba. */
export const nonstandard = wrtc.nonstandard;

/**
 * `ws`'s WebSocket with an 'error' listener of its own. PeerJS sets no `onerror`, and `ws` throws an
 * unhandled 'error' event when the server refuses the upgrade (401 for a revoked device token), which would
 * crash the agent; PeerJS still sees the close and reports 'socket-closed' to the signalling module.
 */
class SafeWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    const [address, protocols, options] = args;
    const token = signallingTokenFor(String(address));
    if (token) {
      const given = (options as ClientOptions | undefined)?.headers;
      super(address, protocols, {
        ...(options as ClientOptions | undefined),
        headers: { ...given, authorization: `Token ${token}` },
      });
    } else super(...args);
    this.on('error', () => {});
  }
}

/** Device tokens by peer id, for the signalling sockets of those peers (see authorizeSignalling). */
const signallingTokens = new Map<string, string>();

/**
 * The signalling socket PeerJS opens for `peerId` sends `token` as `Authorization: Token …`, never in its URL
 * (issue 15 "tokens never in URLs"; the server refuses a device token in the URL). PeerJS builds the socket
 * itself (`new WebSocket(url)`), so the header is added here, matched by the URL's `id`. A later call replaces
 * the token (a new device token); `null` forgets it.
 */
export function authorizeSignalling(peerId: string, token: string | null): void {
  if (token === null) signallingTokens.delete(peerId);
  else signallingTokens.set(peerId, token);
}

function signallingTokenFor(address: string): string | undefined {
  if (signallingTokens.size === 0) return undefined;
  try {
    const url = new URL(address);
    if (!url.pathname.endsWith('/peerjs')) return undefined;
    return signallingTokens.get(url.searchParams.get('id') ?? '');
  } catch {
    return undefined;
  }
}

let installed = false;
/** Installs RTCPeerConnection, RTCSessionDescription, RTCIceCandidate and WebSocket on globalThis (once). */
export function installWebRtcGlobals(): void {
  if (installed) return;
  const g = globalThis as Record<string, unknown>;
  g.RTCPeerConnection = wrtc.RTCPeerConnection;
  g.RTCSessionDescription = wrtc.RTCSessionDescription;
  g.RTCIceCandidate = wrtc.RTCIceCandidate;
  if (typeof g.WebSocket === 'undefined') g.WebSocket = SafeWebSocket;
  installed = true;
}

let peerCtor: Promise<typeof PeerClass> | undefined;
/** The PeerJS `Peer` class, imported after the globals are in place. */
export function loadPeer(): Promise<typeof PeerClass> {
  installWebRtcGlobals();
  peerCtor ??= import('peerjs').then((m) => m.default as unknown as typeof PeerClass);
  return peerCtor;
}
