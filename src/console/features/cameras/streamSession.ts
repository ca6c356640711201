/**
 * A camera stream's one RTCPeerConnection, owned by the stream's session actor from the offer to
 * pc.close() — spec §3 "Stream" (callId, pc), §7 device command `send-sdp` (answer or inferenceEngineError),
 * §9 "ICE gathering wait 5 s"; ARCHITECTURE "The device link: Streams". The stream machine
 * (machines/cameras/stream.machine.ts) invokes it in `live`: leaving `live` closes it, so nothing else keeps
 * a stream's connection.
 *
 * `openStreamSession` starts at once: new RTCPeerConnection({ iceServers }) → addTransceiver('video',
 * { direction: 'recvonly' }) → createOffer → setLocalDescription → wait for ICE gathering (non-trickle,
 * bounded by ICE_GATHERING_WAIT_MS) → callDevice 'send-sdp' { camera_id, callId, sdp } →
 * setRemoteDescription(answer) → the first `track`: reports `session.started` (or `session.failed` with the
 * device's error), then watches: `stream.ended` when the track ends, the pc fails or the agent's
 * `stream.status` closes the call.
 * `hold`: 'pause-stream' — the agent stops encoding and sending, the peer connection stays (a refused or
 * unanswered hold closes the session instead). `resume`: 'resume-stream' on the same connection, reported as
 * `session.resumed` (false when there is nothing to resume; the session is then closed).
 * `stats`: getStats summaries every intervalMs (`stats.sample`), or none. `close`: 'stop-stream' (when the
 * offer was sent) + pc.close(); idempotent.
 * RTCPeerConnection is only touched when a stream starts, never at import time.
 */
import type {
  SessionCommand,
  StreamEvent,
  StreamSessionInput,
  StreamStats,
} from '../../../../machines/cameras/stream.machine';
import { ICE_GATHERING_WAIT_MS, STREAM_ENGINE_ANSWER_WAIT_MS } from '../../../protocol/constants';
import type { IceServer } from '../../../protocol/rest';
import type { CallDevice } from '../../platform/peerLink';

export interface StreamSessionDeps {
  callDevice: CallDevice;
  /** ICE servers for new peer connections (from get_browser_token). */
  getIceServers: () => IceServer[];
  /** ICE transport policy for new peer connections (server's ICE_TRANSPORT_POLICY; default 'all'). */
  getIceTransportPolicy?: () => RTCIceTransportPolicy;
  /** Creates the peer connection (tests); default `new RTCPeerConnection(config)`. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
  /** ICE gathering bound, ms (default ICE_GATHERING_WAIT_MS). */
  iceGatheringWaitMs?: number;
  /** Agent-pushed link events (PeerLink.onDeviceEvent): 'stream.status' closed ends a watched stream. */
  onDeviceEvent?: (listener: (deviceId: string, name: string, data: unknown) => void) => () => void;
  /**
   * Polls getStats of `peerConnection()` every intervalMs (streamMedia.ts pollStreamStats); returns stop.
   * Without it the overlay gets no samples.
   */
  pollStats?: (
    peerConnection: () => RTCPeerConnection | null,
    intervalMs: number,
    onSample: (stats: StreamStats) => void,
  ) => () => void;
}

/** What a session reports to its stream (events of the stream machine). */
export type SessionReport = Extract<
  StreamEvent,
  { type: 'session.started' | 'session.failed' | 'session.resumed' | 'stream.ended' | 'stats.sample' }
>;

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

/** One open stream session: what its actor calls. */
export interface StreamSession {
  /** Obeys a command of the stream machine (hold, resume, stats). */
  command(command: SessionCommand): void;
  /** stop-stream (when the offer was sent) + pc.close() + stops tracks, stats and watching; idempotent. */
  close(): void;
  /** The peer connection while the session is open (tests, stats), else null. */
  peerConnection(): RTCPeerConnection | null;
}

