/**
 * Letterbox (issue 10 "host engine: letterbox, run, decode"): a frame is scaled to fit the model's input
 * keeping its aspect ratio, centred, and the rest filled with grey 114 — as Ultralytics' YOLO pre-processing
 * does — then written as a float32 NCHW RGB tensor with values 0..1. Pure; the sampling is bilinear
 * (pixel centres aligned, as OpenCV's INTER_LINEAR). Boxes found in the input go back to the frame with
 * toFrameBox. Frames are I420 (BT.601 limited range, as the agent's cameras produce) or RGBA.
 */

/** The grey of the padding, 0–255 (Ultralytics' letterbox colour). */
export const LETTERBOX_PAD = 114;

/** A frame as the agent holds it: I420 planes (Y, then U, then V) or RGBA, `width` × `height` pixels. */
export interface Frame {
  data: Uint8Array;
  width: number;
  height: number;
  format: 'i420' | 'rgba';
}

/** Where the frame lands in the model input, in input pixels. */
export interface LetterboxGeometry {
  frameWidth: number;
  frameHeight: number;
  inputWidth: number;
  inputHeight: number;
  /** Size of the scaled frame inside the input. */
  width: number;
  height: number;
  /** Left and top padding. */
  padX: number;
  padY: number;
}

/** The letterbox of a `frameWidth` × `frameHeight` frame into an `inputWidth` × `inputHeight` input. */
export function letterboxGeometry(
  frameWidth: number,
  frameHeight: number,
  inputWidth: number,
  inputHeight: number,
): LetterboxGeometry {
  if (!(frameWidth > 0 && frameHeight > 0 && inputWidth > 0 && inputHeight > 0)) {
    throw new RangeError(
      `letterbox: sizes must be positive (${frameWidth}x${frameHeight} → ${inputWidth}x${inputHeight})`,
    );
  }
  const scale = Math.min(inputWidth / frameWidth, inputHeight / frameHeight);
  const width = Math.min(inputWidth, Math.max(1, Math.round(frameWidth * scale)));
  const height = Math.min(inputHeight, Math.max(1, Math.round(frameHeight * scale)));
  return {
    frameWidth,
    frameHeight,
    inputWidth,
    inputHeight,
    width,
    height,
    padX: Math.floor((inputWidth - width) / 2),
    padY: Math.floor((inputHeight - height) / 2),
  };
}

/** The bytes a frame of this size and format must hold. */
export function frameBytes(width: number, height: number, format: Frame['format']): number {
  return format === 'rgba'
    ? width * height * 4
    : width * height + 2 * ((width + 1) >> 1) * ((height + 1) >> 1);
}

/** Bilinear taps along one axis: for each destination index, the two source indices and the second's weight. */
interface Taps {
  i0: Int32Array;
  i1: Int32Array;
  w1: Float32Array;
}

function taps(dst: number, src: number): Taps {
  const i0 = new Int32Array(dst);
  const i1 = new Int32Array(dst);
  const w1 = new Float32Array(dst);
  const ratio = src / dst;
  for (let d = 0; d < dst; d++) {
    const s = Math.min(src - 1, Math.max(0, (d + 0.5) * ratio - 0.5));
    const lo = Math.floor(s);
    i0[d] = lo;
    i1[d] = Math.min(src - 1, lo + 1);
    w1[d] = s - lo;
  }
  return { i0, i1, w1 };
}

const clamp255 = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v);

/**
 * Writes the letterboxed frame into `out` (float32, NCHW, 3 × inputHeight × inputWidth, RGB 0..1; allocated
 * when absent) and returns it. Throws RangeError when `frame.data` is shorter than its size says.
 */
