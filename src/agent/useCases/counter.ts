/**
 * The device's use-case tracker (issue 11), pure: fed each inferred frame's detections of one job, it gives
 * the records a use case keeps —
 * - person counter: a crossing ('in' / 'out', src/protocol/analyticsGeometry.ts) each time a person's box
 *   centre moves through the counting line between two frames it was seen in;
 * - demographic: a sighting per person (track and identity) the first time it is seen, with its identity,
 *   age band and gender;
 * - vehicle plate: a sighting per vehicle (track and plate) when first seen, and again (same key: the server
 *   fills the speed) once its speed is measured: the box centre's travel over at least SPEED_MIN_MS, px/s of
 *   the frame size reported.
 * A track is the engine's track id plus the object's identity or plate when the engine gives one (a new
 * person or vehicle under a reused track id is a new track); a track unseen for TRACK_STALE_MS is forgotten.
 */
import {
  boxCentre,
  crossingDirection,
  lineSide,
  type LinePoints,
  type Point,
} from '../../protocol/analyticsGeometry';
import type { DeviceUseCase, UseCaseRecordIn } from '../../protocol/analytics';
import type { Detection } from '../../protocol/inference';

export const TRACK_STALE_MS = 2_000;
export const SPEED_MIN_MS = 1_000;
const PERSON = 'person';
const VEHICLES = new Set(['car', 'truck', 'bus', 'motorcycle', 'vehicle']);

interface TrackState {
  /** Last centre seen off the line (counter). */
  p: Point | null;
  lastWall: number;
  first: { wall: number; c: Point };
  /** sighting posted; speed posted */
  seen: boolean;
  speedSent: boolean;
  /** First frame the box was wholly in view (vehicle speed). */
  firstInside?: { wall: number; c: Point };
}

export interface FrameInput {
  wall: number;
  width: number;
  height: number;
  detections: readonly Detection[];
}

const trackKey = (d: Detection) => `${d.track_id}:${d.attributes?.identity ?? d.attributes?.plate ?? ''}`;

/** One use case's tracker. */
export class UseCaseTracker {
  private readonly tracks = new Map<string, TrackState>();
  constructor(readonly useCase: DeviceUseCase) {}

  /** The records this frame adds. */
  frame(f: FrameInput): UseCaseRecordIn[] {
    const out: UseCaseRecordIn[] = [];
    const u = this.useCase;
    for (const d of f.detections) {
      const isPerson = d.class_name === PERSON;
      const isVehicle = VEHICLES.has(d.class_name);
      if (u.kind !== 'vehicle-plate' ? !isPerson : !isVehicle) continue;
      const key = trackKey(d);
      const c = boxCentre(d.box);
      let t = this.tracks.get(key);
      if (!t) {
        t = { p: null, lastWall: f.wall, first: { wall: f.wall, c }, seen: false, speedSent: false };
        this.tracks.set(key, t);
      }
      t.lastWall = f.wall;
      const base = {
        use_case_id: u.id,
        at: Math.round(f.wall),
        class: d.class_name,
        track: String(d.track_id),
      };
      const a = d.attributes ?? {};
      if (u.kind === 'person-counter' && u.line) {
        if (lineSide(u.line as LinePoints, c) === 0) continue;
        if (t.p) {
          const direction = crossingDirection(u.line as LinePoints, t.p, c);
          if (direction)
            out.push({
              ...base,
              key: `${key}:${Math.round(f.wall)}:${direction}`,
              kind: 'crossing',
              direction,
              identity: a.identity ?? null,
              age_band: a.age_band ?? null,
              gender: a.gender ?? null,
              plate: null,
              speed: null,
            });
        }
        t.p = c;
      } else if (u.kind === 'demographic') {
        if (!t.seen && a.identity) {
          t.seen = true;
          out.push({
            ...base,
            key: `${key}:${Math.round(t.first.wall)}`,
            kind: 'sighting',
            direction: null,
            identity: a.identity,
            age_band: a.age_band ?? null,
            gender: a.gender ?? null,
            plate: null,
            speed: null,
          });
        }
      } else if (u.kind === 'vehicle-plate' && a.plate) {
        const record = (speed: number | null): UseCaseRecordIn => ({
          ...base,
          at: Math.round(t!.first.wall),
          key: `${key}:${Math.round(t!.first.wall)}`,
          kind: 'sighting',
          direction: null,
          identity: null,
          age_band: null,
          gender: null,
          plate: a.plate ?? null,
          speed,
        });
        if (!t.seen) {
          t.seen = true;
          out.push(record(null));
        }
        // measured on a box wholly in view (a box entering or leaving is clipped and its centre slows)
        const inside = d.box[0] > 0 && d.box[0] + d.box[2] < 1;
        const fi = t.firstInside;
        if (inside && !fi) t.firstInside = { wall: f.wall, c };
        else if (inside && fi && !t.speedSent && f.wall - fi.wall >= SPEED_MIN_MS) {
          const px = Math.hypot((c.x - fi.c.x) * f.width, (c.y - fi.c.y) * f.height);
          t.speedSent = true;
          out.push(record(Math.round((px / ((f.wall - fi.wall) / 1000)) * 10) / 10));
        }
      }
    }
    for (const [k, t] of this.tracks) if (f.wall - t.lastWall > TRACK_STALE_MS) this.tracks.delete(k);
    return out;
  }
}
