/**
 * One camera's shared capture: a single wrtc RTCVideoSource fed by one capture loop, with one track per
 * viewer. The capture runs only while the feed has viewers (ARCHITECTURE "stops encoding when the last
 * viewer leaves").
 */
import type { ResolutionOption } from '../../protocol';
import type { CameraDevice, CaptureHandle, I420Frame } from '../backends/types';
import type { Logger } from '../log';
import { errorMessage } from '../log';
import { nonstandard } from '../wrtc';

/**
 * Sees every frame a feed sends, right after it went to the video source: `t` is the device's monotonic clock
 * in ms when it was handed over (process.hrtime, the clock libwebrtc stamps the frame with), `wall` the
 * wall-clock time (ms since the epoch). The frame's buffer is reused: copy to keep.
 */
export type FrameTap = (frame: I420Frame, t: number, wall: number) => void;

/** The device's monotonic clock, ms (CLOCK_MONOTONIC, as libwebrtc's rtc::TimeMicros). */
export const monotonicMs = (): number => Number(process.hrtime.bigint() / 1000n) / 1000;

export class CameraFeed {
  private readonly taps = new Set<FrameTap>();
  private readonly source: InstanceType<typeof nonstandard.RTCVideoSource>;
  private handle: CaptureHandle | null = null;
  private lastFrame: I420Frame | null = null;
  private readonly viewers = new Set<string>();
  private frameErrorLogged = false;

  constructor(
    readonly camera: CameraDevice,
    readonly resolution: ResolutionOption,
    private readonly logger: Logger,
  ) {
    // Camera content (not a screencast): libwebrtc keeps the frame rate under CPU or bandwidth pressure and
    // lowers the resolution instead (its default degradation for camera tracks, 'maintain-framerate').
    this.source = new nonstandard.RTCVideoSource({
      isScreencast: false,
      ...(camera.needsDenoising === undefined ? {} : { needsDenoising: camera.needsDenoising }),
    });
  }

  /** Number of viewers (tracks) of this feed. */
  get viewerCount(): number {
    return this.viewers.size;
  }

  /**
   * Adds a viewer and returns its own track on the shared source; starts the capture for the first viewer.
   * Throws when the capture cannot start.
   */
  addViewer(callId: string): MediaStreamTrack {
    if (!this.handle) {
      this.handle = this.camera.startCapture(
        this.resolution,
        (frame) => this.push(frame),
        (err) => this.logger.warn(`camera ${this.camera.cameraId}: ${err.message}`),
      );
    }
    this.viewers.add(callId);
    return this.source.createTrack();
  }

  /**
   * Resolves once the capture delivers frames (at once for sources that start immediately); rejects with the
   * source's reason when it cannot be opened, or after `timeoutMs` without a first frame.
   */
  whenReady(timeoutMs: number): Promise<void> {
    const ready = this.handle?.ready;
    if (!ready) return Promise.resolve();
    let timer: NodeJS.Timeout | undefined;
    return Promise.race([
      ready,
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () =>
            reject(new Error(`${this.camera.name} gave no picture within ${Math.round(timeoutMs / 1000)} s`)),
          timeoutMs,
        );
      }),
    ]).finally(() => clearTimeout(timer));
  }

  /** Removes a viewer; stops the capture when it was the last. Returns true when the feed is now idle. */
  removeViewer(callId: string): boolean {
    this.viewers.delete(callId);
    if (this.viewers.size === 0) {
      this.handle?.stop();
      this.handle = null;
      this.lastFrame = null;
      return true;
    }
    return false;
  }

  /** Pushes the latest frame again (a new viewer gets a picture without waiting for the next tick). */
  pushLatest(): void {
    if (this.lastFrame) this.push(this.lastFrame);
  }

  /** Adds a tap (inference: an engine reads the frames the viewers get); returns its removal. */
  tap(listener: FrameTap): () => void {
    this.taps.add(listener);
    return () => this.taps.delete(listener);
  }

  private push(frame: I420Frame): void {
    this.lastFrame = frame;
    try {
      const t = this.taps.size > 0 ? monotonicMs() : 0;
      this.source.onFrame(frame);
      if (this.taps.size > 0) {
        const wall = Date.now();
        for (const tap of this.taps) tap(frame, t, wall);
      }
    } catch (err) {
      if (!this.frameErrorLogged) {
        this.frameErrorLogged = true;
        this.logger.error(
          `camera ${this.camera.cameraId}: frame rejected by the video source: ${errorMessage(err)}`,
        );
      }
    }
  }
}
