/**
 * Live streams (team brief "Streams"): one RTCPeerConnection per stream (callId), answering the browser's
 * recvonly offer with a track of the camera's shared feed. Non-trickle: the answer is sent once ICE
 * gathering completes (bounded by ICE_GATHERING_WAIT_MS). A stream ends on stop-stream, on its peer
 * connection failing or closing, when its link closes, or when force-kill-stream takes the camera.
 *
 * Issue 3: one capture per camera is shared by all its viewers (CameraFeed) and stops with the last viewer;
 * each viewer gets its own track, hence its own VP8 encoder, so the first frame it receives is a keyframe
 * (no keyframe request needed; the latest frame is pushed again as soon as its connection is up). Measured
 * on loopback: a viewer joining a watched camera decodes its first frame 17–45 ms after send-sdp
 * (tests/unit/agent/sharing.test.ts). Send cap per stream: maxVideoKbps (b=AS in the offer).
 *
 * pause-stream holds a stream the browser hides: the sender's track is taken away (replaceTrack(null)), so
 * nothing is encoded or sent for it, and its viewer leaves the feed (the capture stops with the last one);
 * the peer connection stays up. resume-stream gives it a new track of the camera's feed on the same
 * connection — no negotiation, so a hidden cell plays again within a frame or two.
 */
import { ICE_GATHERING_WAIT_MS, LINK_ERROR_CODES } from '../../protocol';
import { STREAM_QUOTA_ERROR, streamQuotaMessage } from '../../protocol/streams';
import type { IceServer, ResolutionOption } from '../../protocol';
import type { CameraDevice } from '../backends/types';
import { pickResolution } from '../backends/resolutions';
import { CommandError } from '../commands/errors';
import type { Logger } from '../log';
import { errorMessage } from '../log';
import { wrtc } from '../wrtc';
import type { CameraLookup } from './catalog';
import { CameraFeed, type FrameTap } from './feed';
import { capVideoBitrate, maxVideoKbps, offerProblem } from './sdp';

/** Why a stream ended. */
export type StreamEndReason =
  | 'stopped'
  | 'killed'
  | 'link-closed'
  | 'connection-failed'
  | 'connection-closed'
  | 'camera-removed'
  | 'shutdown';

/** A stream as other parts see it. */
export interface StreamInfo {
  callId: string;
  cameraId: string;
  browserId: string;
  linkId: string;
  resolution: ResolutionOption;
  /** ms since the epoch. */
  startedAt: number;
}

/** Called when a stream ends for any reason but 'stopped' (the viewer asked for it). */
export type StreamEndedListener = (info: StreamInfo, reason: StreamEndReason) => void;

export interface StreamManagerOptions {
  /** ICE servers for new peer connections (read per stream: they may be refreshed). */
  iceServers: () => IceServer[];
  /** ICE transport policy for new peer connections (server's ICE_TRANSPORT_POLICY, issue 15); default 'all'. */
  iceTransportPolicy?: () => 'all' | 'relay';
  logger: Logger;
  /** Upper bound of the wait for ICE gathering, ms (default ICE_GATHERING_WAIT_MS). */
  iceGatheringWaitMs?: number;
  /** Upper bound of the wait for a camera's first frame when its source may fail to open, ms (default 10 s). */
  firstFrameWaitMs?: number;
  onStreamEnded?: StreamEndedListener;
  /**
   * The device's stream quota (the server's `max_streams` from GET device/me, README "Stream quota"), read per
   * start: streams held and being started count; a start past it is refused with STREAM_QUOTA_ERROR. Absent =
   * no limit (tests of other parts).
   */
  maxStreams?: () => number;
}

/** Request of start(): the browser's offer for one camera. */
export interface StartStreamRequest {
  callId: string;
  cameraId: string;
  offerSdp: string;
  resolution?: ResolutionOption;
  browserId: string;
  linkId: string;
}

