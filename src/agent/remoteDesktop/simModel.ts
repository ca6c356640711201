/**
 * The simulated desktop's state (pure; no drawing): three windows — "Notes" with a text field that shows
 * what is typed, "Lamp" with a button that toggles the lamp's colour, "About" — on a 1280×720 screen, each
 * with a title bar and a close box. A click focuses and raises the window under the pointer; a press on a
 * title bar and a drag move the window; the close box closes it; keys go to the focused window (Notes).
 * Every change bumps `version`, so the renderer redraws only when something changed.
 */
import type { KeyboardControl, MouseControl, MouseDrag, ScrollMouse } from '../../protocol/remoteDesktop';

export const SIM_SCREEN = { width: 1280, height: 720 } as const;
/** Title bar height and close box size, pixels. */
export const TITLE_BAR_PX = 28;
export const CLOSE_BOX_PX = 20;
/** Most characters the Notes field keeps. */
export const NOTES_MAX_CHARS = 400;

export interface SimWindow {
  id: string;
  title: string;
  kind: 'notes' | 'lamp' | 'about';
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface SimDesktopState {
  /** Bottom to top. */
  windows: SimWindow[];
  focusedId: string | null;
  /** The Notes field's text ('\n' breaks lines). */
  notes: string;
  /** Lines of Notes scrolled out at the top. */
  notesScroll: number;
  lampOn: boolean;
  pointer: { x: number; y: number };
  /** A title-bar drag under way: the window and the grab offset, pixels. */
  grab: { id: string; dx: number; dy: number } | null;
  /** Bumped on every visible change. */
  version: number;
}

export function initialDesktop(): SimDesktopState {
  return {
    windows: [
      { id: 'w3', title: 'About', kind: 'about', x: 420, y: 470, width: 420, height: 170 },
      { id: 'w2', title: 'Lamp', kind: 'lamp', x: 760, y: 90, width: 420, height: 320 },
      { id: 'w1', title: 'Notes', kind: 'notes', x: 80, y: 70, width: 600, height: 360 },
    ],
    focusedId: 'w1',
    notes: '',
    notesScroll: 0,
    lampOn: false,
    pointer: { x: 640, y: 360 },
    grab: null,
    version: 1,
  };
}

/** The toggle button's rectangle inside a Lamp window, screen pixels. */
export function lampButton(w: SimWindow): { x: number; y: number; width: number; height: number } {
  return { x: w.x + w.width / 2 - 80, y: w.y + w.height - 70, width: 160, height: 44 };
}

/** The lamp's rectangle inside a Lamp window, screen pixels. */
export function lampRect(w: SimWindow): { x: number; y: number; width: number; height: number } {
  return { x: w.x + w.width / 2 - 70, y: w.y + TITLE_BAR_PX + 24, width: 140, height: 140 };
}

/** The close box of a window, screen pixels. */
export function closeBox(w: SimWindow): { x: number; y: number; width: number; height: number } {
  return { x: w.x + w.width - CLOSE_BOX_PX - 4, y: w.y + 4, width: CLOSE_BOX_PX, height: CLOSE_BOX_PX };
}

const inside = (p: { x: number; y: number }, r: { x: number; y: number; width: number; height: number }) =>
  p.x >= r.x && p.x < r.x + r.width && p.y >= r.y && p.y < r.y + r.height;

/** The topmost window under a point, or undefined. */
export function windowAt(s: SimDesktopState, x: number, y: number): SimWindow | undefined {
  for (let i = s.windows.length - 1; i >= 0; i--) {
    const w = s.windows[i] as SimWindow;
    if (inside({ x, y }, w)) return w;
  }
  return undefined;
}

const toPx = (fx: number, fy: number) => ({
  x: Math.round(fx * (SIM_SCREEN.width - 1)),
  y: Math.round(fy * (SIM_SCREEN.height - 1)),
});

const changed = (s: SimDesktopState): void => {
  s.version++;
};

function movePointer(s: SimDesktopState, x: number, y: number): void {
  if (s.pointer.x === x && s.pointer.y === y) return;
  s.pointer = { x, y };
  if (s.grab) {
    const w = s.windows.find((v) => v.id === s.grab?.id);
    if (w) {
      w.x = Math.max(-w.width + 60, Math.min(SIM_SCREEN.width - 60, x - s.grab.dx));
      w.y = Math.max(0, Math.min(SIM_SCREEN.height - TITLE_BAR_PX, y - s.grab.dy));
    }
  }
  changed(s);
}

/** A press of the left button at (x, y): focus and raise; title bar grabs; close box closes; button toggles. */
function press(s: SimDesktopState, x: number, y: number): void {
  const w = windowAt(s, x, y);
  if (!w) {
    if (s.focusedId !== null) {
      s.focusedId = null;
      changed(s);
    }
    return;
  }
  s.windows = [...s.windows.filter((v) => v !== w), w];
  s.focusedId = w.id;
  if (inside({ x, y }, closeBox(w))) {
    s.windows = s.windows.filter((v) => v !== w);
    s.focusedId = s.windows.at(-1)?.id ?? null;
  } else if (y < w.y + TITLE_BAR_PX) {
    s.grab = { id: w.id, dx: x - w.x, dy: y - w.y };
  } else if (w.kind === 'lamp' && inside({ x, y }, lampButton(w))) {
    s.lampOn = !s.lampOn;
  }
  changed(s);
}

/** Applies mouse-control. Only the left button acts on windows; others move the pointer only. */
export function applyMouse(s: SimDesktopState, input: MouseControl): void {
  const { x, y } = toPx(input.x, input.y);
  movePointer(s, x, y);
  if (input.button !== 'left') return;
  if (input.action === 'down' || input.action === 'click') press(s, x, y);
  if (input.action === 'up' || input.action === 'click') s.grab = null;
}

/** Applies mouse-drag (a move with the button held: moves a grabbed window). */
export function applyDrag(s: SimDesktopState, input: MouseDrag): void {
  const { x, y } = toPx(input.x, input.y);
  movePointer(s, x, y);
}

/** Applies scroll-mouse: over Notes, scrolls its lines. */
export function applyScroll(s: SimDesktopState, input: ScrollMouse): void {
  const { x, y } = toPx(input.x, input.y);
  movePointer(s, x, y);
  const w = windowAt(s, x, y);
  if (w?.kind !== 'notes' || input.dy === 0) return;
  const lines = s.notes.split('\n').length;
  const next = Math.max(0, Math.min(lines - 1, s.notesScroll + input.dy));
  if (next !== s.notesScroll) {
    s.notesScroll = next;
    changed(s);
  }
}

/** Applies keyboard-control: text and keys go to Notes when it has the focus. */
export function applyKeyboard(s: SimDesktopState, input: KeyboardControl): void {
  const focused = s.windows.find((w) => w.id === s.focusedId);
  if (focused?.kind !== 'notes') return;
  let next = s.notes;
  if (input.action === 'text') next += input.text.replace(/\t/g, ' ');
  else if (input.modifiers.ctrl || input.modifiers.alt || input.modifiers.meta) return;
  else if (input.key === 'Backspace') next = [...next].slice(0, -1).join('');
  else if (input.key === 'Enter') next += '\n';
  else if ([...input.key].length === 1) next += input.key;
  else return;
  next = [...next].slice(-NOTES_MAX_CHARS).join('');
  if (next !== s.notes) {
    s.notes = next;
    changed(s);
  }
}

/** Closes a window by id; false when there is none. */
export function closeWindow(s: SimDesktopState, id: string): boolean {
  const w = s.windows.find((v) => v.id === id);
  if (!w) return false;
  s.windows = s.windows.filter((v) => v !== w);
  if (s.focusedId === id) s.focusedId = s.windows.at(-1)?.id ?? null;
  if (s.grab?.id === id) s.grab = null;
  changed(s);
  return true;
}
