/**
 * The device page (`/control-panel/devices?device={id}`, the §2 log-warning link; issue "Operate a device" §1):
 * one long-lived actor (systemId 'devicePage') for the device the page shows.
 *
 * While a device is open, four regions run side by side:
 * - `record`: the §3 Device as the server lists it (GET get_devices/ searched by id) — loading → ready,
 *   notFound (not one of the user's devices) or failed (retry with `page.reload`);
 * - `presence`: §7 "GET peerjs/peerjs/{device_id} … every 30 s; reads isOnline" (§9 signalling presence poll);
 * - `token`: generate a device token (§7 generate_token → result.access_token): asked → generating → shown
 *   once ("Generated!", §8), or failed with the §5 text when no access_token came back;
 * - `removal`: delete the device (§7 DELETE device): asked → deleting → deleted, or failed with §8 "Delete
 *   devices failed: issue on our end.";
 * - `gpu`: the GPU driver check (get-gpu-driver-version; §5 "GPU Driver check is just for x86 devices." is
 *   answered here, without asking a Jetson).
 * Side effects are the actors below, provided by the console (features/devicePage/actors.ts).
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Device } from '../../src/protocol/devices';
import { SYSTEM_IDS } from '../systemIds';

const notProvided = (name: string) => (): never => {
  throw new Error(`devicePage: actor '${name}' is not provided`);
};

/** §9 "Signalling presence poll 30 s". */
export const PRESENCE_POLL_MS = 30_000;
/** §9 "Chipset id 0 is x86". */
const X86_CHIPSET = '0';

/** §5 (Device token): the answer held no access_token. */
export const TOKEN_MISSING_TEXT = 'The server did not return a device token.';
/** §8 "Delete devices failed: issue on our end." */
export const DELETE_FAILED_TEXT = 'Delete devices failed: issue on our end.';
/** §5 "GPU Driver check is just for x86 devices." */
export const GPU_X86_ONLY_TEXT = 'GPU Driver check is just for x86 devices.';

export interface GpuDriver {
  /** NVIDIA driver version, null when no driver answers. */
  driver_version: string | null;
  gpus: string[];
}

export interface DevicePageContext {
  deviceId: string | null;
  device: Device | null;
  /** Last presence answer (null: not asked yet or the poll failed). */
  online: boolean | null;
  /** Why the record could not be loaded. */
  error: string | null;
  /** The token generated last, shown once; cleared by `token.dismiss` or when the page closes. */
  token: string | null;
  tokenError: string | null;
  deleteError: string | null;
  gpu: GpuDriver | null;
  gpuError: string | null;
}

export type DevicePageEvent =
  | { type: 'page.open'; deviceId: string }
  | { type: 'page.close' }
  | { type: 'page.reload' }
  | { type: 'token.ask' }
  | { type: 'token.confirm' }
  | { type: 'token.cancel' }
  | { type: 'token.dismiss' }
  | { type: 'removal.ask' }
  | { type: 'removal.confirm' }
  | { type: 'removal.cancel' }
  | { type: 'gpu.check' };

const cleared = {
  device: null,
  online: null,
  error: null,
  token: null,
  tokenError: null,
  deleteError: null,
  gpu: null,
  gpuError: null,
} satisfies Omit<DevicePageContext, 'deviceId'>;

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