interface ActiveStream extends StreamInfo {
  pc: RTCPeerConnection;
  sender: RTCRtpSender;
  /** The viewer's track of the feed; null while held. */
  track: MediaStreamTrack | null;
  feed: CameraFeed;
  /** Held by pause-stream: no track on the sender, not a viewer of the feed. */
  paused: boolean;
  /** pause/resume run one after the other per stream. */
  queue: Promise<unknown>;
  /** pause/resume operations queued or running: the peer connection is closed only after them. */
  pending: number;
}

/** A start() under way; stopLink / closeAll cancel it (it cleans up at its next step, never mid-call). */
interface Starting {
  linkId: string;
  cancelled: string | null;
}

/** Default wait for the first frame of a source that may fail to open (CaptureHandle.ready), ms. */
export const FIRST_FRAME_WAIT_MS = 10_000;

export class StreamManager {
  private readonly streams = new Map<string, ActiveStream>();
  private readonly feeds = new Map<string, CameraFeed>();
  private readonly starting = new Set<Starting>();
  private closed = false;

  constructor(
    private readonly cameras: CameraLookup,
    private readonly options: StreamManagerOptions,
  ) {}

  /** Number of streams being sent (held ones not counted). */
  get count(): number {
    let n = 0;
    for (const s of this.streams.values()) if (!s.paused) n++;
    return n;
  }

  /** Number of streams held by pause-stream. */
  get pausedCount(): number {
    return this.streams.size - this.count;
  }

  /** The camera with this id, or undefined. */
  camera(cameraId: string): CameraDevice | undefined {
    return this.cameras.find(cameraId);
  }

  /**
   * Answers a browser's offer. Resolution: the requested one when the camera supports it, else the camera's
   * default (640×480@30); when the camera is already streaming, its running resolution (one capture per
   * camera). Returns the answer SDP (ICE gathering complete) and the resolution used.
   * Throws CommandError('inferenceEngineError') on any failure (§7 send-sdp).
   */
  async start(
    req: StartStreamRequest,
  ): Promise<{ sdp: { type: 'answer'; sdp: string }; resolution: ResolutionOption }> {
    const fail = (message: string): never => {
      throw new CommandError(LINK_ERROR_CODES.inferenceEngineError, message);
    };
    if (this.closed) fail('The device agent is shutting down');
    const camera = this.camera(req.cameraId) ?? fail(`Camera ${req.cameraId} does not exist on this device`);
    const problem = offerProblem(req.offerSdp);
    if (problem) fail(problem);
    const existing = this.streams.get(req.callId);
    if (existing) {
      if (existing.browserId !== req.browserId) fail(`Stream ${req.callId} belongs to another viewer`);
      this.end(existing, 'stopped'); // the same viewer restarts its stream
    }
    // Issue 15: the device enforces its own quota (held streams keep their connection, so they count).
    const max = this.options.maxStreams?.();
    if (max !== undefined && this.streams.size + this.starting.size >= max) {
      throw new CommandError(STREAM_QUOTA_ERROR, streamQuotaMessage(max));
    }
    const me: Starting = { linkId: req.linkId, cancelled: null };
    this.starting.add(me);
    try {
      return await this.negotiate(req, camera, me);
    } finally {
      this.starting.delete(me);
    }
  }

