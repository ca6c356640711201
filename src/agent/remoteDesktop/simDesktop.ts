/**
 * The `sim` desktop (issue 14 "sim backend: a synthetic desktop with windows that react to clicks and
 * typing"): simModel.ts's state drawn into 1280×720 I420 frames (§9 remote screen aspect). A change is drawn
 * and sent at once (input → picture without waiting for the next tick); otherwise the last frame is sent
 * again every 1/REMOTE_DESKTOP_FPS s so the track stays alive.
 */
import {
  REMOTE_DESKTOP_CAMERA_ID,
  REMOTE_DESKTOP_FPS,
  REMOTE_SCREEN_HEIGHT,
  REMOTE_SCREEN_WIDTH,
} from '../../protocol/remoteDesktop';
import type { ResolutionOption } from '../../protocol';
import type { OpenWindowsReply } from '../../protocol/remoteDesktop';
import { PIXEL_FORMAT } from '../backends/resolutions';
import { fillRect } from '../backends/sim/i420';
import { allocI420 } from '../backends/types';
import type { CameraDevice, CaptureHandle, FrameListener, I420Frame } from '../backends/types';
import { drawGlyphs, glyphAdvance, lineHeight } from './font';
import {
  applyDrag,
  applyKeyboard,
  applyMouse,
  applyScroll,
  closeBox,
  closeWindow,
  initialDesktop,
  lampButton,
  lampRect,
  SIM_SCREEN,
  TITLE_BAR_PX,
  type SimDesktopState,
  type SimWindow,
} from './simModel';
import type { DesktopDriver } from './types';

/** The desktop stream's one resolution option: 1280×720 at REMOTE_DESKTOP_FPS. */
export const DESKTOP_RESOLUTION: ResolutionOption = {
  pixel_format: PIXEL_FORMAT,
  width: REMOTE_SCREEN_WIDTH,
  height: REMOTE_SCREEN_HEIGHT,
  fps: REMOTE_DESKTOP_FPS,
};

type Yuv = readonly [number, number, number];
/** Colours (BT.601 YUV). */
const C = {
  desktop: [90, 150, 64],
  body: [228, 128, 128],
  titleFocused: [88, 190, 94],
  titleIdle: [150, 128, 128],
  close: [95, 103, 203],
  field: [250, 128, 128],
  lampOff: [80, 128, 128],
  lampOn: [202, 36, 162],
  button: [109, 112, 93],
  pointerEdge: [16, 128, 128],
  pointer: [250, 128, 128],
} satisfies Record<string, Yuv>;

const rect = (f: I420Frame, r: { x: number; y: number; width: number; height: number }, c: Yuv) =>
  fillRect(f, r.x, r.y, r.width, r.height, c[0], c[1], c[2]);

/** Draws the whole desktop into `f` (1280×720). */
export function drawDesktop(f: I420Frame, s: SimDesktopState): void {
  rect(f, { x: 0, y: 0, width: f.width, height: f.height }, C.desktop);
  for (const w of s.windows) drawWindow(f, s, w);
  // The pointer: a small white block with a dark edge.
  rect(f, { x: s.pointer.x - 1, y: s.pointer.y - 1, width: 12, height: 18 }, C.pointerEdge);
  rect(f, { x: s.pointer.x + 1, y: s.pointer.y + 1, width: 8, height: 14 }, C.pointer);
}

