/**
 * The synthetic scene of a simulated camera: a few objects (people, cars, balls) moving and bouncing inside
 * the frame, plus two that cross it (a walker and a car: each pass enters at one edge and leaves at the other,
 * a new person or vehicle every pass). Positions are a pure function of (scene, frame size, time), so the
 * bounding boxes of what a frame shows are known exactly — a simulated inference engine can report true
 * detections — and so are the attributes the use cases read (issue 11): a person's identity ('person-7', one
 * of a fixed population, stable per camera seed and pass), age band and gender; a car's plate ('KX-4821').
 * The truth functions for the use cases (line crossings, people and vehicles seen, speeds) are in
 * sceneTruth.ts.
 */
import { mulberry32 } from './random';

/** Class label of a synthetic object. */
export type SceneObjectLabel = 'person' | 'car' | 'ball';

/** An object's description; sizes and speeds are fractions of the frame. */
export interface SceneObjectSpec {
  label: SceneObjectLabel;
  shape: 'rect' | 'disc';
  /** Colour as BT.601 limited-range Y, U, V bytes. */
  yuv: readonly [number, number, number];
  /** Width and height as fractions of frame width / height (a disc uses widthFrac of the width). */
  widthFrac: number;
  heightFrac: number;
  /** Speed in frame-spans per second along x / y (bounces at the edges). */
  speedX: number;
  speedY: number;
  /** Start phase along x / y, in [0, 2). */
  phaseX: number;
  phaseY: number;
  /**
   * 'bounce' (absent: the objects of the first scenes) or 'cross': the object crosses the frame along x at a
   * fixed height (phaseY is then its top as a fraction of the free height); each pass takes `passMs` and the
   * next pass starts as it leaves (one is always partly in view), its direction a seeded function of the pass.
   */
  motion?: 'bounce' | 'cross';
  passMs?: number;
}

/** A scene: the objects one camera shows. */
export interface Scene {
  seed: number;
  objects: readonly SceneObjectSpec[];
  /** Background tint (U, V bytes). */
  tint: readonly [number, number];
}

/**
 * Bounding box of an object in a frame, in pixels: top-left corner (x, y), width, height. Values are even
 * integers and the box lies fully inside the frame.
 */
export interface BoundingBox {
  label: SceneObjectLabel;
  shape: 'rect' | 'disc';
  x: number;
  y: number;
  width: number;
  height: number;
  /** Track number: the object's index in the scene + 1 (a crossing object keeps it from pass to pass). */
  track: number;
  /** Pass number of a crossing object (a new person or vehicle each pass); 0 for a bouncing one. */
  pass: number;
  /** What the use cases read: a person's identity, age band and gender; a car's plate; nothing for a ball. */
  attributes?: SceneAttributes;
}

