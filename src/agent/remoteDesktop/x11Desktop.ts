/**
 * The `host` desktop (issue 14): a real X display, `display` (e.g. ':0'; the agent's --display, else
 * DISPLAY). Picture: ffmpeg `x11grab` of the whole screen scaled to 1280×720 (§9) as raw I420 on a pipe,
 * cut into frames by the cameras' own assembler (backends/host/ffmpegCamera.ts createFrameAssembler), so it
 * goes out through the same feed and track path as a camera. Input and windows: `xdotool` (XTest for
 * input), one process per command, run one after the other so that input keeps its order.
 * Needs ffmpeg and xdotool on the device; without them (or without a display) every command answers
 * remote_desktop_unavailable with what is missing.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import type { ResolutionOption } from '../../protocol';
import { REMOTE_DESKTOP_CAMERA_ID, REMOTE_DESKTOP_ERROR_CODES } from '../../protocol/remoteDesktop';
import type { OpenWindow, OpenWindowsReply } from '../../protocol/remoteDesktop';
import { createFrameAssembler } from '../backends/host/ffmpegCamera';
import type { CameraDevice, CaptureHandle, FrameListener, I420Frame } from '../backends/types';
import { CommandError } from '../commands/errors';
import type { Logger } from '../log';
import { DESKTOP_RESOLUTION } from './simDesktop';
import type { DesktopDriver } from './types';
import { dragArgs, keyboardArgs, mouseArgs, scrollArgs } from './x11Input';

/** Longest an xdotool call may take, ms. */
const XDOTOOL_TIMEOUT_MS = 5_000;

/** ffmpeg arguments grabbing `display`'s screen (width×height) as raw I420 1280×720 at `fps`. */
export function x11grabArgs(
  display: string,
  screen: { width: number; height: number },
  fps: number,
  frames?: number,
): string[] {
  return [
    '-hide_banner', '-loglevel', 'error', '-nostdin',
    '-fflags', 'nobuffer', '-flags', 'low_delay',
    '-f', 'x11grab', '-draw_mouse', '1', '-framerate', String(fps),
    '-video_size', `${screen.width}x${screen.height}`, '-i', `${display}+0,0`,
    ...(frames ? ['-frames:v', String(frames)] : []),
    '-an', '-f', 'rawvideo', '-pix_fmt', 'yuv420p',
    '-s', `${DESKTOP_RESOLUTION.width}x${DESKTOP_RESOLUTION.height}`,
    'pipe:1',
  ]; // prettier-ignore
}

/** Parses `xdotool getwindowgeometry` output ("Position: 100,100 (screen: 0)", "Geometry: 300x400"). */
export function parseGeometry(text: string): { x: number; y: number; width: number; height: number } | null {
  const pos = /Position:\s*(-?\d+),(-?\d+)/.exec(text);
  const size = /Geometry:\s*(\d+)x(\d+)/.exec(text);
  if (!pos || !size) return null;
  return { x: Number(pos[1]), y: Number(pos[2]), width: Number(size[1]), height: Number(size[2]) };
}

export interface X11DesktopOptions {
  /** X display name, e.g. ':0' or ':99'. Undefined: unavailable. */
  display: string | undefined;
  logger: Logger;
}

