/**
 * Synthetic camera frames: a background of large flat areas (cheap for VP8: unchanged flat macroblocks cost
 * almost nothing to encode and decode), the scene's moving objects, and a caption with the wall-clock time and
 * frame counter, drawn into one reused I420 buffer (no frame allocation per draw).
 */
import { allocI420 } from '../types';
import type { CaptureHandle, FrameListener, I420Frame } from '../types';
import { fillDisc, fillRect, drawText, textWidth } from './i420';
import { sceneObjectsAt } from './scene';
import type { BoundingBox, Scene } from './scene';

/** How a generator draws: background kind and a caption prefix (e.g. 'IP' for simulated network cameras). */
export interface SyntheticFrameStyle {
  /**
   * 'flat' (default): a flat wall and floor with a few flat blocks — large flat areas, cheap to encode;
   * 'gradient': diagonal luma gradient; 'lot': flat asphalt with white parking-bay lines.
   */
  background?: 'flat' | 'gradient' | 'lot';
  /** Drawn before the clock in the caption; characters of drawText only (digits, ':', '.', '#', '-', I, P). */
  captionPrefix?: string;
}

/** Draws frames of one scene at one size. */
export class SyntheticFrameGenerator {
  /** The frame buffer, overwritten by every draw(). */
  readonly frame: I420Frame;
  private readonly background: Uint8Array;
  private frameCount = 0;
  private last: BoundingBox[] = [];
  private readonly captionScale: number;

  private readonly captionPrefix: string;

  constructor(
    private readonly scene: Scene,
    readonly width: number,
    readonly height: number,
    style: SyntheticFrameStyle = {},
  ) {
    this.frame = allocI420(width, height);
    const bg = style.background ?? 'flat';
    this.background =
      bg === 'lot'
        ? buildLotBackground(width, height, scene.tint)
        : bg === 'gradient'
          ? buildBackground(width, height, scene.tint)
          : buildFlatBackground(width, height, scene.tint, scene.seed);
    this.captionPrefix = style.captionPrefix ? `${style.captionPrefix} ` : '';
    this.captionScale = Math.max(2, Math.round(height / 120));
  }

  /** Frames drawn so far. */
  get frames(): number {
    return this.frameCount;
  }

  /**
   * Draws the frame at `timeMs` (ms since the epoch; the caption shows it as HH:MM:SS.mmm UTC) and returns the
   * shared buffer. The bounding boxes drawn are then given by lastObjects().
   */
  draw(timeMs: number): I420Frame {
    const f = this.frame;
    f.data.set(this.background);
    const boxes = sceneObjectsAt(this.scene, this.width, this.height, timeMs);
    for (let i = 0; i < boxes.length; i++) {
      const b = boxes[i] as BoundingBox;
      const [Y, U, V] = (this.scene.objects[i] as Scene['objects'][number]).yuv;
      if (b.shape === 'disc') fillDisc(f, b.x, b.y, b.width, Y, U, V);
      else fillRect(f, b.x, b.y, b.width, b.height, Y, U, V);
    }
    this.frameCount++;
    const s = this.captionScale;
    const caption = `${this.captionPrefix}${clock(timeMs)} #${this.frameCount}`;
    const w = textWidth(caption, s);
    fillRect(f, 2 * s, 2 * s, w + 4 * s, 9 * s, 16, 128, 128);
    drawText(f, caption, 4 * s, 4 * s, s, 235);
    this.last = boxes;
    return f;
  }

  /** Bounding boxes of the objects in the last drawn frame (pixels). */
  lastObjects(): BoundingBox[] {
    return this.last;
  }
}

function clock(timeMs: number): string {
  const d = new Date(timeMs);
  const p = (n: number, l = 2) => String(n).padStart(l, '0');
  return `${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())}.${p(d.getUTCMilliseconds(), 3)}`;
}

