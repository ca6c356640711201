/**
 * The speed application's measurement (issue 14 "draw two lines on the camera with a real-world distance
 * between them; speed of vehicles crossing both lines (km/h)"). A tracker's view of the scene: every vehicle's
 * box centre is sampled every `stepMs` (a camera's frame interval), a crossing of a line is the moment the
 * centre's path between two samples cuts the drawn segment (time interpolated linearly between the samples),
 * and a pass is a crossing of one line followed by a crossing of the other by the same track:
 * speed_kmh = distance_m / (t_second − t_first) × 3.6. Pure: positions come from `objectsAt(time)`.
 */
import type { FrameLine, SpeedPass } from '../../protocol/demoApps';
import type { TruthObject } from './truth';

/** Labels timed as vehicles. */
export const VEHICLE_LABELS = new Set(['car', 'truck', 'bus', 'van', 'motorcycle', 'bicycle', 'vehicle']);

type P = readonly [number, number];

/** Where the segment p→q cuts the segment a→b: the fraction along p→q (0..1), or null. */
export function segmentCut(p: P, q: P, a: P, b: P): number | null {
  const rx = q[0] - p[0];
  const ry = q[1] - p[1];
  const sx = b[0] - a[0];
  const sy = b[1] - a[1];
  const den = rx * sy - ry * sx;
  if (Math.abs(den) < 1e-12) return null;
  const t = ((a[0] - p[0]) * sy - (a[1] - p[1]) * sx) / den;
  const u = ((a[0] - p[0]) * ry - (a[1] - p[1]) * rx) / den;
  if (t < 0 || t >= 1 || u < 0 || u > 1) return null;
  return t;
}

interface Crossing {
  line: 'a' | 'b';
  t: number;
}

/** Every vehicle pass between the two lines within [from, to] (wall ms), in the order they completed. */
export function measurePasses(
  objectsAt: (timeMs: number) => readonly TruthObject[],
  from: number,
  to: number,
  lineA: FrameLine,
  lineB: FrameLine,
  distanceM: number,
  stepMs = 1000 / 30,
): SpeedPass[] {
  const crossings = new Map<string, Crossing[]>();
  const facts = new Map<string, TruthObject>();
  let prev = new Map<string, P>();
  const steps = Math.max(1, Math.ceil((to - from) / stepMs));
  for (let i = 0; i <= steps; i++) {
    const t = Math.min(to, from + i * stepMs);
    const now = new Map<string, P>();
    for (const o of objectsAt(t)) {
      if (!VEHICLE_LABELS.has(o.label)) continue;
      const c: P = [o.box[0] + o.box[2] / 2, o.box[1] + o.box[3] / 2];
      const id = `${o.trackId}.${o.pass}`;
      now.set(id, c);
      facts.set(id, o);
      const p = prev.get(id);
      if (!p) continue;
      const tPrev = Math.min(to, from + (i - 1) * stepMs);
      for (const [name, line] of [
        ['a', lineA],
        ['b', lineB],
      ] as const) {
        const f = segmentCut(p, c, line[0], line[1]);
        if (f === null) continue;
        const list = crossings.get(id) ?? [];
        list.push({ line: name, t: tPrev + f * (t - tPrev) });
        crossings.set(id, list);
      }
    }
    prev = now;
  }
  const passes: SpeedPass[] = [];
  for (const [track, list] of crossings) {
    list.sort((x, y) => x.t - y.t);
    for (let i = 1; i < list.length; i++) {
      const first = list[i - 1]!;
      const second = list[i]!;
      if (first.line === second.line || second.t <= first.t) continue;
      const o = facts.get(track)!;
      passes.push({
        track_id: o.trackId,
        label: o.label,
        colour: o.colour,
        plate: o.attributes.plate ?? null,
        t_first: Math.round(first.t),
        t_second: Math.round(second.t),
        direction: first.line === 'a' ? 'a→b' : 'b→a',
        speed_kmh: Math.round((distanceM / ((second.t - first.t) / 1000)) * 3.6 * 10) / 10,
      });
      i++;
    }
  }
  return passes.sort((x, y) => x.t_second - y.t_second);
}