export const devicePageMachine = setup({
  types: {
    context: {} as DevicePageContext,
    events: {} as DevicePageEvent,
  },
  actors: {
    /** The user's device with this device_id, or null when it is not theirs / does not exist. */
    loadDevice: fromPromise<Device | null, { deviceId: string }>(notProvided('loadDevice')),
    /** GET peerjs/peerjs/{device_id} → isOnline. */
    checkPresence: fromPromise<boolean, { deviceId: string }>(notProvided('checkPresence')),
    /** POST generate_token { id } → result.access_token ('' when absent). */
    generateToken: fromPromise<string, { id: string }>(notProvided('generateToken')),
    /** DELETE device { ids: [id] }; rejects on failure. */
    deleteDevice: fromPromise<void, { id: string }>(notProvided('deleteDevice')),
    /** get-gpu-driver-version over the device link (opened if needed). */
    checkGpuDriver: fromPromise<GpuDriver, { deviceId: string }>(notProvided('checkGpuDriver')),
  },
  actions: {
    /** The device table (systemId devicesTable) still lists a deleted device until it loads again. */
    refreshDeviceTable: enqueueActions(({ enqueue, system }) => {
      const table = system.get(SYSTEM_IDS.devicesTable);
      if (table) enqueue.sendTo(table, { type: 'table.refresh' });
    }),
  },
  guards: {
    hasDevice: ({ context }) => context.device !== null,
    isX86: ({ context }) => context.device?.chipset_id === X86_CHIPSET,
    otherDevice: ({ context, event }) => event.type === 'page.open' && event.deviceId !== context.deviceId,
  },
}).createMachine({
  id: 'devicePage',
  context: { deviceId: null, ...cleared },
  initial: 'closed',
  states: {
    closed: {
      entry: assign({ deviceId: null, ...cleared }),
      on: {
        'page.open': {
          target: 'open',
          actions: assign(({ event }) => ({ deviceId: event.deviceId, ...cleared })),
        },
      },
    },
    open: {
      type: 'parallel',
      on: {
        'page.close': { target: 'closed' },
        'page.open': {
          guard: 'otherDevice',
          target: 'open',
          reenter: true,
          actions: assign(({ event }) => ({ deviceId: event.deviceId, ...cleared })),
        },
      },
      states: {
        record: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['loading'],
              invoke: {
                id: 'loadDevice',
                src: 'loadDevice',
                input: ({ context }) => ({ deviceId: context.deviceId ?? '' }),
                onDone: [
                  { guard: ({ event }) => event.output === null, target: 'notFound' },
                  { target: 'ready', actions: assign({ device: ({ event }) => event.output, error: null }) },
                ],
                onError: {
                  target: 'failed',
                  actions: assign({ error: ({ event }) => message(event.error) }),
                },
              },
            },
            ready: { tags: ['ready'], on: { 'page.reload': 'loading' } },
            notFound: { tags: ['notFound'], on: { 'page.reload': 'loading' } },
            failed: { tags: ['failed'], on: { 'page.reload': 'loading' } },
          },
        },
        presence: {
          initial: 'checking',
          states: {
            checking: {
              invoke: {
                id: 'checkPresence',
                src: 'checkPresence',
                input: ({ context }) => ({ deviceId: context.deviceId ?? '' }),
                onDone: { target: 'waiting', actions: assign({ online: ({ event }) => event.output }) },
                onError: { target: 'waiting', actions: assign({ online: null }) },
              },
            },
            waiting: { after: { [PRESENCE_POLL_MS]: 'checking' } },
          },
        },
        token: {
          initial: 'idle',
          states: {
            idle: { on: { 'token.ask': { guard: 'hasDevice', target: 'asking' } } },
            asking: {
              tags: ['tokenAsking'],
              on: {
                'token.confirm': { guard: 'hasDevice', target: 'generating' },
                'token.cancel': 'idle',
              },
            },
            generating: {
              tags: ['tokenBusy'],
              invoke: {
                id: 'generateToken',
                src: 'generateToken',
                input: ({ context }) => ({ id: context.device?.id ?? '' }),
                onDone: [
                  {
                    guard: ({ event }) => event.output === '',
                    target: 'idle',
                    actions: assign({ tokenError: TOKEN_MISSING_TEXT, token: null }),
                  },
                  {
                    target: 'shown',
                    actions: assign({ token: ({ event }) => event.output, tokenError: null }),
                  },
                ],
                onError: {
                  target: 'idle',
                  actions: assign({ tokenError: ({ event }) => message(event.error), token: null }),
                },
              },
            },
            shown: {
              tags: ['tokenShown'],
              on: { 'token.dismiss': { target: 'idle', actions: assign({ token: null }) } },
            },
          },
        },
        removal: {
          initial: 'idle',
          states: {
            idle: { on: { 'removal.ask': { guard: 'hasDevice', target: 'asking' } } },
            asking: {
              tags: ['removalAsking'],
              on: {
                'removal.confirm': { guard: 'hasDevice', target: 'deleting' },
                'removal.cancel': 'idle',
              },
            },
            deleting: {
              tags: ['removalBusy'],
              invoke: {
                id: 'deleteDevice',
                src: 'deleteDevice',
                input: ({ context }) => ({ id: context.device?.id ?? '' }),
                onDone: 'deleted',
                onError: { target: 'idle', actions: assign({ deleteError: DELETE_FAILED_TEXT }) },
              },
            },
            // The device table shows the device until it loads again: have it reload.
            deleted: { tags: ['deleted'], entry: 'refreshDeviceTable' },
          },
        },
        gpu: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'gpu.check': [
                  { guard: 'isX86', target: 'checking', actions: assign({ gpuError: null }) },
                  { guard: 'hasDevice', actions: assign({ gpuError: GPU_X86_ONLY_TEXT, gpu: null }) },
                ],
              },
            },
            checking: {
              tags: ['gpuChecking'],
              invoke: {
                id: 'checkGpuDriver',
                src: 'checkGpuDriver',
                input: ({ context }) => ({ deviceId: context.deviceId ?? '' }),
                onDone: {
                  target: 'idle',
                  actions: assign({ gpu: ({ event }) => event.output, gpuError: null }),
                },
                onError: {
                  target: 'idle',
                  actions: assign({ gpuError: ({ event }) => message(event.error), gpu: null }),
                },
              },
            },
          },
        },
      },
    },
  },
});