  /** start() after its checks: every await is followed by a check that the start was not cancelled. */
  private async negotiate(
    req: StartStreamRequest,
    camera: CameraDevice,
    me: Starting,
  ): Promise<{ sdp: { type: 'answer'; sdp: string }; resolution: ResolutionOption }> {
    const fail = (message: string): never => {
      throw new CommandError(LINK_ERROR_CODES.inferenceEngineError, message);
    };
    const check = () => {
      if (me.cancelled) fail(me.cancelled);
    };

    const feed = this.feedOf(
      camera,
      pickResolution(camera.resolutions, camera.defaultResolution, req.resolution),
    );
    const iceServers = this.options.iceServers();
    const iceTransportPolicy = this.options.iceTransportPolicy?.() ?? 'all';
    const pc = new wrtc.RTCPeerConnection({
      iceServers,
      iceTransportPolicy,
    }) as unknown as RTCPeerConnection;
    let track: MediaStreamTrack | null = null;
    try {
      track = feed.addViewer(req.callId);
      // A network camera or file may not open: answer with its reason instead of a black stream.
      await feed.whenReady(this.options.firstFrameWaitMs ?? FIRST_FRAME_WAIT_MS);
      check();
      // Send limit per stream (setParameters does not work in wrtc): see maxVideoKbps.
      await pc.setRemoteDescription({
        type: 'offer',
        sdp: capVideoBitrate(req.offerSdp, maxVideoKbps(feed.resolution)),
      });
      check();
      const videoOffered = pc.getTransceivers().some((t) => t.receiver.track?.kind === 'video');
      if (!videoOffered) fail('The offer has no video section');
      const sender = pc.addTrack(track, new wrtc.MediaStream([track]) as unknown as MediaStream);
      const answer = await pc.createAnswer();
      check();
      await pc.setLocalDescription(answer);
      check();
      await waitForIceGathering(
        pc,
        this.options.iceGatheringWaitMs ?? ICE_GATHERING_WAIT_MS,
        iceServers.length === 0,
      );
      const local = pc.localDescription;
      if (!local?.sdp) fail('No local description after ICE gathering');
      check();
      if (this.closed) fail('The device agent is shutting down');
      // Another start of this callId finished while this one negotiated: the later one wins, as above.
      const other = this.streams.get(req.callId);
      if (other) {
        if (other.browserId !== req.browserId) fail(`Stream ${req.callId} belongs to another viewer`);
        this.end(other, 'stopped');
      }

      const stream: ActiveStream = {
        callId: req.callId,
        cameraId: camera.cameraId,
        browserId: req.browserId,
        linkId: req.linkId,
        resolution: feed.resolution,
        startedAt: Date.now(),
        pc,
        sender,
        track,
        feed,
        paused: false,
        queue: Promise.resolve(),
        pending: 0,
      };
      this.streams.set(req.callId, stream);
      const onState = () => {
        const state = pc.connectionState;
        if (state === 'connected') stream.feed.pushLatest();
        else if (state === 'failed') this.end(stream, 'connection-failed');
        else if (state === 'closed') this.end(stream, 'connection-closed');
      };
      pc.addEventListener('connectionstatechange', onState);
      feed.pushLatest();
      this.options.logger.info(`stream ${req.callId} started`, {
        camera: camera.cameraId,
        browser: req.browserId,
        resolution: `${feed.resolution.width}x${feed.resolution.height}@${feed.resolution.fps}`,
      });
      return {
        sdp: { type: 'answer', sdp: (local as RTCSessionDescription).sdp },
        resolution: feed.resolution,
      };
    } catch (err) {
      // Nothing after the stream is registered throws, so this stream is not registered: release it.
      track?.stop();
      this.releaseViewer(feed, req.callId);
      safeClose(pc);
      if (err instanceof CommandError) throw err;
      throw new CommandError(
        LINK_ERROR_CODES.inferenceEngineError,
        `Could not start the stream: ${errorMessage(err)}`,
      );
    }
  }

  /** Stops a viewer's own stream; false when it has no stream with this callId (idempotent). */
  stop(callId: string, browserId: string): boolean {
    const s = this.streams.get(callId);
    if (!s || s.browserId !== browserId) return false;
    this.end(s, 'stopped');
    return true;
  }

  /**
   * Holds a viewer's stream (pause-stream): stops sending and encoding it and leaves the feed; the peer
   * connection stays. True when held (also when it already was); false when the viewer has no such stream.
   */
  pause(callId: string, browserId: string): Promise<boolean> {
    const s = this.streams.get(callId);
    if (!s || s.browserId !== browserId) return Promise.resolve(false);
    return this.serially(s, async () => {
      if (this.streams.get(callId) !== s) return false;
      if (s.paused) return true;
      s.paused = true;
      const track = s.track;
      s.track = null;
      this.releaseViewer(s.feed, callId);
      try {
        await s.sender.replaceTrack(null);
      } catch (err) {
        this.options.logger.warn(`stream ${callId}: could not take its track away: ${errorMessage(err)}`);
      }
      track?.stop();
      this.options.logger.info(`stream ${callId} held`);
      return true;
    });
  }