export function createX11Desktop({ display, logger }: X11DesktopOptions): DesktopDriver {
  const children = new Set<ChildProcess>();
  let screen: { width: number; height: number } | null = null;
  let queue: Promise<unknown> = Promise.resolve();

  const unavailable = (why: string): never => {
    throw new CommandError(REMOTE_DESKTOP_ERROR_CODES.unavailable, `Remote desktop is not available: ${why}`);
  };

  /** Runs xdotool with `args` on the display; resolves with its stdout. */
  const xdotool = (args: string[]): Promise<string> => {
    if (!display)
      return Promise.resolve(unavailable('the agent has no display (start it with --display or DISPLAY)'));
    return new Promise((resolve, reject) => {
      execFile('xdotool', args, { env: { ...process.env, DISPLAY: display }, timeout: XDOTOOL_TIMEOUT_MS }, (err, stdout, stderr) => {
        if (!err) return resolve(stdout);
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return reject(new CommandError(REMOTE_DESKTOP_ERROR_CODES.unavailable, 'Remote desktop is not available: xdotool is not installed on the device'));
        reject(new CommandError(REMOTE_DESKTOP_ERROR_CODES.inputFailed, `xdotool failed: ${(stderr || err.message).trim().slice(0, 300)}`));
      });
    }); // prettier-ignore
  };

  /** Runs input one command after another. */
  const serially = <T>(op: () => Promise<T>): Promise<T> => {
    const next = queue.then(op, op);
    queue = next.catch(() => undefined);
    return next;
  };

  const screenSize = async () => {
    if (screen) return screen;
    const [w, h] = (await xdotool(['getdisplaygeometry'])).trim().split(/\s+/).map(Number);
    if (!w || !h) unavailable(`cannot read the size of display ${display}`);
    screen = { width: w as number, height: h as number };
    return screen;
  };

  const input = (build: (s: { width: number; height: number }) => string[]) =>
    serially(async () => {
      await xdotool(build(await screenSize()));
    });

  const capture = (
    onFrame: FrameListener,
    onError?: (err: Error) => void,
    frames?: number,
  ): { child: ChildProcess; ready: Promise<void> } => {
    if (!display) unavailable('the agent has no display (start it with --display or DISPLAY)');
    let stderr = '';
    let got = false;
    let settle!: { resolve: () => void; reject: (e: Error) => void };
    const ready = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));
    ready.catch(() => undefined);
    const child = spawn('ffmpeg', x11grabArgs(display as string, screen ?? { width: 1280, height: 720 }, DESKTOP_RESOLUTION.fps, frames), { stdio: ['ignore', 'pipe', 'pipe'] }); // prettier-ignore
    children.add(child);
    child.stdout?.on('data', createFrameAssembler(DESKTOP_RESOLUTION.width, DESKTOP_RESOLUTION.height, (f) => {
      if (!got) { got = true; settle.resolve(); }
      onFrame(f);
    })); // prettier-ignore
    child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2_000)));
    const fail = (why: string) => {
      const e = new Error(`Could not capture display ${display}: ${why}`);
      if (!got) settle.reject(e);
      onError?.(e);
    };
    child.on('error', (err) => fail(err.message));
    child.on('exit', (code, signal) => {
      children.delete(child);
      if (!stopped.has(child)) fail(stderr.trim().split('\n').at(-1) || `ffmpeg exited (${signal ?? code})`);
    });
    return { child, ready };
  };
  const stopped = new WeakSet<ChildProcess>();
  const stop = (c: ChildProcess) => {
    stopped.add(c);
    if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  };

  const camera: CameraDevice = {
    cameraId: REMOTE_DESKTOP_CAMERA_ID,
    name: `Remote desktop ${display ?? ''}`.trim(),
    uniqueId: `remote-desktop-x11${display ?? ''}`,
    cameraType: 'physical',
    resolutions: [DESKTOP_RESOLUTION],
    defaultResolution: DESKTOP_RESOLUTION,
    needsDenoising: false,
    startCapture(
      _r: ResolutionOption,
      onFrame: FrameListener,
      onError?: (err: Error) => void,
    ): CaptureHandle {
      // The screen size is read first (xdotool) so x11grab grabs the whole screen.
      let child: ChildProcess | null = null;
      let ended = false;
      const ready = screenSize().then(() => {
        if (ended) throw new Error('capture stopped');
        const c = capture(onFrame, onError);
        child = c.child;
        return c.ready;
      });
      ready.catch(() => undefined);
      return {
        ready: ready.catch((err: unknown) => {
          throw new Error(err instanceof Error ? err.message : String(err));
        }),
        stop: () => {
          ended = true;
          if (child) stop(child);
        },
      };
    },
    async grabFrame(): Promise<I420Frame> {
      await screenSize();
      return new Promise((resolve, reject) => {
        const c = capture(
          (f) => {
            resolve({ width: f.width, height: f.height, data: f.data.slice() });
            stop(c.child);
          },
          reject,
          1,
        );
      });
    },
  };

  return {
    backend: 'x11',
    camera,
    mouse: (m) => input((s) => mouseArgs(m, s)),
    drag: (d) => input((s) => dragArgs(d, s)),
    scroll: (d) => input((s) => scrollArgs(d, s)),
    keyboard: (k) => input(() => keyboardArgs(k)),
    async windows(): Promise<OpenWindowsReply> {
      const s = await screenSize();
      let ids: string[] = [];
      try {
        ids = (await xdotool(['search', '--onlyvisible', '--name', '.'])).split(/\s+/).filter(Boolean);
      } catch (err) {
        // xdotool search exits 1 when nothing matches.
        if (!(err instanceof CommandError) || err.code !== REMOTE_DESKTOP_ERROR_CODES.inputFailed) throw err;
      }
      const focus = (await xdotool(['getwindowfocus']).catch(() => '')).trim();
      const windows: OpenWindow[] = [];
      for (const id of ids.slice(0, 200)) {
        try {
          const title = (await xdotool(['getwindowname', id])).trim();
          const g = parseGeometry(await xdotool(['getwindowgeometry', id]));
          if (!g) continue;
          windows.push({ id, title: title.slice(0, 500), x: g.x / s.width, y: g.y / s.height, width: g.width / s.width, height: g.height / s.height, focused: id === focus }); // prettier-ignore
        } catch {
          // the window went away meanwhile
        }
      }
      return { backend: 'x11', screen: s, windows };
    },
    async closeWindow(id) {
      if (!/^\d{1,12}$/.test(id)) return false;
      const listed = (await this.windows()).windows.some((w) => w.id === id);
      if (!listed) return false;
      await serially(() => xdotool(['windowclose', id]));
      logger.info(`remote desktop: window ${id} closed`);
      return true;
    },
    close: () => {
      for (const c of children) stop(c);
    },
  };
}
