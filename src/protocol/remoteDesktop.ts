/**
 * Remote desktop (spec §1 "control a remote desktop"; §3 Live data per device `openWindows`, Stream
 * `remoteDesktop` flag, `windowInfo`, `isFullScreen`; §7 "Logs and remote control": keyboard-control,
 * scroll-mouse, mouse-drag, mouse-control, close-remote-window; §9 "Mouse move throttle 100 ms. Remote screen
 * aspect 1280x720. Frame-rate interval 2000 ms. Resize throttle 200 ms").
 *
 * The desktop's picture is a stream like a camera's: `send-sdp` with camera_id REMOTE_DESKTOP_CAMERA_ID
 * answers with a video track of the device's screen (1280×720). Input goes over the device's data channel
 * with the commands below. Positions are fractions of the remote screen (x 0 = left edge … 1 = right edge,
 * y 0 = top … 1 = bottom), so neither end needs the other's pixel size. Reply shapes are ours ("not shown").
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';

/** The stream source id of the device's desktop in send-sdp (never a camera id of a real camera). */
export const REMOTE_DESKTOP_CAMERA_ID = 'remote-desktop';
/** §9 Remote screen aspect 1280x720: the desktop stream's size, pixels. */
export const REMOTE_SCREEN_WIDTH = 1280;
export const REMOTE_SCREEN_HEIGHT = 720;
/** §9 Mouse move throttle 100 ms: at most one mouse move (or drag move) command per 100 ms. */
export const MOUSE_MOVE_THROTTLE_MS = 100;
/** §9 Resize throttle 200 ms: the view's size is recomputed at most every 200 ms while its box changes. */
export const RESIZE_THROTTLE_MS = 200;
/** How often the console asks the window list (openWindows) while a desktop is shown, ms (ours). */
export const OPEN_WINDOWS_REFRESH_MS = 2_000;
/** Frame rate of the desktop stream, frames per second (ours: a desktop changes little; input feels live). */
export const REMOTE_DESKTOP_FPS = 20;

/** A position on the remote screen as fractions of its width and height (0…1). */
const Fraction = z.number().min(0).max(1);
export const ScreenPoint = z.object({ x: Fraction, y: Fraction });
export type ScreenPoint = z.infer<typeof ScreenPoint>;

export const MouseButton = z.enum(['left', 'middle', 'right']);
export type MouseButton = z.infer<typeof MouseButton>;

/** Modifier keys held with a key or a click. */
export const Modifiers = z
  .object({
    ctrl: z.boolean().default(false),
    alt: z.boolean().default(false),
    shift: z.boolean().default(false),
    meta: z.boolean().default(false),
  })
  .strict();
export type Modifiers = z.output<typeof Modifiers>;

/**
 * mouse-control: `move` the pointer; press (`down`), release (`up`) or `click` (`down` then `up`) a button at
 * the point (the pointer moves there first).
 */
export const MouseControl = ScreenPoint.extend({
  action: z.enum(['move', 'down', 'up', 'click']),
  button: MouseButton.default('left'),
}).strict();
export type MouseControl = z.output<typeof MouseControl>;

/** mouse-drag: the pointer moves to the point with `button` held (between a `down` and an `up`). */
export const MouseDrag = ScreenPoint.extend({ button: MouseButton.default('left') }).strict();
export type MouseDrag = z.output<typeof MouseDrag>;

/**
 * scroll-mouse: wheel steps at the point; `dy` > 0 scrolls down, `dx` > 0 right (whole notches, at most 20
 * each way per command).
 */
export const ScrollMouse = ScreenPoint.extend({
  dx: z.number().int().min(-20).max(20).default(0),
  dy: z.number().int().min(-20).max(20).default(0),
}).strict();
export type ScrollMouse = z.output<typeof ScrollMouse>;

/**
 * A key name as the browser's KeyboardEvent.key gives it: one printable character ('a', 'A', '7', ' ') or a
 * named key ('Enter', 'Backspace', 'ArrowLeft', 'F5'…; REMOTE_KEY_NAMES). Others answer invalid_payload.
 */
