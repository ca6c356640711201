/**
 * One device's inference engines — /control-panel/engines (spec §3 inferenceEngines, deepStream; §5 "The GPU
 * driver check is allowed only for x86 devices"; §7 check-inference-engine-exist, get-gpu-driver-version,
 * check-docker-image / download-docker-image for engine images; issue 10 "Engines"):
 *
 * `checking` (checkEngines: the device's engines and, on x86, its GPU driver — on a Jetson the §5 text without
 * asking) → `ready`, or `following` when the device reports an engine image download already running (a reload,
 * another tab): it checks again every FOLLOW_MS until the download ends. `engines.download` (an engine's image)
 * → `downloading` (downloadImage: `download.progress` carries the percent, which never goes back;
 * `download.done` → checking again; `download.failed` → ready with the error) and `engines.cancel` →
 * `canceling` (cancelDownload) → checking. A failed check → `failed`; `engines.refresh` checks again from
 * ready, following and failed.
 *
 * Pure: the device calls are the provided actors (src/console/features/engines/actors.ts).
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { CheckInferenceEnginesReply } from '../../src/protocol/engines';
import { nextPercent } from './engineView';

/** How often a download started elsewhere is checked again, ms. */
export const FOLLOW_MS = 2_000;

/** The GPU driver as checked: its version (x86), the §5 refusal (Jetson), or why the check failed. */
export type DriverCheck =
  | { kind: 'version'; driver_version: string | null; gpus: string[] }
  | { kind: 'x86Only' }
  | { kind: 'error'; message: string };

export interface EngineCheckResult {
  engines: CheckInferenceEnginesReply;
  driver: DriverCheck;
}

export interface DeviceEnginesInput {
  deviceId: string;
  /** From the device's chipset_id (§9: '0' is x86). */
  kind: 'jetson' | 'x86';
}

export interface DeviceEnginesContext extends DeviceEnginesInput {
  check: EngineCheckResult | null;
  /** The image being downloaded from this page, else null. */
  image: string | null;
  /** Its percent (0–100), else null. */
  percent: number | null;
  /** The last failure's text (check or download), else null. */
  error: string | null;
}

export type DeviceEnginesEvent =
  | { type: 'engines.refresh' }
  | { type: 'engines.download'; image: string }
  | { type: 'engines.cancel' }
  | { type: 'download.progress'; percent: number }
  | { type: 'download.done' }
  | { type: 'download.failed'; error: string };

const message = (e: unknown): string => (e instanceof Error ? e.message : String(e));

export const deviceEnginesMachine = setup({
  types: {
    context: {} as DeviceEnginesContext,
    events: {} as DeviceEnginesEvent,
    input: {} as DeviceEnginesInput,
  },
  actors: {
    checkEngines: fromPromise<EngineCheckResult, DeviceEnginesInput>(async () => {
      throw new Error('engines: checkEngines is not provided');
    }),
    downloadImage: fromCallback<DeviceEnginesEvent, { deviceId: string; image: string }>(() => {
      throw new Error('engines: downloadImage is not provided');
    }),
    cancelDownload: fromPromise<boolean, { deviceId: string; image: string }>(async () => {
      throw new Error('engines: cancelDownload is not provided');
    }),
  },
  guards: {
    downloadRunning: ({ event }) =>
      'output' in event &&
      (event.output as EngineCheckResult).engines.engines.some((e) => e.state === 'downloading'),
  },
  delays: { follow: FOLLOW_MS },
}).createMachine({
  id: 'deviceEngines',
  context: ({ input }) => ({ ...input, check: null, image: null, percent: null, error: null }),
  initial: 'checking',
  states: {
    checking: {
      invoke: {
        id: 'checkEngines',
        src: 'checkEngines',
        input: ({ context }) => ({ deviceId: context.deviceId, kind: context.kind }),
        onDone: [
          {
            guard: 'downloadRunning',
            target: 'following',
            actions: assign({ check: ({ event }) => event.output }),
          },
          { target: 'ready', actions: assign({ check: ({ event }) => event.output }) },
        ],
        onError: { target: 'failed', actions: assign({ error: ({ event }) => message(event.error) }) },
      },
    },
    ready: {
      on: {
        'engines.refresh': { target: 'checking', actions: assign({ error: null }) },
        'engines.download': {
          target: 'downloading',
          actions: assign({ image: ({ event }) => event.image, percent: 0, error: null }),
        },
      },
    },
    following: {
      after: { follow: 'checking' },
      on: { 'engines.refresh': 'checking' },
    },
    downloading: {
      invoke: {
        id: 'downloadImage',
        src: 'downloadImage',
        input: ({ context }) => ({ deviceId: context.deviceId, image: context.image! }),
      },
      on: {
        'download.progress': {
          actions: assign({ percent: ({ context, event }) => nextPercent(context.percent, event.percent) }),
        },
        'download.done': { target: 'checking', actions: assign({ image: null, percent: null }) },
        'download.failed': {
          target: 'ready',
          actions: assign({ image: null, percent: null, error: ({ event }) => event.error }),
        },
        'engines.cancel': 'canceling',
      },
    },
    canceling: {
      invoke: {
        id: 'cancelDownload',
        src: 'cancelDownload',
        input: ({ context }) => ({ deviceId: context.deviceId, image: context.image! }),
        onDone: { target: 'checking', actions: assign({ image: null, percent: null }) },
        onError: {
          target: 'checking',
          actions: assign({ image: null, percent: null, error: ({ event }) => message(event.error) }),
        },
      },
    },
    failed: {
      on: { 'engines.refresh': { target: 'checking', actions: assign({ error: null }) } },
    },
  },
});
