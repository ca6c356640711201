/**
 * The scene truth a `sim` device answers the demo apps from (issue 14: "Each runs on the sim engine from the
 * synthetic scene's truth, so answers are checkable"). A synthetic camera (backends/sim/camera.ts SimCamera)
 * knows its scene and where every object is at any time (`objectsAt`, a pure function of time); this module
 * turns that into what the apps need: objects with a track id, colour name and position words, in fractions
 * 0..1 of the frame. Pure: the same camera and time give the same answer.
 */
import type { CameraDevice } from '../backends/types';
import type { BoundingBox, Scene } from '../backends/sim/scene';

/** The frame size truth boxes are computed in (the sim cameras' default stream size). */
export const TRUTH_WIDTH = 1280;
export const TRUTH_HEIGHT = 720;

/** A camera whose scene is known (SimCamera). */
export interface TruthCamera extends CameraDevice {
  readonly scene: Scene;
  objectsAt(width: number, height: number, timeMs: number): BoundingBox[];
}

export const hasTruth = (c: CameraDevice | undefined): c is TruthCamera =>
  !!c &&
  typeof (c as Partial<TruthCamera>).objectsAt === 'function' &&
  typeof (c as Partial<TruthCamera>).scene === 'object';

/** One object of the frame as the demo apps read it. */
export interface TruthObject {
  /** 1-based index of the object in its scene (stable for the camera's life). */
  trackId: number;
  /** Pass of an object crossing the frame (a new person or vehicle each pass); 0 for a bouncing one. */
  pass: number;
  label: string;
  colour: string;
  /** x, y, w, h in 0..1 of the frame. */
  box: [number, number, number, number];
  /** Where its centre is: 'left' | 'centre' | 'right' and 'top' | 'middle' | 'bottom'. */
  column: 'left' | 'centre' | 'right';
  row: 'top' | 'middle' | 'bottom';
  /** Extra attributes the scene gives (person age band and gender, vehicle plate), when it gives them. */
  attributes: Record<string, string>;
}

const NAMED: readonly [string, number, number, number][] = [
  ['red', 230, 60, 50],
  ['green', 40, 170, 80],
  ['blue', 50, 110, 230],
  ['yellow', 240, 200, 40],
  ['purple', 200, 70, 210],
  ['cyan', 30, 200, 210],
  ['white', 240, 240, 240],
  ['black', 20, 20, 20],
  ['grey', 128, 128, 128],
  ['orange', 245, 140, 30],
];

/** BT.601 limited-range Y, U, V bytes → the nearest colour name of NAMED. */
export function colourName(yuv: readonly [number, number, number]): string {
  const [y, u, v] = yuv;
  const c = 1.164 * (y - 16);
  const r = c + 1.596 * (v - 128);
  const g = c - 0.392 * (u - 128) - 0.813 * (v - 128);
  const b = c + 2.017 * (u - 128);
  let best = NAMED[0]![0];
  let bestD = Infinity;
  for (const [name, nr, ng, nb] of NAMED) {
    const d = (r - nr) ** 2 + (g - ng) ** 2 + (b - nb) ** 2;
    if (d < bestD) {
      bestD = d;
      best = name;
    }
  }
  return best;
}

const third = <T>(v: number, words: readonly [T, T, T]): T =>
  v < 1 / 3 ? words[0] : v < 2 / 3 ? words[1] : words[2];

/** The scene's attributes of a box (identity, age_band, gender; plate) as strings. */
function attributesOf(b: BoundingBox): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(b.attributes ?? {})) if (typeof v === 'string') out[k] = v;
  return out;
}

/** The objects the camera shows at `timeMs`, in scene order. */
export function truthAt(camera: TruthCamera, timeMs: number): TruthObject[] {
  const boxes = camera.objectsAt(TRUTH_WIDTH, TRUTH_HEIGHT, timeMs);
  return boxes.map((b, i) => {
    const spec = camera.scene.objects[i];
    const box: [number, number, number, number] = [
      b.x / TRUTH_WIDTH,
      b.y / TRUTH_HEIGHT,
      b.width / TRUTH_WIDTH,
      b.height / TRUTH_HEIGHT,
    ];
    const cx = box[0] + box[2] / 2;
    const cy = box[1] + box[3] / 2;
    return {
      trackId: b.track ?? i + 1,
      pass: b.pass ?? 0,
      label: b.label,
      colour: spec ? colourName(spec.yuv) : 'grey',
      box,
      column: third(cx, ['left', 'centre', 'right'] as const),
      row: third(cy, ['top', 'middle', 'bottom'] as const),
      attributes: attributesOf(b),
    };
  });
}