export const REMOTE_KEY_NAMES = [
  'Enter',
  'Backspace',
  'Tab',
  'Escape',
  'Delete',
  'Insert',
  'Home',
  'End',
  'PageUp',
  'PageDown',
  'ArrowLeft',
  'ArrowRight',
  'ArrowUp',
  'ArrowDown',
  'F1',
  'F2',
  'F3',
  'F4',
  'F5',
  'F6',
  'F7',
  'F8',
  'F9',
  'F10',
  'F11',
  'F12',
] as const;
export const RemoteKey = z
  .string()
  .min(1)
  .max(12)
  .refine((k) => [...k].length === 1 || (REMOTE_KEY_NAMES as readonly string[]).includes(k), {
    message: 'Unknown key: one character or a named key (Enter, Backspace, ArrowLeft, F1…)',
  });

/**
 * keyboard-control: `key` presses one key with modifiers; `text` types a string (at most 1,000 characters;
 * control characters other than newline and tab are refused).
 */
export const KeyboardControl = z.discriminatedUnion('action', [
  z.object({ action: z.literal('key'), key: RemoteKey, modifiers: Modifiers.prefault({}) }).strict(),
  z
    .object({
      action: z.literal('text'),
      text: z
        .string()
        .min(1)
        .max(1_000)
        .refine(
          (t) =>
            ![...t].some((c) => {
              const n = c.charCodeAt(0);
              return (n < 32 && c !== '\n' && c !== '\t') || n === 127;
            }),
          {
            message: 'Text must not hold control characters',
          },
        ),
    })
    .strict(),
]);
export type KeyboardControl = z.output<typeof KeyboardControl>;

/** One top-level window of the remote desktop (§3 openWindows). Geometry in fractions of the screen. */
export const OpenWindow = z.object({
  /** The window's id on the device (X11: its window id in decimal; sim: 'w1'…). */
  id: z.string().max(100),
  title: z.string().max(500),
  x: z.number(),
  y: z.number(),
  width: z.number(),
  height: z.number(),
  /** Has the keyboard focus. */
  focused: z.boolean(),
});
export type OpenWindow = z.infer<typeof OpenWindow>;

/** §3 openWindows: the desktop's windows, bottom to top, and its screen size in pixels. */
export const OpenWindowsReply = z.object({
  windows: z.array(OpenWindow).max(500),
  screen: z.object({ width: z.number().int(), height: z.number().int() }),
  /** 'x11' (a real display, host backend) or 'sim' (the simulated desktop). */
  backend: z.enum(['x11', 'sim']),
});
export type OpenWindowsReply = z.infer<typeof OpenWindowsReply>;

const Done = z.object({ ok: z.literal(true) });

/** Error codes of the remote desktop commands (CommandError codes). */
export const REMOTE_DESKTOP_ERROR_CODES = {
  /** No display to control (host without DISPLAY or X server, xdotool missing). */
  unavailable: 'remote_desktop_unavailable',
  /** close-remote-window: no such window. */
  noWindow: 'window_not_found',
  /** The input tool failed (xdotool's message). */
  inputFailed: 'input_failed',
} as const;

export const remoteDesktopCommands = defineCommands({
  /** §7 mouse-control: pointer move, press, release or click at a point. */
  'mouse-control': { request: MouseControl, reply: Done },
  /** §7 mouse-drag: pointer move with a button held. */
  'mouse-drag': { request: MouseDrag, reply: Done },
  /** §7 scroll-mouse: wheel notches at a point. */
  'scroll-mouse': { request: ScrollMouse, reply: Done },
  /** §7 keyboard-control: a key (with modifiers) or typed text. */
  'keyboard-control': { request: KeyboardControl, reply: Done },
  /** §7 close-remote-window: asks a window to close (X11: WM_DELETE / destroy). closed=false when gone already. */
  'close-remote-window': {
    request: z.object({ window_id: z.string().min(1).max(100) }).strict(),
    reply: z.object({ closed: z.boolean() }),
  },
  /** §3 openWindows (ours as a command): the desktop's windows now. */
  'get-open-windows': { request: Empty, reply: OpenWindowsReply },
});
