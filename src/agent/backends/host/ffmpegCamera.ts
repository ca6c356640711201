/**
 * A real camera read through ffmpeg (ARCHITECTURE "host": V4L2, RTSP, HTTP, files): ffmpeg decodes the source
 * and writes raw I420 frames (`-f rawvideo -pix_fmt yuv420p -s WxH -r FPS pipe:1`); the agent cuts stdout
 * into frames of exactly width×height×1.5 bytes. A capture whose ffmpeg exits while it is still wanted is
 * restarted with a growing pause (1 s doubling to 30 s, back to 1 s once frames flow again: RTSP drops,
 * unplugged cameras). ffmpeg's stderr is kept (last 2 000 characters) so a source that cannot be opened
 * gives a clear error (CaptureHandle.ready rejects with it).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { ResolutionOption } from '../../../protocol';
import type { Logger } from '../../log';
import { hasFfmpeg } from './exec';
import { DEFAULT_RESOLUTION, STANDARD_RESOLUTIONS } from '../resolutions';
import { allocI420 } from '../types';
import type { CameraDevice, CaptureHandle, FrameListener, I420Frame } from '../types';

/** First pause before restarting a failed ffmpeg, ms; doubles per failure up to RESTART_MAX_DELAY_MS. */
export const RESTART_MIN_DELAY_MS = 1_000;
export const RESTART_MAX_DELAY_MS = 30_000;
const KILL_GRACE_MS = 2_000;
const GRAB_TIMEOUT_MS = 10_000;
/** Network read/connect time-out handed to ffmpeg, µs (ffmpeg ≥ 5 `-timeout` / `-rw_timeout`). */
const NETWORK_TIMEOUT_US = 10_000_000;

/** Kind of source, from its text. */
export type SourceKind = 'rtsp' | 'http' | 'v4l2' | 'file';