  /**
   * Sends a held stream again on its peer connection (resume-stream): a new track of the camera's feed
   * (started again when it had stopped). True when sending (also when it was not held); false when the
   * viewer has no such stream or it could not be resumed (then it is ended: the browser negotiates anew).
   */
  resume(callId: string, browserId: string): Promise<boolean> {
    const s = this.streams.get(callId);
    if (!s || s.browserId !== browserId) return Promise.resolve(false);
    return this.serially(s, async () => {
      if (this.streams.get(callId) !== s) return false;
      if (!s.paused) return true;
      const camera = this.camera(s.cameraId);
      if (!camera) {
        this.end(s, 'camera-removed');
        return false;
      }
      const feed = this.feedOf(camera, s.resolution);
      const track = feed.addViewer(callId);
      try {
        await feed.whenReady(this.options.firstFrameWaitMs ?? FIRST_FRAME_WAIT_MS);
        await s.sender.replaceTrack(track);
      } catch (err) {
        track.stop();
        this.releaseViewer(feed, callId);
        this.options.logger.warn(`stream ${callId}: could not resume: ${errorMessage(err)}`);
        this.end(s, 'connection-failed');
        return false;
      }
      if (this.streams.get(callId) !== s) {
        track.stop();
        this.releaseViewer(feed, callId);
        return false;
      }
      s.track = track;
      s.feed = feed;
      s.resolution = feed.resolution;
      s.paused = false;
      feed.pushLatest();
      this.options.logger.info(`stream ${callId} resumed`);
      return true;
    });
  }

  /**
   * Inference (issue 10): runs `key` as a viewer of the camera's feed (its capture then runs while the job
   * does, watched or not) and calls `tap` with every frame the feed sends; the feed's resolution is the running
   * one, or `resolution` when it starts here. Returns the feed's resolution and the release (idempotent).
   * Throws when the camera does not exist or its capture cannot start.
   */
  watchFrames(
    cameraId: string,
    key: string,
    resolution: ResolutionOption | null,
    tap: FrameTap,
  ): { resolution: ResolutionOption; release: () => void } {
    const camera = this.camera(cameraId);
    if (!camera) throw new Error(`Camera ${cameraId} does not exist on this device`);
    const feed = this.feedOf(
      camera,
      pickResolution(camera.resolutions, camera.defaultResolution, resolution ?? undefined),
    );
    feed.addViewer(key).stop();
    const untap = feed.tap(tap);
    let released = false;
    return {
      resolution: feed.resolution,
      release: () => {
        if (released) return;
        released = true;
        untap();
        this.releaseViewer(feed, key);
      },
    };
  }

  /** The camera's running feed, or a new one at `resolution` (one capture per camera). */
  private feedOf(camera: CameraDevice, resolution: ResolutionOption): CameraFeed {
    let feed = this.feeds.get(camera.cameraId);
    if (!feed) {
      feed = new CameraFeed(camera, resolution, this.options.logger);
      this.feeds.set(camera.cameraId, feed);
    }
    return feed;
  }

  /** Runs `op` after the stream's earlier pause/resume finished. */
  private serially<T>(s: ActiveStream, op: () => Promise<T>): Promise<T> {
    s.pending++;
    const next = s.queue.then(op, op).finally(() => s.pending--);
    s.queue = next.catch(() => undefined);
    return next;
  }

  /** Streams of a camera, optionally leaving out one viewer's own. */
  streamsOfCamera(cameraId: string, exceptBrowserId?: string): StreamInfo[] {
    return [...this.streams.values()]
      .filter((s) => s.cameraId === cameraId && s.browserId !== exceptBrowserId)
      .map(toInfo);
  }

  /** Ends the streams of a camera except the caller's own (§4 force-kill-stream); returns how many. */
  killCamera(cameraId: string, exceptBrowserId: string): number {
    const victims = [...this.streams.values()].filter(
      (s) => s.cameraId === cameraId && s.browserId !== exceptBrowserId,
    );
    for (const s of victims) this.end(s, 'killed');
    return victims.length;
  }

