/**
 * Counting-line geometry shared by the device's counter (src/agent/useCases/), the scene truth
 * (src/agent/backends/sim/sceneTruth.ts) and the console's line editor (issue 11 `/use-cases/person-counter`:
 * "counts crossing a line drawn on the camera, in/out per interval").
 *
 * Coordinates are fractions of the frame (0..1, x to the right, y down), so a line holds at every resolution.
 * A line runs from (x1, y1) to (x2, y2); its "in" direction is A→B turned a quarter turn anticlockwise on
 * screen: a line drawn top to bottom counts left-to-right as in, a line drawn left to right counts upward as in.
 * A point crosses when it moves from one side of the line to the other through the segment itself (not its
 * extension); a point exactly on the line has no side (the last side seen counts).
 */

/** A counting line in fractions of the frame. */
export interface LinePoints {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

/** A point in fractions of the frame. */
export interface Point {
  x: number;
  y: number;
}

export type CrossingDirection = 'in' | 'out';

/** Signed side of a point: > 0 on the "in" side, < 0 on the "out" side, 0 on the line. */
export function lineSide(line: LinePoints, p: Point): number {
  const dx = line.x2 - line.x1;
  const dy = line.y2 - line.y1;
  return dy * (p.x - line.x1) - dx * (p.y - line.y1);
}

/**
 * The crossing made by moving from `from` to `to` (both off the line): 'in', 'out', or null when both are on
 * one side or the move passes the line outside the segment.
 */
export function crossingDirection(line: LinePoints, from: Point, to: Point): CrossingDirection | null {
  const s0 = lineSide(line, from);
  const s1 = lineSide(line, to);
  if (s0 === 0 || s1 === 0 || s0 > 0 === s1 > 0) return null;
  const t = s0 / (s0 - s1);
  const x = from.x + t * (to.x - from.x);
  const y = from.y + t * (to.y - from.y);
  const dx = line.x2 - line.x1;
  const dy = line.y2 - line.y1;
  const len2 = dx * dx + dy * dy;
  if (len2 === 0) return null;
  const u = ((x - line.x1) * dx + (y - line.y1) * dy) / len2;
  if (u < 0 || u > 1) return null;
  return s1 > 0 ? 'in' : 'out';
}

/** Centre of a box [x, y, width, height] (fractions). */
export const boxCentre = (box: readonly [number, number, number, number]): Point => ({
  x: box[0] + box[2] / 2,
  y: box[1] + box[3] / 2,
});