/** 'rtsp' (rtsp:// or rtsps://), 'http' (http:// or https://), 'v4l2' (/dev/video*), else 'file'. */
export function sourceKind(source: string): SourceKind {
  if (/^rtsps?:\/\//i.test(source)) return 'rtsp';
  if (/^https?:\/\//i.test(source)) return 'http';
  if (/^\/dev\/video\d+$/.test(source)) return 'v4l2';
  return 'file';
}

/** The source with URL credentials removed (`rtsp://user:pw@host/x` → `rtsp://host/x`), for names and logs. */
export function redactSource(source: string): string {
  return source.replace(/^([a-z][a-z0-9+.-]*:\/\/)[^@/]*@/i, '$1');
}

/**
 * ffmpeg arguments decoding `source` to raw I420 at `resolution` on stdout; `frames` limits the output.
 * RTSP is pulled over TCP (`-rtsp_transport tcp`: no UDP loss, passes NAT); network sources get a read
 * time-out so a dead camera ends ffmpeg (and the capture restarts) instead of hanging.
 */
export function ffmpegArgs(source: string, resolution: ResolutionOption, frames?: number): string[] {
  const kind = sourceKind(source);
  const lowDelay = ['-fflags', 'nobuffer', '-flags', 'low_delay'];
  const input =
    kind === 'rtsp'
      ? [...lowDelay, '-rtsp_transport', 'tcp', '-timeout', String(NETWORK_TIMEOUT_US), '-i', source]
      : kind === 'http'
        ? [...lowDelay, '-rw_timeout', String(NETWORK_TIMEOUT_US), '-i', source]
        : kind === 'v4l2'
          ? ['-f', 'v4l2', '-i', source]
          : frames
            ? ['-i', source]
            : ['-stream_loop', '-1', '-re', '-i', source];
  return [
    '-hide_banner',
    '-loglevel',
    'error',
    '-nostdin',
    ...input,
    '-an',
    ...(frames ? ['-frames:v', String(frames)] : []),
    '-f',
    'rawvideo',
    '-pix_fmt',
    'yuv420p',
    '-s',
    `${resolution.width}x${resolution.height}`,
    '-r',
    String(resolution.fps),
    'pipe:1',
  ];
}

/** The last non-empty line of ffmpeg's stderr, or a fallback. */
function lastLine(stderr: string, fallback: string): string {
  const lines = stderr
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? fallback;
}

/** Stops a child: SIGTERM, then SIGKILL after a grace period. */
function killChild(child: ChildProcess): void {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.kill('SIGTERM');
  const t = setTimeout(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }, KILL_GRACE_MS);
  t.unref();
  child.once('exit', () => clearTimeout(t));
}

/** Calls `onFrame` for every complete frame in a stream of raw I420 chunks (one reused buffer). */
export function createFrameAssembler(
  width: number,
  height: number,
  onFrame: FrameListener,
): (chunk: Buffer) => void {
  const frame = allocI420(width, height);
  const size = frame.data.byteLength;
  let filled = 0;
  return (chunk: Buffer) => {
    let offset = 0;
    while (offset < chunk.length) {
      const n = Math.min(size - filled, chunk.length - offset);
      frame.data.set(chunk.subarray(offset, offset + n), filled);
      filled += n;
      offset += n;
      if (filled === size) {
        filled = 0;
        onFrame(frame);
      }
    }
  };
}

/** Identity of a camera given by its owner instead of derived from the source (IP cameras of the server). */
export interface FfmpegCameraIdentity {
  cameraId: string;
  name: string;
  uniqueId: string;
  cameraType: 'physical' | 'ip';
}

/** A camera backed by an ffmpeg-readable source (file path, rtsp:// or http(s):// URL, /dev/videoN). */
export class FfmpegCamera implements CameraDevice {
  readonly cameraId: string;
  readonly name: string;
  readonly uniqueId: string;
  readonly cameraType: 'physical' | 'ip';
  readonly resolutions = STANDARD_RESOLUTIONS;
  readonly defaultResolution = DEFAULT_RESOLUTION;
  private readonly children = new Set<ChildProcess>();

  /**
   * `index` is 1-based (camera id `cam-<index>`); the unique id is derived from the source so several devices
   * agree on it. `identity` overrides id, name, unique id and type (IP cameras listed by the server).
   */
  constructor(
    readonly source: string,
    index: number,
    private readonly logger: Logger,
    identity?: FfmpegCameraIdentity,
  ) {
    const kind = sourceKind(source);
    const shown = redactSource(source); // never show URL credentials
    this.cameraId = identity?.cameraId ?? `cam-${index}`;
    this.cameraType = identity?.cameraType ?? (kind === 'rtsp' || kind === 'http' ? 'ip' : 'physical');
    this.name =
      identity?.name ??
      `${kind === 'v4l2' ? 'Camera' : kind === 'rtsp' ? 'RTSP' : kind === 'http' ? 'HTTP' : 'File'} ${shown}`;
    this.uniqueId = identity?.uniqueId ?? `${kind}:${shown}`;
  }

  /**
   * Starts ffmpeg; restarts it with back-off while the capture is wanted. The handle's `ready` resolves at the
   * first frame and rejects with ffmpeg's reason when its first run ends without one.
   * Throws when ffmpeg is not installed.
   */
  startCapture(
    resolution: ResolutionOption,
    onFrame: FrameListener,
    onError?: (err: Error) => void,
  ): CaptureHandle {
    if (!hasFfmpeg())
      throw new Error('ffmpeg is not installed on this device; install it to stream its cameras');
    let stopped = false;
    let child: ChildProcess | null = null;
    let restart: NodeJS.Timeout | null = null;
    let delay = RESTART_MIN_DELAY_MS;
    let gotFrame = false;
    let settle: { resolve: () => void; reject: (err: Error) => void } | null = null;
    const ready = new Promise<void>((resolve, reject) => {
      settle = { resolve, reject };
    });
    ready.catch(() => {}); // owners that never await it must not see an unhandled rejection
    const settled = (err?: Error) => {
      if (!settle) return;
      if (err) settle.reject(err);
      else settle.resolve();
      settle = null;
    };
    const shown = redactSource(this.source);
    const run = () => {
      let runFrames = 0;
      const c = spawn('ffmpeg', ffmpegArgs(this.source, resolution), { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      this.children.add(c);
      let stderr = '';
      const assemble = createFrameAssembler(resolution.width, resolution.height, (frame) => {
        runFrames++;
        if (!gotFrame) {
          gotFrame = true;
          settled();
        }
        onFrame(frame);
      });
      c.stdout?.on('data', assemble);
      c.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2_000);
      });
      c.on('error', (err) => {
        const e = new Error(`ffmpeg for ${this.name} failed to start: ${err.message}`);
        settled(e);
        onError?.(e);
      });
      c.on('exit', (code, signal) => {
        this.children.delete(c);
        if (stopped) return;
        if (runFrames > 0) delay = RESTART_MIN_DELAY_MS;
        const reason = lastLine(stderr, `ffmpeg exited (${signal ?? code})`);
        settled(new Error(`Could not read ${this.name} (${shown}): ${reason}`));
        const err = new Error(
          `ffmpeg for ${this.cameraId} exited (${signal ?? code}); restarting in ${delay} ms. ${reason}`,
        );
        this.logger.warn(err.message);
        onError?.(err);
        restart = setTimeout(run, delay);
        delay = Math.min(RESTART_MAX_DELAY_MS, delay * 2);
      });
    };
    run();
    return {
      ready,
      stop: () => {
        if (stopped) return;
        stopped = true;
        settled(new Error(`Capture of ${this.name} stopped before its first frame`));
        if (restart) clearTimeout(restart);
        if (child) killChild(child);
      },
    };
  }

  grabFrame(resolution: ResolutionOption): Promise<I420Frame> {
    if (!hasFfmpeg()) return Promise.reject(new Error('ffmpeg is not installed on this device'));
    return new Promise((resolve, reject) => {
      const c = spawn('ffmpeg', ffmpegArgs(this.source, resolution, 1), {
        stdio: ['ignore', 'pipe', 'ignore'],
      });
      this.children.add(c);
      let done = false;
      const finish = (err: Error | null, frame?: I420Frame) => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        killChild(c);
        if (err) reject(err);
        else resolve({ width: frame!.width, height: frame!.height, data: frame!.data.slice() });
      };
      const timer = setTimeout(
        () => finish(new Error(`No frame from ${this.cameraId} within ${GRAB_TIMEOUT_MS} ms`)),
        GRAB_TIMEOUT_MS,
      );
      c.stdout?.on(
        'data',
        createFrameAssembler(resolution.width, resolution.height, (f) => finish(null, f)),
      );
      c.on('error', (err) => finish(err));
      c.on('exit', () => {
        this.children.delete(c);
        finish(new Error(`ffmpeg gave no frame from ${this.name} (${redactSource(this.source)})`));
      });
    });
  }

  /** Kills every ffmpeg child of this camera. */
  close(): void {
    for (const c of this.children) killChild(c);
  }
}