/** Age bands a demographic engine reports (issue 11). */
export const AGE_BANDS = ['0-17', '18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];
export const GENDERS = ['female', 'male'] as const;
export type Gender = (typeof GENDERS)[number];

/** A person's truth (identity is 'person-<n>', n in 1..PERSON_POPULATION) or a car's plate. */
export type SceneAttributes = { identity: string; age_band: AgeBand; gender: Gender } | { plate: string };

/** How many different people the synthetic world holds (identities person-1 … person-40). */
export const PERSON_POPULATION = 40;

/** 32-bit FNV-1a hash of a string (seeds scenes from camera ids). */
export function hashSeed(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** BT.601 limited-range RGB (0–255) → Y, U, V bytes. */
export function rgbToYuv(r: number, g: number, b: number): [number, number, number] {
  const y = 16 + (65.738 * r + 129.057 * g + 25.064 * b) / 256;
  const u = 128 + (-37.945 * r - 74.494 * g + 112.439 * b) / 256;
  const v = 128 + (112.439 * r - 94.154 * g - 18.285 * b) / 256;
  return [Math.round(y), Math.round(u), Math.round(v)];
}

const PALETTE: readonly (readonly [number, number, number])[] = [
  [230, 60, 50],
  [40, 170, 80],
  [50, 110, 230],
  [240, 200, 40],
  [200, 70, 210],
  [30, 200, 210],
];

/** The scene for a seed: 3 or 4 objects with distinct colours, sizes and speeds. */
export function createScene(seed: number): Scene {
  const rand = mulberry32(seed);
  const count = 3 + Math.floor(rand() * 2);
  const labels: SceneObjectLabel[] = ['person', 'car', 'ball'];
  const objects: SceneObjectSpec[] = [];
  const colourStart = Math.floor(rand() * PALETTE.length);
  for (let i = 0; i < count; i++) {
    const label = labels[i % labels.length] as SceneObjectLabel;
    const rgb = PALETTE[(colourStart + i) % PALETTE.length] as readonly [number, number, number];
    const size =
      label === 'person' ? { w: 0.07, h: 0.28 } : label === 'car' ? { w: 0.2, h: 0.13 } : { w: 0.1, h: 0 };
    const scale = 0.85 + rand() * 0.3;
    objects.push({
      label,
      shape: label === 'ball' ? 'disc' : 'rect',
      yuv: rgbToYuv(rgb[0], rgb[1], rgb[2]),
      widthFrac: size.w * scale,
      heightFrac: size.h * scale,
      speedX: (0.06 + rand() * 0.18) * (rand() < 0.5 ? -1 : 1),
      speedY: (label === 'car' ? 0.02 : 0.05 + rand() * 0.12) * (rand() < 0.5 ? -1 : 1),
      phaseX: rand() * 2,
      phaseY: rand() * 2,
    });
  }
  const [, u, v] = rgbToYuv(60 + rand() * 80, 60 + rand() * 80, 60 + rand() * 80);
  // The crossing objects come from a generator of their own, after the bouncing ones, so the bouncing
  // objects (and every box the first scenes drew) are unchanged; their colours are the palette's unused ones.
  const cross = mulberry32((seed ^ 0x5ce11e0b) >>> 0);
  const crossers: [SceneObjectLabel, number, number, number, number][] = [
    // label, width, height, pass seconds (low, spread)
    ['person', 0.06, 0.24, 6, 4],
    ['car', 0.18, 0.12, 3, 2],
  ];
  crossers.forEach(([label, w, h, passLo, passSpread], j) => {
    const rgb = PALETTE[(colourStart + count + j) % PALETTE.length] as readonly [number, number, number];
    objects.push({
      label,
      shape: 'rect',
      yuv: rgbToYuv(rgb[0], rgb[1], rgb[2]),
      widthFrac: w,
      heightFrac: h,
      speedX: 0,
      speedY: 0,
      phaseX: cross(),
      // walker in the upper-middle band, car in the lower band (fraction of the free height)
      phaseY: label === 'person' ? 0.25 + cross() * 0.3 : 0.75 + cross() * 0.2,
      motion: 'cross',
      passMs: Math.round((passLo + cross() * passSpread) * 1000),
    });
  });
  return { seed, objects, tint: [u, v] };
}

/** A 32-bit hash of a few integers (seeded choices per object and pass). */
function mix(...xs: number[]): number {
  let h = 0x9e3779b9;
  for (const x of xs) {
    h = Math.imul(h ^ (x >>> 0), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h ^= h >>> 16;
  }
  return h >>> 0;
}

/** The attributes of identity person-<n> (1-based): age band and gender, fixed for the synthetic world. */
export function personAttributes(n: number): { identity: string; age_band: AgeBand; gender: Gender } {
  const r = mulberry32(mix(0x9e0913, n));
  return {
    identity: `person-${n}`,
    age_band: AGE_BANDS[Math.floor(r() * AGE_BANDS.length)] as AgeBand,
    gender: GENDERS[Math.floor(r() * GENDERS.length)] as Gender,
  };
}

const PLATE_LETTERS = 'ABCDEFGHJKLMNPRSTUVWXYZ';
/** A plate text such as 'KX-4821' from a hash. */
function plateOf(h: number): string {
  const r = mulberry32(h);
  const l = () => PLATE_LETTERS[Math.floor(r() * PLATE_LETTERS.length)];
  return `${l()}${l()}-${String(Math.floor(r() * 10000)).padStart(4, '0')}`;
}

/** The identity number (1..PERSON_POPULATION) of a person object in a pass; consecutive passes differ. */
function personNumber(seed: number, index: number, pass: number): number {
  const pick = (k: number) => mix(seed, index, k) % PERSON_POPULATION;
  let n = pick(pass);
  if (pass !== 0 && n === pick(pass - 1)) n = (n + 1) % PERSON_POPULATION;
  return n + 1;
}

/** The attributes of object `index` of the scene during `pass` (0 for bouncing objects). */
export function objectAttributes(scene: Scene, index: number, pass: number): SceneAttributes | undefined {
  const o = scene.objects[index];
  if (!o) return undefined;
  if (o.label === 'person') return personAttributes(personNumber(scene.seed, index, pass));
  if (o.label === 'car') {
    let plate = plateOf(mix(scene.seed, index, pass, 0x91a7e));
    if (pass !== 0 && plate === plateOf(mix(scene.seed, index, pass - 1, 0x91a7e)))
      plate = plateOf(mix(scene.seed, index, pass, 0x91a7f));
    return { plate };
  }
  return undefined;
}

/** Direction of pass `pass` of a crossing object: +1 left to right, −1 right to left. */
function passDirection(seed: number, index: number, pass: number): 1 | -1 {
  return mix(seed, index, pass, 0xd1) & 1 ? 1 : -1;
}

/** Where a crossing object is: its pass, and the left edge of its (unclipped) box. */
function crossingPlace(
  o: SceneObjectSpec,
  seed: number,
  index: number,
  width: number,
  boxW: number,
  t: number,
): { pass: number; left: number } {
  const u = (t * 1000) / (o.passMs ?? 5000) + o.phaseX;
  const pass = Math.floor(u);
  const f = u - pass;
  // the unclipped box runs from 2 px inside the entry edge to 2 px inside the exit edge: always in view
  const span = width + boxW - 4;
  const dir = passDirection(seed, index, pass);
  const left = dir === 1 ? -boxW + 2 + f * span : width - 2 - f * span;
  return { pass, left };
}

/**
 * Speed of track `track` (index + 1) in a width×height frame, pixels per second: a crossing object's speed
 * along x (its box runs width + box width − 4 px per pass); a bouncing one's along its diagonal. Pure.
 */
export function trackSpeed(scene: Scene, width: number, height: number, track: number): number {
  const o = scene.objects[track - 1];
  if (!o) return 0;
  const { w, h } = objectSize(o, width, height);
  if (o.motion === 'cross') return ((width + w - 4) * 1000) / (o.passMs ?? 5000);
  return Math.hypot(o.speedX * (width - w), o.speedY * (height - h));
}

function objectSize(o: SceneObjectSpec, width: number, height: number): { w: number; h: number } {
  const w = Math.max(2, even(o.widthFrac * width));
  const h = o.shape === 'disc' ? w : Math.max(2, even(o.heightFrac * height));
  return { w: Math.min(w, width), h: Math.min(h, height) };
}

/** Triangle wave: maps any real s to [0, 1], period 2 (a bouncing position). */
function bounce(s: number): number {
  const m = ((s % 2) + 2) % 2;
  return m <= 1 ? m : 2 - m;
}

const even = (n: number): number => 2 * Math.round(n / 2);

/**
 * Bounding boxes of the scene's objects at time `timeMs` (ms, any epoch) in a width×height frame (even
 * width and height), one per object in the scene's order, which is the drawing order (later objects are drawn
 * on top). A crossing object entering or leaving is clipped to the frame (at least 2 px of it is always in
 * view). Pure: the same inputs give the same boxes.
 */
export function sceneObjectsAt(scene: Scene, width: number, height: number, timeMs: number): BoundingBox[] {
  const t = timeMs / 1000;
  return scene.objects.map((o, i) => {
    const { w: boxW, h: boxH } = objectSize(o, width, height);
    if (o.motion === 'cross') {
      const { pass, left } = crossingPlace(o, scene.seed, i, width, boxW, t);
      const l = even(left);
      const x = Math.max(0, l);
      const x1 = Math.min(width, l + boxW);
      const y = Math.min(height - boxH, Math.max(0, even(o.phaseY * (height - boxH))));
      const attributes = objectAttributes(scene, i, pass);
      return {
        label: o.label,
        shape: o.shape,
        x,
        y,
        width: x1 - x,
        height: boxH,
        track: i + 1,
        pass,
        attributes,
      };
    }
    const x = Math.min(width - boxW, Math.max(0, even(bounce(o.phaseX + o.speedX * t) * (width - boxW))));
    const y = Math.min(height - boxH, Math.max(0, even(bounce(o.phaseY + o.speedY * t) * (height - boxH))));
    const attributes = objectAttributes(scene, i, 0);
    return {
      label: o.label,
      shape: o.shape,
      x,
      y,
      width: boxW,
      height: boxH,
      track: i + 1,
      pass: 0,
      attributes,
    };
  });
}