function drawWindow(f: I420Frame, s: SimDesktopState, w: SimWindow): void {
  rect(f, { x: w.x - 1, y: w.y - 1, width: w.width + 2, height: w.height + 2 }, C.pointerEdge);
  rect(f, w, C.body);
  const focused = s.focusedId === w.id;
  rect(f, { x: w.x, y: w.y, width: w.width, height: TITLE_BAR_PX }, focused ? C.titleFocused : C.titleIdle);
  drawGlyphs(f, w.title, w.x + 10, w.y + 7, 2, 250, w.x + w.width - 30);
  const box = closeBox(w);
  rect(f, box, C.close);
  drawGlyphs(f, 'X', box.x + 5, box.y + 3, 2, 250);
  const right = w.x + w.width - 10;
  if (w.kind === 'notes') {
    const field = {
      x: w.x + 10,
      y: w.y + TITLE_BAR_PX + 10,
      width: w.width - 20,
      height: w.height - TITLE_BAR_PX - 20,
    };
    rect(f, field, C.field);
    const scale = 3;
    const perLine = Math.max(1, Math.floor((field.width - 16) / glyphAdvance(scale)));
    const lines = wrap(s.notes, perLine).slice(s.notesScroll);
    const visible = Math.floor((field.height - 16) / lineHeight(scale));
    lines.slice(0, visible).forEach((line, i) => {
      drawGlyphs(f, line, field.x + 8, field.y + 8 + i * lineHeight(scale), scale, 24, right);
    });
    if (focused) {
      const last = lines.length - 1;
      if (last < visible) {
        const cx = field.x + 8 + [...(lines[last] ?? '')].length * glyphAdvance(scale);
        rect(
          f,
          { x: cx, y: field.y + 8 + last * lineHeight(scale), width: 3, height: 7 * scale },
          C.pointerEdge,
        );
      }
    }
  } else if (w.kind === 'lamp') {
    rect(f, lampRect(w), s.lampOn ? C.lampOn : C.lampOff);
    const b = lampButton(w);
    rect(f, b, C.button);
    drawGlyphs(f, 'TOGGLE', b.x + 44, b.y + 15, 2, 250);
  } else {
    drawGlyphs(f, 'EDGE SIM DESKTOP', w.x + 20, w.y + TITLE_BAR_PX + 30, 3, 24, right);
    drawGlyphs(f, 'CLICK, DRAG AND TYPE', w.x + 20, w.y + TITLE_BAR_PX + 80, 2, 60, right);
  }
}

/** Splits text into lines of at most `perLine` characters (hard breaks at '\n'). */
export function wrap(text: string, perLine: number): string[] {
  const out: string[] = [];
  for (const para of text.split('\n')) {
    const chars = [...para];
    if (chars.length === 0) out.push('');
    for (let i = 0; i < chars.length; i += perLine) out.push(chars.slice(i, i + perLine).join(''));
  }
  return out;
}

/** The simulated desktop: its state, its picture and its input. */
export function createSimDesktop(): DesktopDriver & { readonly state: SimDesktopState } {
  const state = initialDesktop();
  /** Running captures: each is told of a change at once. */
  const captures = new Set<() => void>();
  const afterInput = () => {
    for (const push of captures) push();
  };

  const camera: CameraDevice = {
    cameraId: REMOTE_DESKTOP_CAMERA_ID,
    name: 'Remote desktop (simulated)',
    uniqueId: 'remote-desktop-sim',
    cameraType: 'physical',
    resolutions: [DESKTOP_RESOLUTION],
    defaultResolution: DESKTOP_RESOLUTION,
    needsDenoising: false,
    startCapture(_resolution: ResolutionOption, onFrame: FrameListener): CaptureHandle {
      const frame = allocI420(SIM_SCREEN.width, SIM_SCREEN.height);
      let drawn = -1;
      const push = () => {
        if (drawn !== state.version) {
          drawDesktop(frame, state);
          drawn = state.version;
        }
        onFrame(frame);
      };
      const pushNow = () => {
        if (drawn !== state.version) push();
      };
      captures.add(pushNow);
      push();
      const timer = setInterval(push, 1000 / DESKTOP_RESOLUTION.fps);
      return {
        stop: () => {
          clearInterval(timer);
          captures.delete(pushNow);
        },
      };
    },
    async grabFrame(): Promise<I420Frame> {
      const frame = allocI420(SIM_SCREEN.width, SIM_SCREEN.height);
      drawDesktop(frame, state);
      return frame;
    },
  };

  const act = async (fn: () => void) => {
    fn();
    afterInput();
  };

  return {
    backend: 'sim',
    state,
    camera,
    mouse: (input) => act(() => applyMouse(state, input)),
    drag: (input) => act(() => applyDrag(state, input)),
    scroll: (input) => act(() => applyScroll(state, input)),
    keyboard: (input) => act(() => applyKeyboard(state, input)),
    async windows(): Promise<OpenWindowsReply> {
      return {
        backend: 'sim',
        screen: { ...SIM_SCREEN },
        windows: state.windows.map((w) => ({
          id: w.id,
          title: w.title,
          x: w.x / SIM_SCREEN.width,
          y: w.y / SIM_SCREEN.height,
          width: w.width / SIM_SCREEN.width,
          height: w.height / SIM_SCREEN.height,
          focused: state.focusedId === w.id,
        })),
      };
    },
    async closeWindow(id) {
      const closed = closeWindow(state, id);
      afterInput();
      return closed;
    },
    close: () => captures.clear(),
  };
}
