/**
 * A 5×7 bitmap font for the simulated desktop's text (window titles, the Notes field): upper-case letters
 * (lower case is drawn upper case), digits and common punctuation. Other characters draw as a hollow box.
 * Drawn straight into an I420 frame's luma plane, like src/agent/backends/sim/i420.ts drawText.
 */
import type { I420Frame } from '../backends/types';

/** Glyph rows top to bottom, 5 bits each, MSB = left column. */
const GLYPHS: Record<string, readonly number[]> = {
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [30, 17, 17, 17, 17, 17, 30],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '.': [0, 0, 0, 0, 0, 12, 12],
  ',': [0, 0, 0, 0, 12, 4, 8],
  ':': [0, 12, 12, 0, 12, 12, 0],
  ';': [0, 12, 12, 0, 12, 4, 8],
  '!': [4, 4, 4, 4, 4, 0, 4],
  '?': [14, 17, 1, 2, 4, 0, 4],
  '-': [0, 0, 0, 31, 0, 0, 0],
  '+': [0, 4, 4, 31, 4, 4, 0],
  '=': [0, 0, 31, 0, 31, 0, 0],
  _: [0, 0, 0, 0, 0, 0, 31],
  '/': [1, 1, 2, 4, 8, 16, 16],
  '(': [2, 4, 8, 8, 8, 4, 2],
  ')': [8, 4, 2, 2, 2, 4, 8],
  "'": [4, 4, 8, 0, 0, 0, 0],
  '"': [10, 10, 0, 0, 0, 0, 0],
  '#': [10, 10, 31, 10, 31, 10, 10],
  '@': [14, 17, 23, 21, 23, 16, 14],
  '*': [0, 4, 21, 14, 21, 4, 0],
  '<': [2, 4, 8, 16, 8, 4, 2],
  '>': [8, 4, 2, 1, 2, 4, 8],
};
const UNKNOWN = [31, 17, 17, 17, 17, 17, 31];

/** Advance of one glyph at `scale`, pixels (5 columns + 1 of spacing). */
export const glyphAdvance = (scale: number): number => 6 * scale;
/** Height of a line of text at `scale`, pixels (7 rows + 2 of spacing). */
export const lineHeight = (scale: number): number => 9 * scale;

/** Whether `ch` has its own glyph (lower case counts as its upper case). */
export function hasGlyph(ch: string): boolean {
  return GLYPHS[ch.toUpperCase()] !== undefined;
}

/**
 * Draws `text` with its top-left at (x, y), each glyph pixel a scale×scale block of luma `Y` (chroma left as
 * is); clipped to the frame and to `maxX` (exclusive), pixels.
 */
export function drawGlyphs(
  f: I420Frame,
  text: string,
  x: number,
  y: number,
  scale: number,
  Y: number,
  maxX = f.width,
): void {
  const { width, height, data } = f;
  const right = Math.min(width, maxX);
  let i = 0;
  for (const ch of text) {
    const glyph = GLYPHS[ch.toUpperCase()] ?? UNKNOWN;
    const gx = x + i * glyphAdvance(scale);
    i++;
    if (gx >= right) break;
    for (let row = 0; row < 7; row++) {
      const bits = glyph[row] as number;
      if (!bits) continue;
      for (let col = 0; col < 5; col++) {
        if (!(bits & (16 >> col))) continue;
        const px0 = Math.max(0, gx + col * scale);
        const px1 = Math.min(right, gx + (col + 1) * scale);
        if (px1 <= px0) continue;
        for (let py = y + row * scale; py < y + (row + 1) * scale; py++) {
          if (py >= 0 && py < height) data.fill(Y, py * width + px0, py * width + px1);
        }
      }
    }
  }
}
