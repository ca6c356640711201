/**
 * One demo AI application's page — issue 14; (spec §2 /nanoowl, /llava, /speed_application, /ibb; §5 "Opening a
 * camera stream requires the device to be connected", "Chat demo ignores empty messages"; §8 "Could not get
 * an answer from the device"). The same flow for every app, with the app's own work:
 *
 *   idle → app.open → loadingDevices → choosing → device.pick → connecting (link open, camera-list,
 *   demo-apps-info) → ready, the first camera picked; `ready` runs two regions:
 *   - video: the camera's live stream (liveCamera: starting → playing | failed; camera.pick restarts it);
 *   - work, by app:
 *     nanoowl: prompt.set (non-empty) → detecting (detectLoop polls the boxes; detect.result) ⇄ prompt.clear;
 *     llava:   chat.send (non-empty, §5) → answering (askLlava: chat.token… chat.done | chat.failed) → idle;
 *     speed:   lines.set / distance.set; speed.start (both lines, distance > 0) → measuring (measureLoop:
 *              speed.result merged by track and time) → speed.stop;
 *     ibb:     city.start → observing (observeLoop: city.result) → city.stop.
 *   An app the device's engine cannot run (`available: false`) never starts its work; the page says why.
 *
 * Pure: the actors are provided (src/console/features/demoApps/actors.ts). `mediaStream` is the stream the
 * video shows (opaque here).
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type {
  ChatMessage,
  CitySighting,
  DemoAppName,
  DemoEngine,
  FrameLine,
  OwlDetection,
  SpeedPass,
} from '../../src/protocol/demoApps';

export interface DemoDevice {
  device_id: string;
  label: string;
}
export interface DemoCamera {
  camera_id: string;
  name: string;
}

/** Output of `connectDevice`: the device's cameras and which engine answers each app. */
export interface DeviceFacts {
  cameras: DemoCamera[];
  engines: DemoEngine[];
}

export interface OwlResult {
  at: number;
  queries: string[];
  detections: OwlDetection[];
  engine: 'sim' | 'host';
  model: string;
}

export interface DemoAppContext {
  app: DemoAppName;
  devices: DemoDevice[];
  deviceId: string | null;
  cameras: DemoCamera[];
  cameraId: string | null;
  engines: DemoEngine[];
  mediaStream: object | null;
  videoError: string | null;
  error: string | null;
  /** NanoOWL. */
  prompt: string;
  owl: OwlResult | null;
  /** LLaVA: the conversation, and the answer streaming in. */
  messages: ChatMessage[];
  partial: string;
  /** Speed: the two lines, the distance between them (m), when measuring started, the passes. */
  lineA: FrameLine | null;
  lineB: FrameLine | null;
  distanceM: number;
  since: number | null;
  passes: SpeedPass[];
  /** IBB. */
  sightings: CitySighting[];
}

export type DemoAppEvent =
  | { type: 'app.open' }
  | { type: 'app.retry' }
  | { type: 'device.pick'; deviceId: string }
  | { type: 'camera.pick'; cameraId: string }
  | { type: 'camera.playing'; mediaStream: object }
  | { type: 'camera.failed'; error: string }
  | { type: 'prompt.set'; prompt: string }
  | { type: 'prompt.clear' }
  | { type: 'detect.result'; result: OwlResult }
  | { type: 'work.failed'; error: string }
  | { type: 'chat.send'; text: string }
  | { type: 'chat.token'; token: string }
  | { type: 'chat.done'; answer: string }
  | { type: 'chat.clear' }
  | { type: 'lines.set'; lineA: FrameLine | null; lineB: FrameLine | null }
  | { type: 'distance.set'; distanceM: number }
  | { type: 'speed.start'; at: number }
  | { type: 'speed.result'; passes: SpeedPass[] }
  | { type: 'speed.stop' }
  | { type: 'city.start'; at: number }
  | { type: 'city.result'; sightings: CitySighting[] }
  | { type: 'city.stop' };

export interface LiveCameraInput {
  deviceId: string;
  cameraId: string;
  cameraName: string;
}
export interface DetectLoopInput {
  deviceId: string;
  cameraId: string;
  prompt: string;
}
export interface AskInput {
  deviceId: string;
  cameraId: string;
  messages: ChatMessage[];
}
export interface MeasureInput {
  deviceId: string;
  cameraId: string;
  since: number;
  lineA: FrameLine;
  lineB: FrameLine;
  distanceM: number;
}
export interface ObserveInput {
  deviceId: string;
  cameraId: string;
  since: number;
}

/** Merges passes by (track, first crossing): a poll's window overlaps the last one. Sorted by completion. */
export function mergePasses(known: readonly SpeedPass[], fresh: readonly SpeedPass[]): SpeedPass[] {
  const byKey = new Map(known.map((p) => [`${p.track_id}:${p.t_first}`, p]));
  for (const p of fresh) byKey.set(`${p.track_id}:${p.t_first}`, p);
  return [...byKey.values()].sort((a, b) => a.t_second - b.t_second).slice(-500);
}

