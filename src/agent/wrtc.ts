/**
 * WebRTC for Node (`@roamhq/wrtc`) and the PeerJS client on top of it.
 * PeerJS reads the browser globals when it is imported, so they are installed first and peerjs is then
 * imported dynamically (team brief "WebRTC in Node").
 */
import wrtc from '@roamhq/wrtc';
import { WebSocket } from 'ws';
import type { Peer as PeerClass } from 'peerjs';

export { wrtc };
/** wrtc's non-standard media API: RTCVideoSource (I420 frames in), RTCVideoSink, i420ToRgba. */
export const nonstandard = wrtc.nonstandard;

/**
 * `ws`'s WebSocket with an 'error' listener of its own. PeerJS sets no `onerror`, and `ws` throws an
 * unhandled 'error' event when the server refuses the upgrade (401 for a revoked device token), which would
 * crash the agent; PeerJS still sees the close and reports 'socket-closed' to the signalling module.
 */
class SafeWebSocket extends WebSocket {
  constructor(...args: ConstructorParameters<typeof WebSocket>) {
    super(...args);
    this.on('error', () => {});
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