  /** Ends every stream of a camera that is gone (an IP camera the server no longer lists); returns how many. */
  endCamera(cameraId: string): number {
    const victims = [...this.streams.values()].filter((s) => s.cameraId === cameraId);
    for (const s of victims) this.end(s, 'camera-removed');
    return victims.length;
  }

  /** Ends every stream opened through a link (the link closed). */
  stopLink(linkId: string): number {
    for (const st of this.starting) if (st.linkId === linkId) st.cancelled ??= 'The link closed';
    const mine = [...this.streams.values()].filter((s) => s.linkId === linkId);
    for (const s of mine) this.end(s, 'link-closed');
    return mine.length;
  }

  /**
   * Ends every stream (and cancels the starts under way) but takes new ones afterwards: the device going off the
   * air for a while (a simulated reboot, lifecycle.goOffline) streams again when it is back.
   */
  endAll(reason = 'The device went off the air'): void {
    for (const st of this.starting) st.cancelled ??= reason;
    for (const s of [...this.streams.values()]) this.end(s, 'shutdown');
  }

  /** Ends every stream and refuses new ones (the agent stops). */
  closeAll(): void {
    this.closed = true;
    this.endAll('The device agent is shutting down');
  }

  private end(s: ActiveStream, reason: StreamEndReason): void {
    if (this.streams.get(s.callId) !== s) return;
    this.streams.delete(s.callId);
    s.track?.stop();
    if (!s.paused) this.releaseViewer(s.feed, s.callId);
    // A pause/resume under way (replaceTrack in flight) finishes first; it sees the stream ended.
    if (s.pending > 0) void s.queue.then(() => safeClose(s.pc));
    else safeClose(s.pc);
    this.options.logger.info(`stream ${s.callId} ended (${reason})`);
    if (reason !== 'stopped') {
      try {
        this.options.onStreamEnded?.(toInfo(s), reason);
      } catch (err) {
        this.options.logger.error(`stream-ended listener failed: ${errorMessage(err)}`);
      }
    }
  }

  private releaseViewer(feed: CameraFeed, callId: string): void {
    if (feed.removeViewer(callId) && this.feeds.get(feed.camera.cameraId) === feed) {
      this.feeds.delete(feed.camera.cameraId);
    }
  }
}

function toInfo(s: ActiveStream): StreamInfo {
  return {
    callId: s.callId,
    cameraId: s.cameraId,
    browserId: s.browserId,
    linkId: s.linkId,
    resolution: s.resolution,
    startedAt: s.startedAt,
  };
}

function safeClose(pc: RTCPeerConnection): void {
  try {
    if (pc.signalingState !== 'closed') pc.close();
  } catch {
    // already closed
  }
}

/**
 * Without ICE servers only host candidates exist and they come at once; libwebrtc may still take ~100 ms
 * more to call gathering complete (TCP, other interfaces). The answer then goes this long after the first
 * candidate (the browser does the same with its offer: src/console/services/streamSession.ts).
 */
export const HOST_CANDIDATES_SETTLE_MS = 30;

/**
 * Resolves when ICE gathering is complete, after `timeoutMs` (non-trickle answer, bounded wait), or —
 * `hostOnly` (no ICE servers) — HOST_CANDIDATES_SETTLE_MS after the first candidate.
 */
export function waitForIceGathering(
  pc: RTCPeerConnection,
  timeoutMs: number,
  hostOnly = false,
): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    let settle: NodeJS.Timeout | undefined;
    const done = () => {
      clearTimeout(settle);
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', onState);
      pc.removeEventListener('icecandidate', onCandidate);
      resolve();
    };
    const onState = () => {
      if (pc.iceGatheringState === 'complete') done();
    };
    const onCandidate = (e: RTCPeerConnectionIceEvent) => {
      if (!e.candidate) done();
      else if (hostOnly && settle === undefined) settle = setTimeout(done, HOST_CANDIDATES_SETTLE_MS);
    };
    const timer = setTimeout(done, timeoutMs);
    pc.addEventListener('icegatheringstatechange', onState);
    pc.addEventListener('icecandidate', onCandidate);
  });
}
