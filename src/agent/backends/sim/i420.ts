/**
 * Drawing primitives on I420 frames, written for speed: every shape is filled row by row with
 * TypedArray.fill directly in the Y, U and V planes; nothing is allocated per call.
 */
import type { I420Frame } from '../types';

/** Fills the rectangle (x, y, w, h) — pixels, clipped to the frame — with colour (Y, U, V). */
export function fillRect(
  f: I420Frame,
  x: number,
  y: number,
  w: number,
  h: number,
  Y: number,
  U: number,
  V: number,
): void {
  const { width, height, data } = f;
  const x0 = Math.max(0, Math.floor(x));
  const y0 = Math.max(0, Math.floor(y));
  const x1 = Math.min(width, Math.floor(x + w));
  const y1 = Math.min(height, Math.floor(y + h));
  if (x1 <= x0 || y1 <= y0) return;
  for (let row = y0; row < y1; row++) data.fill(Y, row * width + x0, row * width + x1);
  const cw = width >> 1;
  const uBase = width * height;
  const vBase = uBase + (uBase >> 2);
  const cx0 = x0 >> 1;
  const cx1 = (x1 + 1) >> 1;
  const cy1 = (y1 + 1) >> 1;
  for (let row = y0 >> 1; row < cy1; row++) {
    data.fill(U, uBase + row * cw + cx0, uBase + row * cw + cx1);
    data.fill(V, vBase + row * cw + cx0, vBase + row * cw + cx1);
  }
}

/** Fills the disc inscribed in the square (x, y, d, d) — pixels — with colour (Y, U, V). */
export function fillDisc(
  f: I420Frame,
  x: number,
  y: number,
  d: number,
  Y: number,
  U: number,
  V: number,
): void {
  const { width, height, data } = f;
  const r = d / 2;
  const cx = x + r;
  const cy = y + r;
  const yStart = Math.max(0, Math.floor(y));
  const yEnd = Math.min(height, Math.ceil(y + d));
  for (let row = yStart; row < yEnd; row++) {
    const dy = row + 0.5 - cy;
    const half = Math.sqrt(Math.max(0, r * r - dy * dy));
    const a = Math.max(0, Math.round(cx - half));
    const b = Math.min(width, Math.round(cx + half));
    if (b > a) data.fill(Y, row * width + a, row * width + b);
  }
  const cw = width >> 1;
  const uBase = width * height;
  const vBase = uBase + (uBase >> 2);
  const cr = r / 2;
  const ccx = cx / 2;
  const ccy = cy / 2;
  const cyStart = Math.max(0, Math.floor(y / 2));
  const cyEnd = Math.min(height >> 1, Math.ceil((y + d) / 2));
  for (let row = cyStart; row < cyEnd; row++) {
    const dy = row + 0.5 - ccy;
    const half = Math.sqrt(Math.max(0, cr * cr - dy * dy));
    const a = Math.max(0, Math.round(ccx - half));
    const b = Math.min(cw, Math.round(ccx + half));
    if (b > a) {
      data.fill(U, uBase + row * cw + a, uBase + row * cw + b);
      data.fill(V, vBase + row * cw + a, vBase + row * cw + b);
    }
  }
}

/** 3×5 bitmap glyphs (rows top to bottom, 3 bits each, MSB = left column). */
const GLYPHS: Record<string, readonly number[]> = {
  '0': [7, 5, 5, 5, 7],
  '1': [2, 6, 2, 2, 7],
  '2': [7, 1, 7, 4, 7],
  '3': [7, 1, 7, 1, 7],
  '4': [5, 5, 7, 1, 1],
  '5': [7, 4, 7, 1, 7],
  '6': [7, 4, 7, 5, 7],
  '7': [7, 1, 2, 2, 2],
  '8': [7, 5, 7, 5, 7],
  '9': [7, 5, 7, 1, 7],
  ':': [0, 2, 0, 2, 0],
  '.': [0, 0, 0, 0, 2],
  '#': [5, 7, 5, 7, 5],
  '-': [0, 0, 7, 0, 0],
  ' ': [0, 0, 0, 0, 0],
  I: [7, 2, 2, 2, 7],
  P: [6, 5, 6, 4, 4],
};

/** Width in pixels of `text` drawn by drawText at `scale`. */
export function textWidth(text: string, scale: number): number {
  return text.length * 4 * scale - scale;
}

/**
 * Draws `text` (digits, ':', '.', '#', '-', 'I', 'P', space; other characters are blank) with its top-left at (x, y),
 * each glyph pixel a scale×scale block of luma `Y` (chroma untouched).
 */
export function drawText(f: I420Frame, text: string, x: number, y: number, scale: number, Y: number): void {
  const { width, height, data } = f;
  for (let i = 0; i < text.length; i++) {
    const glyph = GLYPHS[text[i] as string] ?? GLYPHS[' '];
    const gx = x + i * 4 * scale;
    for (let gy = 0; gy < 5; gy++) {
      const bits = (glyph as readonly number[])[gy] as number;
      if (!bits) continue;
      for (let col = 0; col < 3; col++) {
        if (!(bits & (4 >> col))) continue;
        const px0 = Math.max(0, gx + col * scale);
        const px1 = Math.min(width, gx + (col + 1) * scale);
        for (let py = y + gy * scale; py < y + (gy + 1) * scale; py++) {
          if (py < 0 || py >= height || px1 <= px0) continue;
          data.fill(Y, py * width + px0, py * width + px1);
        }
      }
    }
  }
}
