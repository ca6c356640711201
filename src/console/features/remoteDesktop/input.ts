/**
 * Browser input → §7 remote control payloads (pure; no DOM access beyond the event fields passed in):
 * pointer positions as fractions of the remote screen, wheel deltas as notches, keys as KeyboardControl,
 * the 16:9 box of the view (§9 remote screen aspect 1280x720), and the throttle used for mouse moves
 * (§9 100 ms) and resizes (§9 200 ms). No zod here (the screens' chunk stays small).
 */
import type { KeyboardControl, MouseButton } from '../../../protocol/remoteDesktop';

/** A rectangle in CSS pixels (DOMRect-like). */
export interface Box {
  left: number;
  top: number;
  width: number;
  height: number;
}

/**
 * The fraction position on the remote screen of a client point over a video element showing a
 * `video.width`×`video.height` picture with object-fit: contain inside `box`; null outside the picture.
 */
export function pointToScreen(
  clientX: number,
  clientY: number,
  box: Box,
  video: { width: number; height: number },
): { x: number; y: number } | null {
  if (box.width <= 0 || box.height <= 0 || video.width <= 0 || video.height <= 0) return null;
  const scale = Math.min(box.width / video.width, box.height / video.height);
  const w = video.width * scale;
  const h = video.height * scale;
  const left = box.left + (box.width - w) / 2;
  const top = box.top + (box.height - h) / 2;
  const x = (clientX - left) / w;
  const y = (clientY - top) / h;
  if (x < 0 || x > 1 || y < 0 || y > 1) return null;
  return { x: Math.round(x * 10_000) / 10_000, y: Math.round(y * 10_000) / 10_000 };
}

/** The largest width×height box of aspect `aspect` (width/height) inside avail, whole CSS pixels. */
export function fitAspect(
  availWidth: number,
  availHeight: number,
  aspect = 1280 / 720,
): { width: number; height: number } {
  if (availWidth <= 0 || availHeight <= 0) return { width: 0, height: 0 };
  const width = Math.min(availWidth, availHeight * aspect);
  return { width: Math.floor(width), height: Math.floor(width / aspect) };
}

/** MouseEvent.button → the protocol's button (0 left, 1 middle, 2 right); null for others (back, forward). */
export function buttonOf(button: number): MouseButton | null {
  return button === 0 ? 'left' : button === 1 ? 'middle' : button === 2 ? 'right' : null;
}

/** The button a move is dragging with (MouseEvent.buttons bit mask: 1 left, 4 middle, 2 right), or null. */
export function draggingButton(buttons: number): MouseButton | null {
  return buttons & 1 ? 'left' : buttons & 4 ? 'middle' : buttons & 2 ? 'right' : null;
}

/** Wheel pixels per notch (a typical mouse notch is 100 px in Chromium, 3 lines elsewhere). */
const PX_PER_NOTCH = 100;
/** WheelEvent deltas → whole notches (at least one for any movement; at most 20), by deltaMode. */
export function wheelNotches(delta: number, deltaMode: number): number {
  if (delta === 0) return 0;
  const px = deltaMode === 1 ? delta * 33 : deltaMode === 2 ? delta * 800 : delta;
  const n = Math.round(px / PX_PER_NOTCH) || Math.sign(px);
  return Math.max(-20, Math.min(20, n));
}

/** Named keys the device understands (protocol REMOTE_KEY_NAMES; copied so zod stays out of this chunk). */
const NAMED = new Set([
  'Enter', 'Backspace', 'Tab', 'Escape', 'Delete', 'Insert', 'Home', 'End', 'PageUp', 'PageDown',
  'ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown',
  'F1', 'F2', 'F3', 'F4', 'F5', 'F6', 'F7', 'F8', 'F9', 'F10', 'F11', 'F12',
]); // prettier-ignore

/** The KeyboardEvent fields read by keyToControl. */
export interface KeyLike {
  key: string;
  ctrlKey: boolean;
  altKey: boolean;
  shiftKey: boolean;
  metaKey: boolean;
}

/**
 * A keydown → keyboard-control, or null for keys not sent: modifiers alone, Escape (it releases the
 * keyboard, README decision), dead keys and unknown names. A printable character without ctrl/alt/meta is
 * sent as text (the device types it whatever its keyboard layout); the rest as a key with modifiers.
 */
export function keyToControl(e: KeyLike): KeyboardControl | null {
  if (e.key === 'Escape') return null;
  const single = [...e.key].length === 1;
  if (!single && !NAMED.has(e.key)) return null;
  if (single && !e.ctrlKey && !e.altKey && !e.metaKey) return { action: 'text', text: e.key };
  return {
    action: 'key',
    key: e.key,
    modifiers: { ctrl: e.ctrlKey, alt: e.altKey, shift: e.shiftKey, meta: e.metaKey },
  };
}

/**
 * Throttle with a leading and a trailing call: the first call runs at once; calls within `intervalMs` after
 * it keep only the latest argument, which runs when the interval ends. `flush()` runs a pending call now
 * (so a click is never sent before the move that leads to it); `cancel()` drops it. Timers are injectable.
 */
export function createThrottle<T>(
  intervalMs: number,
  run: (value: T) => void,
  timers: {
    now: () => number;
    setTimeout: (fn: () => void, ms: number) => unknown;
    clearTimeout: (handle: unknown) => void;
  } = {
    now: () => Date.now(),
    setTimeout: (fn, ms) => setTimeout(fn, ms),
    clearTimeout: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
  },
): { call(value: T): void; flush(): void; cancel(): void } {
  let last = -Infinity;
  let pending: { value: T } | null = null;
  let timer: unknown = null;
  const fire = () => {
    timer = null;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    last = timers.now();
    run(value);
  };
  return {
    call(value) {
      const wait = last + intervalMs - timers.now();
      pending = { value };
      if (wait <= 0 && timer === null) fire();
      else if (timer === null) timer = timers.setTimeout(fire, Math.max(0, wait));
    },
    flush() {
      if (timer !== null) timers.clearTimeout(timer);
      fire();
    },
    cancel() {
      if (timer !== null) timers.clearTimeout(timer);
      timer = null;
      pending = null;
    },
  };
}