/** Diagonal luma gradient (dark top-left → light bottom-right) with the scene's chroma tint. */
function buildBackground(width: number, height: number, tint: readonly [number, number]): Uint8Array {
  const bg = allocI420(width, height).data;
  const span = width + height;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) bg[y * width + x] = 40 + Math.floor(((x + y) * 110) / span);
  }
  const ySize = width * height;
  bg.fill(tint[0], ySize, ySize + ySize / 4);
  bg.fill(tint[1], ySize + ySize / 4);
  return bg;
}

/** Flat asphalt grey (slight chroma tint) with white parking-bay lines: large flat areas, cheap to encode. */
function buildLotBackground(width: number, height: number, tint: readonly [number, number]): Uint8Array {
  const bg = allocI420(width, height).data;
  const ySize = width * height;
  bg.fill(70, 0, ySize);
  const line = Math.max(2, 2 * Math.round(width / 320));
  const bay = Math.max(8, 2 * Math.round(width / 16));
  const rowTop = Math.round(height * 0.12);
  const rowBottom = Math.round(height * 0.88);
  const depth = Math.round(height * 0.22);
  for (let x = bay; x < width; x += bay) {
    for (let y = rowTop; y < rowTop + depth; y++)
      bg.fill(200, y * width + x, y * width + Math.min(width, x + line));
    for (let y = rowBottom - depth; y < rowBottom; y++) {
      bg.fill(200, y * width + x, y * width + Math.min(width, x + line));
    }
  }
  for (const y0 of [rowTop + depth, rowBottom - depth - line]) {
    for (let y = y0; y < y0 + line && y < height; y++) bg.fill(200, y * width, y * width + width);
  }
  bg.fill(tint[0], ySize, ySize + ySize / 4);
  bg.fill(tint[1], ySize + ySize / 4);
  return bg;
}

/**
 * Flat tones only: a wall (upper 60 %) and a floor, each one luma value, with three flat blocks (doors,
 * windows) placed from the scene seed; chroma is the scene tint. Flat areas leave VP8 nothing to code.
 */
function buildFlatBackground(
  width: number,
  height: number,
  tint: readonly [number, number],
  seed: number,
): Uint8Array {
  const bg = allocI420(width, height).data;
  const ySize = width * height;
  const horizon = 2 * Math.round((height * 0.6) / 2);
  bg.fill(92 + (seed % 24), 0, horizon * width);
  bg.fill(58 + ((seed >>> 5) % 20), horizon * width, ySize);
  const frame = { width, height, data: bg };
  for (let k = 0; k < 3; k++) {
    const w = 2 * Math.round((width * (0.08 + ((seed >>> (8 + k * 4)) % 8) / 100)) / 2);
    const h = 2 * Math.round((horizon * (0.35 + ((seed >>> (11 + k * 3)) % 5) / 20)) / 2);
    const x =
      2 * Math.round(((width / 3) * k + ((seed >>> (k * 5)) % Math.max(1, Math.round(width / 3 - w)))) / 2);
    fillRect(frame, x, horizon - h, w, h, 130 + k * 25, 128, 128);
  }
  bg.fill(tint[0], ySize, ySize + ySize / 4);
  bg.fill(tint[1], ySize + ySize / 4);
  return bg;
}

/**
 * Paces a synthetic camera: the first frame at once (a new viewer's keyframe), then one every 1000/fps ms,
 * drawn at the wall-clock time. `stop` is idempotent; `onStop` runs once when it stops.
 */
export function paceFrames(
  generator: SyntheticFrameGenerator,
  fps: number,
  onFrame: FrameListener,
  onStop?: () => void,
): CaptureHandle {
  const tick = () => onFrame(generator.draw(Date.now()));
  const first = setImmediate(tick);
  const timer = setInterval(tick, 1000 / fps);
  let stopped = false;
  return {
    stop: () => {
      if (stopped) return;
      stopped = true;
      clearImmediate(first);
      clearInterval(timer);
      onStop?.();
    },
  };
}
