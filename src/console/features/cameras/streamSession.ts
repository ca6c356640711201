/**
 * One RTCPeerConnection per camera stream — spec §3 "Stream" (callId, pc), §7 device command `send-sdp`
 * (answer or inferenceEngineError), §9 "ICE gathering wait 5 s"; ARCHITECTURE "The device link: Streams".
 *
 * `start`: new RTCPeerConnection({ iceServers }) → addTransceiver('video', { direction: 'recvonly' }) →
 * createOffer → setLocalDescription → wait for ICE gathering to complete (non-trickle, bounded by
 * ICE_GATHERING_WAIT_MS) → callDevice 'send-sdp' { camera_id, callId, sdp } → setRemoteDescription(answer)
 * → resolves with the MediaStream of the first `track`.
 * `release`: callDevice 'stop-stream' { callId } (when the offer was sent) + pc.close(); idempotent, so
 * every way out (close, failure, abort, actor stopped) leaves nothing open.
 * `hold`: callDevice 'pause-stream' — the agent stops encoding and sending, the peer connection stays (a
 * refused or unanswered hold releases the session instead). `resume`: callDevice 'resume-stream' on the same
 * connection; false when there is nothing to resume (then the session is released).
 * RTCPeerConnection is only touched when a stream starts, never at import time.
 */
import type { DeviceCamera, ResolutionOption } from '../../../protocol/commands';
import { ICE_GATHERING_WAIT_MS, STREAM_ENGINE_ANSWER_WAIT_MS } from '../../../protocol/constants';
import type { IceServer } from '../../../protocol/rest';
import type { CallDevice } from '../../platform/peerLink';

export interface StreamSessionDeps {
  callDevice: CallDevice;
  /** ICE servers for new peer connections (from get_browser_token). */
  getIceServers: () => IceServer[];
  /** Creates the peer connection (tests); default `new RTCPeerConnection(config)`. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
  /** ICE gathering bound, ms (default ICE_GATHERING_WAIT_MS). */
  iceGatheringWaitMs?: number;
  /** Agent-pushed link events (PeerLink.onDeviceEvent): 'stream.status' closed ends a watched stream. */
  onDeviceEvent?: (listener: (deviceId: string, name: string, data: unknown) => void) => () => void;
}

/**
 * The agent's `stream.status` event (link.ts EventMessage, name 'stream.status'): a stream ended other than
 * by stop-stream (camera gone, encoder failed, agent shutting down). Checked structurally: returns the
 * callId and reason when `data` is `{ callId: string, status: 'closed', reason?: string }`, else null.
 */
export function streamClosedEvent(name: string, data: unknown): { callId: string; reason: string } | null {
  if (name !== 'stream.status' || typeof data !== 'object' || data === null) return null;
  const { callId, status, reason } = data as { callId?: unknown; status?: unknown; reason?: unknown };
  if (typeof callId !== 'string' || status !== 'closed') return null;
  return { callId, reason: typeof reason === 'string' && reason ? reason : 'The device closed the stream.' };
}

export interface StartStreamRequest {
  streamId: string;
  deviceId: string;
  camera: DeviceCamera;
  resolution: ResolutionOption | null;
}

interface Session {
  deviceId: string;
  pc: RTCPeerConnection;
  offerSent: boolean;
  mediaStream: MediaStream | null;
}

/**
 * With no ICE servers only host candidates exist, and a browser finds them all at once; it may still take
 * 100–200 ms to call gathering complete (other interfaces, TCP). So without ICE servers the offer goes
 * HOST_CANDIDATES_SETTLE_MS after the first candidate. With STUN/TURN servers it waits for completion.
 */
const HOST_CANDIDATES_SETTLE_MS = 30;

/**
 * Waits until ICE gathering is complete, or `waitMs` passed (then the candidates so far are used), or —
 * `hostOnly` — HOST_CANDIDATES_SETTLE_MS after the first candidate.
 */
function iceGatheringComplete(
  pc: RTCPeerConnection,
  waitMs: number,
  signal?: AbortSignal,
  hostOnly = false,
): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise<void>((resolve) => {
    let settle: ReturnType<typeof setTimeout> | undefined;
    const done = () => {
      clearTimeout(timer);
      clearTimeout(settle);
      pc.removeEventListener('icegatheringstatechange', onChange);
      pc.removeEventListener('icecandidate', onCandidate);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const onChange = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const onCandidate = (event: RTCPeerConnectionIceEvent) => {
      if (hostOnly && event.candidate && settle === undefined)
        settle = setTimeout(done, HOST_CANDIDATES_SETTLE_MS);
    };
    const timer = setTimeout(done, waitMs);
    pc.addEventListener('icegatheringstatechange', onChange);
    pc.addEventListener('icecandidate', onCandidate);
    signal?.addEventListener('abort', done, { once: true });
  });
}

const aborted = () => new Error('Stream start cancelled.');