export function letterboxToTensor(frame: Frame, g: LetterboxGeometry, out?: Float32Array): Float32Array {
  const { inputWidth: W, inputHeight: H } = g;
  const plane = W * H;
  const tensor = out ?? new Float32Array(3 * plane);
  if (tensor.length !== 3 * plane)
    throw new RangeError(`letterbox: tensor of ${tensor.length}, need ${3 * plane}`);
  if (frame.width !== g.frameWidth || frame.height !== g.frameHeight) {
    throw new RangeError('letterbox: the frame does not match the geometry');
  }
  const need = frameBytes(frame.width, frame.height, frame.format);
  if (frame.data.length < need) {
    throw new RangeError(
      `letterbox: ${frame.format} ${frame.width}x${frame.height} needs ${need} bytes, got ${frame.data.length}`,
    );
  }
  tensor.fill(LETTERBOX_PAD / 255);
  const xs = taps(g.width, frame.width);
  const ys = taps(g.height, frame.height);
  const d = frame.data;
  const fw = frame.width;
  const inv = 1 / 255;
  if (frame.format === 'rgba') {
    for (let dy = 0; dy < g.height; dy++) {
      const r0 = ys.i0[dy]! * fw;
      const r1 = ys.i1[dy]! * fw;
      const wy = ys.w1[dy]!;
      let o = (g.padY + dy) * W + g.padX;
      for (let dx = 0; dx < g.width; dx++, o++) {
        const c0 = xs.i0[dx]!;
        const c1 = xs.i1[dx]!;
        const wx = xs.w1[dx]!;
        const a = (r0 + c0) * 4;
        const b = (r0 + c1) * 4;
        const c = (r1 + c0) * 4;
        const e = (r1 + c1) * 4;
        for (let ch = 0; ch < 3; ch++) {
          const top = d[a + ch]! + (d[b + ch]! - d[a + ch]!) * wx;
          const bottom = d[c + ch]! + (d[e + ch]! - d[c + ch]!) * wx;
          tensor[ch * plane + o] = (top + (bottom - top) * wy) * inv;
        }
      }
    }
    return tensor;
  }
  // I420, BT.601 limited range: luma bilinear, chroma from the 2×2 block the sample falls in.
  const cw = (fw + 1) >> 1;
  const uBase = fw * frame.height;
  const vBase = uBase + cw * ((frame.height + 1) >> 1);
  for (let dy = 0; dy < g.height; dy++) {
    const y0 = ys.i0[dy]!;
    const r0 = y0 * fw;
    const r1 = ys.i1[dy]! * fw;
    const wy = ys.w1[dy]!;
    const crow = (Math.round(y0 + wy) >> 1) * cw;
    let o = (g.padY + dy) * W + g.padX;
    for (let dx = 0; dx < g.width; dx++, o++) {
      const c0 = xs.i0[dx]!;
      const c1 = xs.i1[dx]!;
      const wx = xs.w1[dx]!;
      const top = d[r0 + c0]! + (d[r0 + c1]! - d[r0 + c0]!) * wx;
      const bottom = d[r1 + c0]! + (d[r1 + c1]! - d[r1 + c0]!) * wx;
      const Y = 1.164 * (top + (bottom - top) * wy - 16);
      const ci = crow + (Math.round(c0 + wx) >> 1);
      const U = d[uBase + ci]! - 128;
      const V = d[vBase + ci]! - 128;
      tensor[o] = clamp255(Y + 1.596 * V) * inv;
      tensor[plane + o] = clamp255(Y - 0.392 * U - 0.813 * V) * inv;
      tensor[2 * plane + o] = clamp255(Y + 2.017 * U) * inv;
    }
  }
  return tensor;
}

/** A box in the frame, each value 0..1 of the frame's width or height (x, y: top-left corner). */
export interface FrameBox {
  x: number;
  y: number;
  w: number;
  h: number;
}

const clamp01 = (v: number) => (v < 0 ? 0 : v > 1 ? 1 : v);

/**
 * A box given by its corners in input pixels (x1, y1, x2, y2) as a FrameBox: padding removed, scaled back to
 * the frame and clipped to it.
 */
export function toFrameBox(x1: number, y1: number, x2: number, y2: number, g: LetterboxGeometry): FrameBox {
  const sx = g.width / g.frameWidth;
  const sy = g.height / g.frameHeight;
  const left = clamp01((x1 - g.padX) / sx / g.frameWidth);
  const top = clamp01((y1 - g.padY) / sy / g.frameHeight);
  const right = clamp01((x2 - g.padX) / sx / g.frameWidth);
  const bottom = clamp01((y2 - g.padY) / sy / g.frameHeight);
  return { x: left, y: top, w: Math.max(0, right - left), h: Math.max(0, bottom - top) };
}
