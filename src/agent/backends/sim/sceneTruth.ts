/**
 * Ground truth of the synthetic scene for the use cases (issue 11: "The `sim` scene carries the truth for all
 * three so tests can check the numbers exactly"): the objects and their attributes at an instant, the line
 * crossings between two instants, the people and vehicles seen in an interval, a track's speed.
 *
 * Every function is pure over (scene, frame size, times). Crossings are found the way the device's counter
 * finds them (src/agent/useCases/counter.ts): the centre of each object's box is followed from sample to
 * sample and a move from one side of the line to the other through the segment is a crossing, timed at the
 * first sample on the new side; a crossing object's new pass is a new object. The truth samples every
 * `stepMs` (default 10 ms, finer than any camera's frames); a device sampling at its frame rate finds the same
 * crossings, each up to one frame later, except when an object turns back within one frame of the line.
 */
import {
  boxCentre,
  crossingDirection,
  lineSide,
  type CrossingDirection,
  type LinePoints,
  type Point,
} from '../../../protocol/analyticsGeometry';
import {
  sceneObjectsAt,
  trackSpeed,
  type BoundingBox,
  type Scene,
  type SceneAttributes,
  type SceneObjectLabel,
} from './scene';

export { trackSpeed };

/** The objects and their attributes at `timeMs` (the boxes of sceneObjectsAt: pixels, track, pass, attributes). */
export const sceneTruthAt = (scene: Scene, width: number, height: number, timeMs: number): BoundingBox[] =>
  sceneObjectsAt(scene, width, height, timeMs);

/** One true crossing of a counting line. */
export interface TrueCrossing {
  /** First sample on the new side, ms (the clock of the times given). */
  timeMs: number;
  direction: CrossingDirection;
  label: SceneObjectLabel;
  track: number;
  pass: number;
  attributes?: SceneAttributes;
}

const centreOf = (b: BoundingBox, width: number, height: number): Point =>
  boxCentre([b.x / width, b.y / height, b.width / width, b.height / height]);

/**
 * Crossings of `line` (fractions of the frame) by the centres of the objects' boxes in (t0, t1], ms; labels
 * limits the classes (default all). Ordered by time, then track.
 */
export function lineCrossings(
  scene: Scene,
  width: number,
  height: number,
  line: LinePoints,
  t0: number,
  t1: number,
  options: { labels?: readonly SceneObjectLabel[]; stepMs?: number } = {},
): TrueCrossing[] {
  const step = options.stepMs ?? 10;
  const out: TrueCrossing[] = [];
  // per track: the pass and the last centre seen off the line
  const last = new Map<number, { pass: number; p: Point | null }>();
  for (let t = t0; t <= t1; t += step) {
    for (const b of sceneObjectsAt(scene, width, height, t)) {
      if (options.labels && !options.labels.includes(b.label)) continue;
      const p = centreOf(b, width, height);
      const prev = last.get(b.track);
      const onLine = lineSide(line, p) === 0;
      if (!prev || prev.pass !== b.pass) {
        last.set(b.track, { pass: b.pass, p: onLine ? null : p });
        continue;
      }
      if (onLine) continue;
      if (prev.p && t > t0) {
        const direction = crossingDirection(line, prev.p, p);
        if (direction)
          out.push({
            timeMs: t,
            direction,
            label: b.label,
            track: b.track,
            pass: b.pass,
            attributes: b.attributes,
          });
      }
      prev.p = p;
    }
  }
  return out;
}

/** Counts of crossings in / out. */
export function countCrossings(crossings: readonly TrueCrossing[]): { in: number; out: number } {
  let i = 0;
  let o = 0;
  for (const c of crossings)
    if (c.direction === 'in') i++;
    else o++;
  return { in: i, out: o };
}

/** One object (a track's pass) seen in an interval. */
export interface TrueSighting {
  label: SceneObjectLabel;
  track: number;
  pass: number;
  attributes?: SceneAttributes;
  firstMs: number;
  lastMs: number;
  /** trackSpeed for this frame size, px/s. */
  speed: number;
}

/**
 * The objects (one entry per track and pass) in view in [t0, t1], sampled every stepMs (default 100 ms; every
 * pass lasts seconds), with the first and last sample each was seen at. Ordered by first sight, then track.
 */
export function objectsSeen(
  scene: Scene,
  width: number,
  height: number,
  t0: number,
  t1: number,
  options: { labels?: readonly SceneObjectLabel[]; stepMs?: number } = {},
): TrueSighting[] {
  const step = options.stepMs ?? 100;
  const seen = new Map<string, TrueSighting>();
  for (let t = t0; t <= t1; t += step) {
    for (const b of sceneObjectsAt(scene, width, height, t)) {
      if (options.labels && !options.labels.includes(b.label)) continue;
      const key = `${b.track}:${b.pass}`;
      const s = seen.get(key);
      if (s) s.lastMs = t;
      else
        seen.set(key, {
          label: b.label,
          track: b.track,
          pass: b.pass,
          attributes: b.attributes,
          firstMs: t,
          lastMs: t,
          speed: trackSpeed(scene, width, height, b.track),
        });
    }
  }
  return [...seen.values()];
}
