/**
 * The synthetic scene of a simulated camera: a few objects (people, cars, balls) moving and bouncing inside
 * the frame. Positions are a pure function of (scene, frame size, time), so the bounding boxes of what a
 * frame shows are known exactly — a simulated inference engine can report true detections.
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
}

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
  return { seed, objects, tint: [u, v] };
}

/** Triangle wave: maps any real s to [0, 1], period 2 (a bouncing position). */
function bounce(s: number): number {
  const m = ((s % 2) + 2) % 2;
  return m <= 1 ? m : 2 - m;
}

const even = (n: number): number => 2 * Math.round(n / 2);

/**
 * Bounding boxes of the scene's objects at time `timeMs` (ms, any epoch) in a width×height frame, in
 * drawing order (later objects are drawn on top). Pure: the same inputs give the same boxes.
 */
export function sceneObjectsAt(scene: Scene, width: number, height: number, timeMs: number): BoundingBox[] {
  const t = timeMs / 1000;
  return scene.objects.map((o) => {
    const w = Math.max(2, even(o.widthFrac * width));
    const h = o.shape === 'disc' ? w : Math.max(2, even(o.heightFrac * height));
    const boxW = Math.min(w, width);
    const boxH = Math.min(h, height);
    const x = Math.min(width - boxW, Math.max(0, even(bounce(o.phaseX + o.speedX * t) * (width - boxW))));
    const y = Math.min(height - boxH, Math.max(0, even(bounce(o.phaseY + o.speedY * t) * (height - boxH))));
    return { label: o.label, shape: o.shape, x, y, width: boxW, height: boxH };
  });
}