/** Opens the peer connection of one stream and starts its negotiation at once (see the module comment). */
export function openStreamSession(
  deps: StreamSessionDeps,
  request: StreamSessionInput,
  report: (event: SessionReport) => void,
): StreamSession {
  const create = deps.createPeerConnection ?? ((config: RTCConfiguration) => new RTCPeerConnection(config));
  const iceServers = deps.getIceServers() as RTCIceServer[];
  const pc = create({ iceServers, iceTransportPolicy: deps.getIceTransportPolicy?.() ?? 'all' });
  const abort = new AbortController();
  let closed = false;
  let offerSent = false;
  let mediaStream: MediaStream | null = null;
  let unwatch: () => void = () => undefined;
  let stopStats: (() => void) | null = null;

  function close(): void {
    if (closed) return;
    closed = true;
    abort.abort();
    unwatch();
    stopStats?.();
    stopStats = null;
    if (offerSent) {
      deps.callDevice(request.deviceId, 'stop-stream', { callId: request.streamId }).catch(() => undefined);
    }
    for (const track of mediaStream?.getTracks() ?? []) track.stop();
    try {
      pc.close();
    } catch {
      // already closed
    }
  }

  /** Reports the end of a playing stream once per cause; the stream machine then closes the session. */
  function watch(): void {
    const ended = (error: string) => {
      if (!closed) report({ type: 'stream.ended', error });
    };
    const offEvent =
      deps.onDeviceEvent?.((deviceId, name, data) => {
        const gone = streamClosedEvent(name, data);
        if (gone && gone.callId === request.streamId && deviceId === request.deviceId) {
          // The agent already ended it: no stop-stream needed for this call.
          offerSent = false;
          ended(gone.reason);
        }
      }) ?? (() => undefined);
    const onState = () => {
      if (pc.connectionState === 'failed') ended('Stream connection failed.');
    };
    const onTrackEnded = () => ended('Stream ended.');
    const tracks = mediaStream?.getTracks() ?? [];
    pc.addEventListener('connectionstatechange', onState);
    for (const t of tracks) t.addEventListener('ended', onTrackEnded);
    unwatch = () => {
      offEvent();
      pc.removeEventListener('connectionstatechange', onState);
      for (const t of tracks) t.removeEventListener('ended', onTrackEnded);
    };
  }

  async function start(): Promise<void> {
    const signal = abort.signal;
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
    if (signal.aborted) return;
    const sdp = pc.localDescription?.sdp ?? offer.sdp ?? '';
    offerSent = true;
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
    if (signal.aborted) return;
    await pc.setRemoteDescription(answer.sdp);
    const stream = await firstTrack;
    if (signal.aborted) return;
    mediaStream = stream;
    watch();
    report({ type: 'session.started', mediaStream: stream, resolution: answer.resolution });
  }

  start().catch((error: unknown) => {
    if (closed) return;
    close();
    report({ type: 'session.failed', error });
  });

  /** pause-stream; a refused or failed hold closes the session (resume then answers false). */
  function hold(): void {
    if (closed || !offerSent) return;
    deps
      .callDevice(request.deviceId, 'pause-stream', { callId: request.streamId })
      .then((r) => {
        if (!r.paused) close();
      })
      .catch(() => close());
  }

  /** resume-stream on the held connection, reported as `session.resumed`; false closes the session. */
  function resume(): void {
    const answer = (resumed: boolean) => {
      if (!resumed) close();
      report({ type: 'session.resumed', resumed });
    };
    const state = pc.connectionState;
    if (closed || !mediaStream || state === 'failed' || state === 'closed') return answer(false);
    deps
      .callDevice(request.deviceId, 'resume-stream', { callId: request.streamId })
      .then((r) => answer(r.resumed && !closed))
      .catch(() => answer(false));
  }

  function stats(intervalMs: number | null): void {
    stopStats?.();
    stopStats = null;
    if (closed || intervalMs === null || !deps.pollStats) return;
    stopStats = deps.pollStats(
      () => (closed ? null : pc),
      intervalMs,
      (sample) => {
        if (!closed) report({ type: 'stats.sample', stats: sample });
      },
    );
  }

  return {
    command: (command) => {
      if (command.type === 'session.hold') hold();
      else if (command.type === 'session.resume') resume();
      else stats(command.intervalMs);
    },
    close,
    peerConnection: () => (closed ? null : pc),
  };
}
