/**
 * Input mapping for a real X display (issue 14 `host` backend): §7 remote control commands → xdotool
 * argument lists (pure; x11Desktop.ts runs them). Positions are fractions of the screen (protocol), turned
 * into the display's pixels here. Keys: the browser's KeyboardEvent.key → X keysym names.
 */
import type {
  KeyboardControl,
  Modifiers,
  MouseButton,
  MouseControl,
  MouseDrag,
  ScrollMouse,
} from '../../protocol/remoteDesktop';

/** X button numbers: 1 left, 2 middle, 3 right; wheel 4 up, 5 down, 6 left, 7 right. */
const BUTTON: Record<MouseButton, string> = { left: '1', middle: '2', right: '3' };

/** KeyboardEvent.key names → X keysym names. */
const KEYSYMS: Record<string, string> = {
  Enter: 'Return',
  Backspace: 'BackSpace',
  Tab: 'Tab',
  Escape: 'Escape',
  Delete: 'Delete',
  Insert: 'Insert',
  Home: 'Home',
  End: 'End',
  PageUp: 'Prior',
  PageDown: 'Next',
  ArrowLeft: 'Left',
  ArrowRight: 'Right',
  ArrowUp: 'Up',
  ArrowDown: 'Down',
  ' ': 'space',
};

/** Pixel position on a width×height display of a fraction point (clamped to the screen). */
export function toPixels(
  p: { x: number; y: number },
  screen: { width: number; height: number },
): { x: number; y: number } {
  return {
    x: Math.min(screen.width - 1, Math.max(0, Math.round(p.x * (screen.width - 1)))),
    y: Math.min(screen.height - 1, Math.max(0, Math.round(p.y * (screen.height - 1)))),
  };
}

const move = (p: { x: number; y: number }, screen: { width: number; height: number }) => {
  const px = toPixels(p, screen);
  return ['mousemove', String(px.x), String(px.y)];
};

/** xdotool arguments of mouse-control. */
export function mouseArgs(input: MouseControl, screen: { width: number; height: number }): string[] {
  const b = BUTTON[input.button];
  const tail = input.action === 'move' ? [] : input.action === 'down' ? ['mousedown', b] : input.action === 'up' ? ['mouseup', b] : ['click', b]; // prettier-ignore
  return [...move(input, screen), ...tail];
}

/** xdotool arguments of mouse-drag (the button is already held: a move). */
export function dragArgs(input: MouseDrag, screen: { width: number; height: number }): string[] {
  return move(input, screen);
}

/** xdotool arguments of scroll-mouse (wheel buttons clicked |dy| and |dx| times). */
export function scrollArgs(input: ScrollMouse, screen: { width: number; height: number }): string[] {
  const args = move(input, screen);
  if (input.dy) args.push('click', '--repeat', String(Math.abs(input.dy)), input.dy > 0 ? '5' : '4');
  if (input.dx) args.push('click', '--repeat', String(Math.abs(input.dx)), input.dx > 0 ? '7' : '6');
  return args;
}

/** The X keysym name of a KeyboardEvent.key (one character: itself; F1…F12 as they are). */
export function keysym(key: string): string {
  return KEYSYMS[key] ?? key;
}

const modifierNames = (m: Modifiers): string[] =>
  [m.ctrl && 'ctrl', m.alt && 'alt', m.shift && 'shift', m.meta && 'super'].filter((v): v is string => !!v);

/**
 * xdotool arguments of keyboard-control. A printable character without ctrl/alt/meta is typed (`type`, so
 * 'A' or '@' come out as such on any keyboard layout); everything else is a key chord (`key ctrl+c`).
 * `--` ends options, so text starting with '-' is typed as it is.
 */
export function keyboardArgs(input: KeyboardControl): string[] {
  if (input.action === 'text') return ['type', '--delay', '0', '--', input.text];
  const m = input.modifiers;
  const single = [...input.key].length === 1;
  if (single && !m.ctrl && !m.alt && !m.meta) return ['type', '--delay', '0', '--', input.key];
  const chord = [...modifierNames(single ? { ...m, shift: false } : m), keysym(input.key)].join('+');
  return ['key', '--', chord];
}
