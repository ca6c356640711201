/**
 * The remote desktop of one device at a time (spec §1 "control a remote desktop"; §2 stream modal; §3 Stream
 * remoteDesktop flag, windowInfo, isFullScreen, Live data openWindows; §7 mouse-control, mouse-drag,
 * scroll-mouse, keyboard-control, close-remote-window; §9 frame-rate interval 2000 ms).
 *
 * `desktop.open` → `open`, three regions:
 * - session: `active` invokes `desktopSession` (the desktop's stream: a recvonly peer connection negotiated
 *   with send-sdp for camera_id 'remote-desktop', stats every FRAME_RATE_INTERVAL_MS) — `connecting` until
 *   `session.started`, then `live`, where `input` (the input sender: mouse moves and drags throttled to
 *   100 ms, §9) is invoked and receives the view's input events. `session.failed` / `stream.ended` →
 *   `failed`; `desktop.retry` negotiates again.
 * - windows: `listing` invokes `windowList` (get-open-windows now and every OPEN_WINDOWS_REFRESH_MS; §3
 *   openWindows); `windows.close` → `closing` (close-remote-window), then listing again.
 * - keyboard: `released` ⇄ `captured` (the view captures keys while focused; Escape releases). Key events
 *   reach the device only while captured.
 * `view.fullScreen` records the §3 isFullScreen flag; `desktop.close` ends everything (→ `idle`).
 */
import { assign, fromCallback, fromPromise, sendTo, setup, stateIn } from 'xstate';
import type {
  KeyboardControl,
  MouseControl,
  MouseDrag,
  OpenWindow,
  OpenWindowsReply,
  ScrollMouse,
} from '../../src/protocol/remoteDesktop';
import type { StreamStats } from '../cameras/stream.machine';

/** Input of `desktopSession`: the device and the stream's callId (§3 Stream.callId). */
export interface DesktopSessionInput {
  deviceId: string;
  callId: string;
}

/** Input of `input` and `windowList`. */
export interface DesktopDeviceInput {
  deviceId: string;
}

/** Input events the view sends; the machine forwards them to the input sender while live. */
export type DesktopInputEvent =
  | { type: 'input.mouse'; payload: MouseControl }
  | { type: 'input.drag'; payload: MouseDrag }
  | { type: 'input.scroll'; payload: ScrollMouse }
  | { type: 'input.keyboard'; payload: KeyboardControl };

export type RemoteDesktopEvent =
  | { type: 'desktop.open'; deviceId: string; label: string }
  | { type: 'desktop.close' }
  | { type: 'desktop.retry' }
  | { type: 'session.started'; mediaStream: MediaStream; width: number; height: number }
  | { type: 'session.failed'; error: string }
  | { type: 'stream.ended'; error: string }
  | { type: 'stats.sample'; stats: StreamStats }
  | { type: 'windows.loaded'; reply: OpenWindowsReply }
  | { type: 'windows.failed'; message: string }
  | { type: 'windows.close'; windowId: string }
  | { type: 'input.failed'; message: string }
  | { type: 'keyboard.capture' }
  | { type: 'keyboard.release' }
  | { type: 'view.fullScreen'; on: boolean }
  | DesktopInputEvent;

export interface RemoteDesktopContext {
  deviceId: string | null;
  /** The device's label (§2 stream modal "shows the device label"). */
  label: string;
  /** Negotiations started; the callId is `desktop-<deviceId>-<run>`. */
  run: number;
  mediaStream: MediaStream | null;
  /** The stream's size, pixels (1280×720, §9). */
  size: { width: number; height: number } | null;
  error: string | null;
  /** §3 openWindows, bottom to top. */
  windows: OpenWindow[];
  backend: OpenWindowsReply['backend'] | null;
  windowsError: string | null;
  /** The window being closed (close-remote-window), else null. */
  closingId: string | null;
  /** Last stats sample (every FRAME_RATE_INTERVAL_MS). */
  stats: StreamStats | null;
  /** The last failed input command's message (shown until the next success or close). */
  inputError: string | null;
  /** §3 Stream.isFullScreen. */
  fullScreen: boolean;
}

const notProvided = (name: string) => {
  throw new Error(`remoteDesktop: actor ${name} not provided`);
};

/** The callId of a negotiation (§3 Stream.callId). */
export const desktopCallId = (deviceId: string, run: number): string => `desktop-${deviceId}-${run}`;

const closed: Omit<RemoteDesktopContext, 'run'> = {
  deviceId: null,
  label: '',
  mediaStream: null,
  size: null,
  error: null,
  windows: [],
  backend: null,
  windowsError: null,
  closingId: null,
  stats: null,
  inputError: null,
  fullScreen: false,
};

