/**
 * A real camera read through ffmpeg (ARCHITECTURE "host": V4L2, RTSP, files): ffmpeg decodes the source
 * and writes raw I420 frames (`-f rawvideo -pix_fmt yuv420p -s WxH -r FPS pipe:1`); the agent cuts stdout
 * into frames of exactly width×height×1.5 bytes. A capture whose ffmpeg exits while it is still wanted is
 * restarted after a pause (RTSP drops, unplugged cameras).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import type { ResolutionOption } from '../../../protocol';
import type { Logger } from '../../log';
import { hasFfmpeg } from './exec';
import { DEFAULT_RESOLUTION, STANDARD_RESOLUTIONS } from '../resolutions';
import { allocI420 } from '../types';
import type { CameraDevice, CaptureHandle, FrameListener, I420Frame } from '../types';

const RESTART_DELAY_MS = 2_000;
const KILL_GRACE_MS = 2_000;
const GRAB_TIMEOUT_MS = 10_000;

/** Kind of source, from its text: 'rtsp' (rtsp:// or rtsps://), 'v4l2' (/dev/video*), else 'file'. */
export function sourceKind(source: string): 'rtsp' | 'v4l2' | 'file' {
  if (/^rtsps?:\/\//i.test(source)) return 'rtsp';
  if (/^\/dev\/video\d+$/.test(source)) return 'v4l2';
  return 'file';
}

/** ffmpeg arguments decoding `source` to raw I420 at `resolution` on stdout; `frames` limits the output. */
export function ffmpegArgs(source: string, resolution: ResolutionOption, frames?: number): string[] {
  const kind = sourceKind(source);
  const input =
    kind === 'rtsp'
      ? ['-rtsp_transport', 'tcp', '-i', source]
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

/** A camera backed by an ffmpeg-readable source (file path, rtsp:// URL or /dev/videoN). */
export class FfmpegCamera implements CameraDevice {
  readonly cameraId: string;
  readonly name: string;
  readonly uniqueId: string;
  readonly cameraType: 'physical' | 'ip';
  readonly resolutions = STANDARD_RESOLUTIONS;
  readonly defaultResolution = DEFAULT_RESOLUTION;
  private readonly children = new Set<ChildProcess>();

  /** `index` is 1-based; the unique id is derived from the source so several devices agree on it. */
  constructor(
    readonly source: string,
    index: number,
    private readonly logger: Logger,
  ) {
    this.cameraId = `cam-${index}`;
    const kind = sourceKind(source);
    this.cameraType = kind === 'rtsp' ? 'ip' : 'physical';
    const shown = kind === 'rtsp' ? source.replace(/\/\/[^@/]*@/, '//') : source; // hide RTSP credentials
    this.name = `${kind === 'v4l2' ? 'Camera' : kind === 'rtsp' ? 'RTSP' : 'File'} ${shown}`;
    this.uniqueId = `${kind}:${shown}`;
  }

  /** Throws when ffmpeg is not installed. */
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
    const run = () => {
      const c = spawn('ffmpeg', ffmpegArgs(this.source, resolution), { stdio: ['ignore', 'pipe', 'pipe'] });
      child = c;
      this.children.add(c);
      let stderr = '';
      c.stdout?.on('data', createFrameAssembler(resolution.width, resolution.height, onFrame));
      c.stderr?.on('data', (d: Buffer) => {
        stderr = (stderr + d.toString()).slice(-2_000);
      });
      c.on('error', (err) =>
        onError?.(new Error(`ffmpeg for ${this.cameraId} failed to start: ${err.message}`)),
      );
      c.on('exit', (code, signal) => {
        this.children.delete(c);
        if (stopped) return;
        const err = new Error(
          `ffmpeg for ${this.cameraId} exited (${signal ?? code}); restarting in ${RESTART_DELAY_MS} ms. ${stderr.trim()}`,
        );
        this.logger.warn(err.message);
        onError?.(err);
        restart = setTimeout(run, RESTART_DELAY_MS);
      });
    };
    run();
    return {
      stop: () => {
        if (stopped) return;
        stopped = true;
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
        finish(new Error(`ffmpeg gave no frame from ${this.cameraId}`));
      });
    });
  }

  /** Kills every ffmpeg child of this camera. */
  close(): void {
    for (const c of this.children) killChild(c);
  }
}
