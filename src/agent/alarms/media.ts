/**
 * An event's pictures (issue 11 "a snapshot, a short clip"): the frame that fired the alarm as a JPEG with the
 * detection's box drawn, and a few seconds of the camera from that frame on as an MP4 (H.264), both encoded by
 * ffmpeg (the tool the host backend reads cameras with) from raw I420 frames on its standard input.
 */
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { I420Frame } from '../backends/types';
import { halveI420 } from '../commands/snapshot';

/** Length of an event's clip, ms; frame size of clips: halved while wider than this, px. */
export const CLIP_MS = 3_000;
export const CLIP_MAX_WIDTH = 640;
/** JPEG quality scale of ffmpeg's mjpeg encoder (2 best … 31 worst). */
const JPEG_QSCALE = 5;

/** A copy of the frame with the box's outline drawn (2 px, red), box in 0..1 [x, y, w, h]. */
export function withBox(frame: I420Frame, box: readonly [number, number, number, number]): I420Frame {
  const { width: W, height: H } = frame;
  const out: I420Frame = { width: W, height: H, data: frame.data.slice() };
  const x0 = Math.max(0, Math.min(W - 1, Math.round(box[0] * W)));
  const y0 = Math.max(0, Math.min(H - 1, Math.round(box[1] * H)));
  const x1 = Math.max(0, Math.min(W - 1, Math.round((box[0] + box[2]) * W)));
  const y1 = Math.max(0, Math.min(H - 1, Math.round((box[1] + box[3]) * H)));
  const uOff = W * H;
  const cw = W >> 1;
  const vOff = uOff + cw * (H >> 1);
  // BT.601 red: Y 81, U 90, V 240.
  const put = (x: number, y: number) => {
    out.data[y * W + x] = 81;
    const c = (y >> 1) * cw + (x >> 1);
    out.data[uOff + c] = 90;
    out.data[vOff + c] = 240;
  };
  for (let t = 0; t < 2; t++) {
    for (let x = x0; x <= x1; x++) {
      put(x, Math.min(H - 1, y0 + t));
      put(x, Math.max(0, y1 - t));
    }
    for (let y = y0; y <= y1; y++) {
      put(Math.min(W - 1, x0 + t), y);
      put(Math.max(0, x1 - t), y);
    }
  }
  return out;
}

/** Runs ffmpeg with `args`, writing `input` chunks to its stdin; resolves with stdout. */
function ffmpeg(args: string[], write: (stdin: NodeJS.WritableStream) => void): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = spawn('ffmpeg', ['-hide_banner', '-loglevel', 'error', ...args], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    const out: Buffer[] = [];
    let err = '';
    child.stdout.on('data', (c: Buffer) => out.push(c));
    child.stderr.on('data', (c: Buffer) => (err = (err + c.toString()).slice(-2000)));
    child.on('error', reject);
    child.stdin.on('error', () => undefined); // ffmpeg exiting early: its exit code says why
    child.on('close', (code) =>
      code === 0 ? resolve(Buffer.concat(out)) : reject(new Error(`ffmpeg exited ${code}: ${err.trim()}`)),
    );
    write(child.stdin);
  });
}

const rawInput = (f: { width: number; height: number }) => [
  '-f',
  'rawvideo',
  '-pix_fmt',
  'yuv420p',
  '-s',
  `${f.width}x${f.height}`,
];

/** The frame as a JPEG (image/jpeg bytes). */
export function encodeJpeg(frame: I420Frame): Promise<Buffer> {
  return ffmpeg(
    [
      ...rawInput(frame),
      '-i',
      'pipe:0',
      '-frames:v',
      '1',
      '-q:v',
      String(JPEG_QSCALE),
      '-f',
      'mjpeg',
      'pipe:1',
    ],
    (stdin) => stdin.end(Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength)),
  );
}

/** Halves a frame until it is at most CLIP_MAX_WIDTH wide (sizes stay even). */
export function clipSized(frame: I420Frame): I420Frame {
  let f = frame;
  while (f.width > CLIP_MAX_WIDTH && f.width % 4 === 0 && f.height % 4 === 0) f = halveI420(f);
  return f === frame ? { width: f.width, height: f.height, data: f.data.slice() } : f;
}

/**
 * Collects a clip's frames (resized by clipSized) with their capture times, then encodes them as an MP4
 * (H.264, yuv420p, faststart) at the rate they came at.
 */
export class ClipRecorder {
  private readonly frames: { frame: I420Frame; wall: number }[] = [];
  readonly startedAt: number;

  constructor(first: I420Frame, wall: number) {
    this.startedAt = wall;
    this.frames.push({ frame: clipSized(first), wall });
  }

  /** Adds a frame; false once the clip is long enough (the frame is not added then). */
  add(frame: I420Frame, wall: number): boolean {
    if (wall - this.startedAt >= CLIP_MS) return false;
    const f = clipSized(frame);
    const first = this.frames[0]!.frame;
    if (f.width === first.width && f.height === first.height) this.frames.push({ frame: f, wall });
    return true;
  }

  get length(): number {
    return this.frames.length;
  }

  /** Encodes the clip (video/mp4 bytes). */
  async encode(): Promise<Buffer> {
    const first = this.frames[0]!;
    const last = this.frames[this.frames.length - 1]!;
    const spanS = Math.max(0.001, (last.wall - first.wall) / 1000);
    const fps = this.frames.length > 1 ? Math.max(1, Math.min(60, (this.frames.length - 1) / spanS)) : 1;
    const dir = await mkdtemp(join(tmpdir(), 'edge-clip-'));
    const file = join(dir, 'clip.mp4');
    try {
      await ffmpeg(
        [
          ...rawInput(first.frame),
          '-framerate',
          fps.toFixed(3),
          '-i',
          'pipe:0',
          '-c:v',
          'libx264',
          '-preset',
          'veryfast',
          '-pix_fmt',
          'yuv420p',
          '-movflags',
          '+faststart',
          '-y',
          file,
        ],
        (stdin) => {
          for (const { frame } of this.frames)
            stdin.write(Buffer.from(frame.data.buffer, frame.data.byteOffset, frame.data.byteLength));
          stdin.end();
        },
      );
      return await readFile(file);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }
}