export const remoteDesktopMachine = setup({
  types: {
    context: {} as RemoteDesktopContext,
    events: {} as RemoteDesktopEvent,
  },
  actors: {
    /** The desktop's stream (see the header); reports session.started/failed, stream.ended, stats.sample. */
    desktopSession: fromCallback<RemoteDesktopEvent, DesktopSessionInput>(() =>
      notProvided('desktopSession'),
    ),
    /** Sends input commands (moves and drags throttled to MOUSE_MOVE_THROTTLE_MS); reports input.failed. */
    input: fromCallback<DesktopInputEvent, DesktopDeviceInput>(() => notProvided('input')),
    /** get-open-windows now and every OPEN_WINDOWS_REFRESH_MS; reports windows.loaded / windows.failed. */
    windowList: fromCallback<RemoteDesktopEvent, DesktopDeviceInput>(() => notProvided('windowList')),
    /** close-remote-window. */
    closeWindow: fromPromise<{ closed: boolean }, { deviceId: string; windowId: string }>(async () =>
      notProvided('closeWindow'),
    ),
  },
  actions: {
    openDevice: assign(({ context, event }) => {
      if (event.type !== 'desktop.open') return {};
      return { ...closed, deviceId: event.deviceId, label: event.label, run: context.run + 1 };
    }),
    reset: assign(({ context }) => ({ ...closed, run: context.run })),
    nextRun: assign({ run: ({ context }) => context.run + 1, error: null, mediaStream: null, stats: null }),
    setStarted: assign(({ event }) =>
      event.type === 'session.started'
        ? { mediaStream: event.mediaStream, size: { width: event.width, height: event.height }, error: null }
        : {},
    ),
    setFailed: assign(({ event }) =>
      event.type === 'session.failed' || event.type === 'stream.ended'
        ? { error: event.error, mediaStream: null, stats: null }
        : {},
    ),
    setStats: assign(({ event }) => (event.type === 'stats.sample' ? { stats: event.stats } : {})),
    setWindows: assign(({ event }) =>
      event.type === 'windows.loaded'
        ? { windows: event.reply.windows, backend: event.reply.backend, windowsError: null }
        : {},
    ),
    setWindowsError: assign(({ event }) =>
      event.type === 'windows.failed' ? { windowsError: event.message } : {},
    ),
    setClosing: assign(({ event }) => (event.type === 'windows.close' ? { closingId: event.windowId } : {})),
    clearClosing: assign({ closingId: null }),
    setCloseError: assign(({ event }) => {
      const error = (event as unknown as { error?: unknown }).error;
      return {
        closingId: null,
        windowsError: error instanceof Error ? error.message : 'The window could not be closed.',
      };
    }),
    setInputError: assign(({ event }) =>
      event.type === 'input.failed' ? { inputError: event.message } : {},
    ),
    setFullScreen: assign(({ event }) => (event.type === 'view.fullScreen' ? { fullScreen: event.on } : {})),
    forwardInput: sendTo('input', ({ event }) => event as DesktopInputEvent),
  },
  guards: {
    otherDevice: ({ context, event }) => event.type === 'desktop.open' && event.deviceId !== context.deviceId,
    keyboardCaptured: stateIn({ open: { keyboard: 'captured' } }),
  },
}).createMachine({
  id: 'remoteDesktop',
  context: { ...closed, run: 0 },
  initial: 'idle',
  states: {
    idle: {
      on: { 'desktop.open': { target: 'open', actions: 'openDevice' } },
    },
    open: {
      type: 'parallel',
      tags: ['open'],
      on: {
        'desktop.close': { target: 'idle', actions: 'reset' },
        'desktop.open': { guard: 'otherDevice', target: 'open', reenter: true, actions: 'openDevice' },
        'view.fullScreen': { actions: 'setFullScreen' },
        'input.failed': { actions: 'setInputError' },
      },
      states: {
        session: {
          initial: 'active',
          states: {
            active: {
              invoke: {
                id: 'session',
                src: 'desktopSession',
                input: ({ context }) => ({
                  deviceId: context.deviceId as string,
                  callId: desktopCallId(context.deviceId as string, context.run),
                }),
              },
              initial: 'connecting',
              on: {
                'session.failed': { target: 'failed', actions: 'setFailed' },
                'stream.ended': { target: 'failed', actions: 'setFailed' },
                'stats.sample': { actions: 'setStats' },
              },
              states: {
                connecting: {
                  tags: ['busy'],
                  on: { 'session.started': { target: 'live', actions: 'setStarted' } },
                },
                live: {
                  tags: ['live'],
                  invoke: {
                    id: 'input',
                    src: 'input',
                    input: ({ context }) => ({ deviceId: context.deviceId as string }),
                  },
                  on: {
                    'input.mouse': { actions: 'forwardInput' },
                    'input.drag': { actions: 'forwardInput' },
                    'input.scroll': { actions: 'forwardInput' },
                    'input.keyboard': { guard: 'keyboardCaptured', actions: 'forwardInput' },
                  },
                },
              },
            },
            failed: {
              tags: ['error'],
              on: { 'desktop.retry': { target: 'active', actions: 'nextRun' } },
            },
          },
        },
        windows: {
          initial: 'listing',
          states: {
            listing: {
              invoke: {
                id: 'windowList',
                src: 'windowList',
                input: ({ context }) => ({ deviceId: context.deviceId as string }),
              },
              on: {
                'windows.loaded': { actions: 'setWindows' },
                'windows.failed': { actions: 'setWindowsError' },
                'windows.close': { target: 'closing', actions: 'setClosing' },
              },
            },
            closing: {
              invoke: {
                src: 'closeWindow',
                input: ({ context }) => ({
                  deviceId: context.deviceId as string,
                  windowId: context.closingId as string,
                }),
                onDone: { target: 'listing', actions: 'clearClosing' },
                onError: { target: 'listing', actions: 'setCloseError' },
              },
            },
          },
        },
        keyboard: {
          initial: 'released',
          states: {
            released: { on: { 'keyboard.capture': 'captured' } },
            captured: { tags: ['captured'], on: { 'keyboard.release': 'released' } },
          },
        },
      },
    },
  },
});

export type RemoteDesktopRef = import('xstate').ActorRefFrom<typeof remoteDesktopMachine>;