const notProvided = (name: string) => {
  throw new Error(`demoApps: ${name} is not provided`);
};

export const demoAppMachine = setup({
  types: {
    context: {} as DemoAppContext,
    events: {} as DemoAppEvent,
    input: {} as { app: DemoAppName },
  },
  actors: {
    loadDevices: fromPromise<DemoDevice[]>(async () => notProvided('loadDevices')),
    connectDevice: fromPromise<DeviceFacts, { deviceId: string }>(async () => notProvided('connectDevice')),
    liveCamera: fromCallback<DemoAppEvent, LiveCameraInput>(() => notProvided('liveCamera')),
    detectLoop: fromCallback<DemoAppEvent, DetectLoopInput>(() => notProvided('detectLoop')),
    askLlava: fromCallback<DemoAppEvent, AskInput>(() => notProvided('askLlava')),
    measureLoop: fromCallback<DemoAppEvent, MeasureInput>(() => notProvided('measureLoop')),
    observeLoop: fromCallback<DemoAppEvent, ObserveInput>(() => notProvided('observeLoop')),
  },
  guards: {
    /** The page's app, answered by the device's engine, and a non-empty prompt. */
    promptFilled: ({ context, event }) =>
      runs(context, 'nanoowl') && event.type === 'prompt.set' && event.prompt.trim().length > 0,
    // §5 "Chat demo ignores empty messages".
    messageFilled: ({ context, event }) =>
      runs(context, 'llava') && event.type === 'chat.send' && event.text.trim().length > 0,
    linesReady: ({ context }) =>
      runs(context, 'speed') && !!context.lineA && !!context.lineB && context.distanceM > 0,
    cityReady: ({ context }) => runs(context, 'ibb'),
    knownCamera: ({ context, event }) =>
      event.type === 'camera.pick' && context.cameras.some((c) => c.camera_id === event.cameraId),
  },
}).createMachine({
  id: 'demoApp',
  context: ({ input }) => ({
    app: input.app,
    devices: [],
    deviceId: null,
    cameras: [],
    cameraId: null,
    engines: [],
    mediaStream: null,
    videoError: null,
    error: null,
    prompt: '',
    owl: null,
    messages: [],
    partial: '',
    lineA: null,
    lineB: null,
    distanceM: 10,
    since: null,
    passes: [],
    sightings: [],
  }),
  initial: 'idle',
  states: {
    idle: { on: { 'app.open': 'loadingDevices' } },
    loadingDevices: {
      invoke: {
        src: 'loadDevices',
        onDone: {
          target: 'choosing',
          actions: assign({ devices: ({ event }) => event.output, error: null }),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
      },
    },
    failed: { on: { 'app.retry': 'loadingDevices' } },
    choosing: {},
    connecting: {
      invoke: {
        src: 'connectDevice',
        input: ({ context }) => ({ deviceId: context.deviceId! }),
        onDone: [
          {
            guard: ({ event }) => event.output.cameras.length > 0,
            target: 'ready',
            actions: assign({
              cameras: ({ event }) => event.output.cameras,
              engines: ({ event }) => event.output.engines,
              cameraId: ({ event }) => event.output.cameras[0]!.camera_id,
              error: null,
            }),
          },
          {
            target: 'deviceFailed',
            actions: assign({
              cameras: [],
              engines: ({ event }) => event.output.engines,
              error: 'This device has no camera.',
            }),
          },
        ],
        onError: { target: 'deviceFailed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
      },
    },
    deviceFailed: { on: { 'app.retry': 'connecting' } },
    ready: {
      type: 'parallel',
      on: {
        'camera.pick': {
          guard: 'knownCamera',
          target: 'ready',
          reenter: true,
          actions: assign({ cameraId: ({ event }) => event.cameraId, owl: null, passes: [], sightings: [] }),
        },
      },
      states: {
        video: {
          initial: 'starting',
          entry: assign({ mediaStream: null, videoError: null }),
          invoke: {
            src: 'liveCamera',
            input: ({ context }) => ({
              deviceId: context.deviceId!,
              cameraId: context.cameraId!,
              cameraName: context.cameras.find((c) => c.camera_id === context.cameraId)?.name ?? '',
            }),
          },
          states: {
            starting: {
              on: {
                'camera.playing': {
                  target: 'playing',
                  actions: assign({ mediaStream: ({ event }) => event.mediaStream }),
                },
                'camera.failed': {
                  target: 'failed',
                  actions: assign({ videoError: ({ event }) => event.error }),
                },
              },
            },
            playing: {
              on: {
                'camera.failed': {
                  target: 'failed',
                  actions: assign({ mediaStream: null, videoError: ({ event }) => event.error }),
                },
              },
            },
            failed: {},
          },
        },
        work: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'prompt.set': [
                  {
                    guard: 'promptFilled',
                    target: 'detecting',
                    actions: assign({ prompt: ({ event }) => event.prompt.trim(), owl: null, error: null }),
                  },
                ],
                'chat.send': {
                  guard: 'messageFilled',
                  target: 'answering',
                  actions: assign({
                    messages: ({ context, event }) => [
                      ...context.messages,
                      { role: 'user' as const, content: event.text.trim() },
                    ],
                    partial: '',
                    error: null,
                  }),
                },
                'chat.clear': { actions: assign({ messages: [], partial: '', error: null }) },
                'speed.start': {
                  guard: 'linesReady',
                  target: 'measuring',
                  actions: assign({ since: ({ event }) => event.at, passes: [], error: null }),
                },
                'city.start': {
                  guard: 'cityReady',
                  target: 'observing',
                  actions: assign({ since: ({ event }) => event.at, sightings: [], error: null }),
                },
              },
            },
            detecting: {
              invoke: {
                src: 'detectLoop',
                input: ({ context }) => ({
                  deviceId: context.deviceId!,
                  cameraId: context.cameraId!,
                  prompt: context.prompt,
                }),
              },
              on: {
                'detect.result': { actions: assign({ owl: ({ event }) => event.result, error: null }) },
                'work.failed': { actions: assign({ error: ({ event }) => event.error }) },
                'prompt.set': [
                  {
                    guard: 'promptFilled',
                    target: 'detecting',
                    reenter: true,
                    actions: assign({ prompt: ({ event }) => event.prompt.trim(), owl: null }),
                  },
                  { target: 'idle', actions: assign({ prompt: '', owl: null }) },
                ],
                'prompt.clear': { target: 'idle', actions: assign({ prompt: '', owl: null, error: null }) },
              },
            },
            answering: {
              invoke: {
                src: 'askLlava',
                input: ({ context }) => ({
                  deviceId: context.deviceId!,
                  cameraId: context.cameraId!,
                  messages: context.messages,
                }),
              },
              on: {
                'chat.token': {
                  actions: assign({ partial: ({ context, event }) => context.partial + event.token }),
                },
                'chat.done': {
                  target: 'idle',
                  actions: assign({
                    messages: ({ context, event }) => [
                      ...context.messages,
                      { role: 'assistant' as const, content: event.answer },
                    ],
                    partial: '',
                  }),
                },
                'work.failed': {
                  target: 'idle',
                  actions: assign({ error: ({ event }) => event.error, partial: '' }),
                },
              },
            },
            measuring: {
              invoke: {
                src: 'measureLoop',
                input: ({ context }) => ({
                  deviceId: context.deviceId!,
                  cameraId: context.cameraId!,
                  since: context.since!,
                  lineA: context.lineA!,
                  lineB: context.lineB!,
                  distanceM: context.distanceM,
                }),
              },
              on: {
                'speed.result': {
                  actions: assign({
                    passes: ({ context, event }) => mergePasses(context.passes, event.passes),
                    error: null,
                  }),
                },
                'work.failed': { actions: assign({ error: ({ event }) => event.error }) },
                'speed.stop': 'idle',
              },
            },
            observing: {
              invoke: {
                src: 'observeLoop',
                input: ({ context }) => ({
                  deviceId: context.deviceId!,
                  cameraId: context.cameraId!,
                  since: context.since!,
                }),
              },
              on: {
                'city.result': {
                  actions: assign({ sightings: ({ event }) => event.sightings, error: null }),
                },
                'work.failed': { actions: assign({ error: ({ event }) => event.error }) },
                'city.stop': 'idle',
              },
            },
          },
        },
      },
    },
  },
  on: {
    'device.pick': {
      guard: ({ context, event }) => context.devices.some((d) => d.device_id === event.deviceId),
      target: '.connecting',
      actions: assign({
        deviceId: ({ event }) => event.deviceId,
        cameraId: null,
        cameras: [],
        engines: [],
        owl: null,
        passes: [],
        sightings: [],
        error: null,
      }),
    },
    'lines.set': {
      actions: assign({ lineA: ({ event }) => event.lineA, lineB: ({ event }) => event.lineB }),
    },
    'distance.set': { actions: assign({ distanceM: ({ event }) => event.distanceM }) },
  },
});

/** True when the page is `app` and the device's engine answers it. */
function runs(context: DemoAppContext, app: DemoAppName): boolean {
  return context.app === app && context.engines.some((e) => e.app === app && e.available);
}

function errorOf(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (typeof error === 'object' && error && 'message' in error)
    return String((error as { message: unknown }).message);
  return String(error);
}