/** Creates the registry of this tab's stream sessions, keyed by streamId (= callId). */
export function createStreamSessions(deps: StreamSessionDeps) {
  const sessions = new Map<string, Session>();
  const create = deps.createPeerConnection ?? ((config: RTCConfiguration) => new RTCPeerConnection(config));

  /** Ends a session: stop-stream on the device (best effort) and pc.close(). Idempotent. */
  function release(streamId: string): void {
    const session = sessions.get(streamId);
    if (!session) return;
    sessions.delete(streamId);
    if (session.offerSent) {
      deps.callDevice(session.deviceId, 'stop-stream', { callId: streamId }).catch(() => undefined);
    }
    for (const track of session.mediaStream?.getTracks() ?? []) track.stop();
    try {
      session.pc.close();
    } catch {
      // already closed
    }
  }

  /**
   * Starts a stream and resolves with its video. Rejects with the device's error (e.g. code
   * inferenceEngineError) or a local one; aborting `signal` releases everything started so far.
   */
  async function start(
    request: StartStreamRequest,
    signal?: AbortSignal,
  ): Promise<{ mediaStream: MediaStream; resolution: ResolutionOption | null }> {
    release(request.streamId);
    const iceServers = deps.getIceServers() as RTCIceServer[];
    const pc = create({ iceServers });
    const session: Session = { deviceId: request.deviceId, pc, offerSent: false, mediaStream: null };
    sessions.set(request.streamId, session);
    const onAbort = () => release(request.streamId);
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const firstTrack = new Promise<MediaStream>((resolve, reject) => {
        pc.addEventListener('track', (ev) => resolve(ev.streams[0] ?? new MediaStream([ev.track])), {
          once: true,
        });
        pc.addEventListener('connectionstatechange', () => {
          if (pc.connectionState === 'failed' || pc.connectionState === 'closed') {
            reject(new Error('Stream connection failed.'));
          }
        });
      });
      firstTrack.catch(() => undefined);
      pc.addTransceiver('video', { direction: 'recvonly' });
      const offer = await pc.createOffer();
      await pc.setLocalDescription(offer);
      await iceGatheringComplete(
        pc,
        deps.iceGatheringWaitMs ?? ICE_GATHERING_WAIT_MS,
        signal,
        iceServers.length === 0,
      );
      if (signal?.aborted) throw aborted();
      const sdp = pc.localDescription?.sdp ?? offer.sdp ?? '';
      session.offerSent = true;
      const answer = await deps.callDevice(
        request.deviceId,
        'send-sdp',
        {
          camera_id: request.camera.camera_id,
          callId: request.streamId,
          sdp: { type: 'offer', sdp },
          ...(request.resolution ? { resolution: request.resolution } : {}),
        },
        { timeoutMs: STREAM_ENGINE_ANSWER_WAIT_MS },
      );
      if (signal?.aborted) throw aborted();
      await pc.setRemoteDescription(answer.sdp);
      const mediaStream = await firstTrack;
      if (signal?.aborted) throw aborted();
      session.mediaStream = mediaStream;
      return { mediaStream, resolution: answer.resolution };
    } catch (error) {
      release(request.streamId);
      throw error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  /**
   * Holds a playing stream (hidden): pause-stream on the device, the peer connection stays. When the device
   * refuses or does not answer, the session is released instead (the agent then stops it with stop-stream).
   * No-op without a session.
   */
  function hold(streamId: string): void {
    const session = sessions.get(streamId);
    if (!session?.offerSent) return;
    deps
      .callDevice(session.deviceId, 'pause-stream', { callId: streamId })
      .then((r) => {
        if (!r.paused && sessions.get(streamId) === session) release(streamId);
      })
      .catch(() => {
        if (sessions.get(streamId) === session) release(streamId);
      });
  }

  /**
   * Resumes a held stream on its peer connection (resume-stream). Resolves true when the device sends it
   * again; false when there is no session, its connection is gone, or the device no longer has the stream —
   * the session is then released (a new negotiation follows). Rejects only when the device call fails (the
   * session is released then too).
   */
  async function resume(streamId: string): Promise<boolean> {
    const session = sessions.get(streamId);
    if (!session?.mediaStream) return false;
    const state = session.pc.connectionState;
    if (state === 'failed' || state === 'closed') {
      release(streamId);
      return false;
    }
    try {
      const { resumed } = await deps.callDevice(session.deviceId, 'resume-stream', { callId: streamId });
      if (!resumed) release(streamId);
      return resumed && sessions.get(streamId) === session;
    } catch (error) {
      release(streamId);
      throw error;
    }
  }

  /**
   * Watches a playing stream: calls `onEnded(text)` when its track ends or its connection fails. The
   * returned clean-up only stops watching: the stream machine releases or holds the session itself.
   */
  function watch(streamId: string, onEnded: (error: string) => void): () => void {
    const session = sessions.get(streamId);
    if (!session) {
      onEnded('Stream is not running.');
      return () => undefined;
    }
    const { pc } = session;
    const offEvent =
      deps.onDeviceEvent?.((deviceId, name, data) => {
        const closed = streamClosedEvent(name, data);
        if (closed && closed.callId === streamId && deviceId === session.deviceId) {
          // The agent already ended it: no stop-stream needed for this call.
          session.offerSent = false;
          onEnded(closed.reason);
        }
      }) ?? (() => undefined);
    const onState = () => {
      if (pc.connectionState === 'failed') onEnded('Stream connection failed.');
    };
    const onTrackEnded = () => onEnded('Stream ended.');
    const tracks = session.mediaStream?.getTracks() ?? [];
    pc.addEventListener('connectionstatechange', onState);
    for (const t of tracks) t.addEventListener('ended', onTrackEnded);
    return () => {
      offEvent();
      pc.removeEventListener('connectionstatechange', onState);
      for (const t of tracks) t.removeEventListener('ended', onTrackEnded);
    };
  }

  return {
    start,
    watch,
    hold,
    resume,
    release,
    has: (streamId: string) => sessions.has(streamId),
    /** The running peer connection of a stream (stats), or null. */
    peerConnection: (streamId: string): RTCPeerConnection | null => sessions.get(streamId)?.pc ?? null,
  };
}

export type StreamSessions = ReturnType<typeof createStreamSessions>;
