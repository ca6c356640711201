/**
 * Device connection — spec §4 "Device connection: not connected, opening, open, closed or errored";
 * §4 "Device health: ping with a 5 s time-out. On no reply, ask the signalling server whether the device
 * exists. If it does not, mark the device disconnected and show a dialog; otherwise send the start request";
 * §8 "Device is not reachable" and "Can not connect to the device"; §9 device connection time-out 5000 ms,
 * ping time-out 5000 ms, health check every 10 s.
 *
 * One actor per device, spawned by devicePool. `opening` asks the server for a grant, opens the PeerJS data
 * connection and waits for `hello.ok` (bounded by DEVICE_CONNECTION_TIMEOUT_MS). While `open`, two regions
 * run: `info` fetches the client version, camera list and x86 information (chipset '0') or jtop health
 * (Jetson) once; `health` pings every DEVICE_HEALTH_INTERVAL_MS with a 5 s time-out and then samples
 * check-health and get-usages. On a missed ping it asks signalling (`check/peerjs/{device_id}` → exist): if
 * the device is gone the link is errored and the "Device is not reachable" dialog is emitted; if it exists
 * we keep trying (ping again) — our reading of the spec's "send the start request".
 *
 * Decision (written down as asked): when the device closes the link, the actor goes to `closed` with the
 * error 'Device disconnected' and does not reconnect by itself; the user (or the pool, on the next
 * `device.connect`) retries with `device.retry`. Automatic reconnect with back-off and stream resume come
 * with a later issue.
 *
 * The actor reports every change of its state to `input.reportTo` (the pool) with `device.status`.
 * Side effects are the named actors and `closeLink`, provided by src/console/services/system.ts.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { CommandReply } from '../src/protocol/commands';
import type { DeviceCamera } from '../src/protocol/commands';
import {
  DEVICE_CONNECTION_TIMEOUT_MS,
  DEVICE_HEALTH_INTERVAL_MS,
  DEVICE_PING_TIMEOUT_MS,
} from '../src/protocol/constants';
import type { Device } from '../src/protocol/rest';
import { errorText, type ConsoleEmitted } from './emitted';

/** §8 texts. */
export const DEVICE_CONNECTION_TEXTS = {
  cannotConnect: 'Can not connect to the device. Please try again in a minute.',
  disconnected: 'Device disconnected',
  notReachableTitle: 'Device is not reachable',
  notReachableMessage: 'can not get any response from your device. Please make sure it is connected.',
} as const;

/** The state names of a device connection (§4). */
export type DeviceConnectionStatus = 'notConnected' | 'opening' | 'open' | 'closed' | 'errored';

/** What the actor tells its pool whenever its state changes. */
export interface DeviceStatusReport {
  type: 'device.status';
  deviceId: string;
  label: string;
  status: DeviceConnectionStatus;
}

/** Device information fetched once when the link opens. */
export interface DeviceInfo {
  clientVersion: string;
  cameras: DeviceCamera[];
  /** Set on x86 devices (chipset_id '0'). */
  x86Info: CommandReply<'x86-device-information'> | null;
  /** Set on Jetson devices. */
  jtop: CommandReply<'jtop-health'> | null;
}

/** One health sample (every DEVICE_HEALTH_INTERVAL_MS). */
export interface HealthSample {
  health: CommandReply<'check-health'>;
  usage: CommandReply<'get-usages'>;
}

export interface DeviceConnectionContext {
  device: Device;
  error: string | null;
  health: CommandReply<'check-health'> | null;
  usage: CommandReply<'get-usages'> | null;
  jtop: CommandReply<'jtop-health'> | null;
  x86Info: CommandReply<'x86-device-information'> | null;
  clientVersion: string | null;
  cameras: DeviceCamera[];
  /** Round trip of the last ping, ms. */
  rttMs: number | null;
  /** When the link opened, ms since epoch (from the service's clock). */
  openedAt: number | null;
  /** Who hears `device.status` (the pool); null when run alone. */
  reportTo: AnyActorRef | null;
}

export interface DeviceConnectionInput {
  device: Device;
  reportTo?: AnyActorRef | null;
}

export type DeviceConnectionEvent =
  | { type: 'device.open' }
  | { type: 'device.close' }
  | { type: 'device.retry' }
  /** Internal (watchLink): the device or the network closed the data connection. */
  | { type: 'device.link.closed'; reason: string };

/** Input of the device-side actors. */
export interface DeviceRef {
  deviceId: string;
  chipsetId: string;
}

const notProvided = (name: string): never => {
  throw new Error(`deviceConnection: actor '${name}' is not provided`);
};
const deviceRef = ({ context }: { context: DeviceConnectionContext }): DeviceRef => ({
  deviceId: context.device.device_id,
  chipsetId: context.device.chipset_id,
});

export const deviceConnectionMachine = setup({
  types: {
    context: {} as DeviceConnectionContext,
    events: {} as DeviceConnectionEvent,
    input: {} as DeviceConnectionInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /**
     * POST device-grant, peer.connect(device_id, { serialization: 'json', reliable: true }), send hello,
     * await hello.ok. Resolves with the open time (ms since epoch); rejects with a §8 text.
     * Aborting (leaving `opening`) must close the half-open connection.
     */
    openLink: fromPromise<{ openedAt: number }, DeviceRef>(async () => notProvided('openLink')),
    /** While open: sends `device.link.closed` when the connection closes; closes the link on cleanup. */
    watchLink: fromCallback<DeviceConnectionEvent, DeviceRef>(() => notProvided('watchLink')),
    /** `ping` command. Resolves with the round trip in ms. */
    pingDevice: fromPromise<{ rttMs: number }, DeviceRef>(async () => notProvided('pingDevice')),
    /** GET check/peerjs/{device_id} → exist. */
    checkDeviceExists: fromPromise<boolean, DeviceRef>(async () => notProvided('checkDeviceExists')),
    /** get-client-version, camera-list, x86-device-information (chipset '0') or jtop-health. */
    loadDeviceInfo: fromPromise<DeviceInfo, DeviceRef>(async () => notProvided('loadDeviceInfo')),
    /** check-health and get-usages. */
    sampleHealth: fromPromise<HealthSample, DeviceRef>(async () => notProvided('sampleHealth')),
  },
  actions: {
    /** Closes the data connection of this device (idempotent). Provided by services. */
    closeLink: (_, _params: DeviceRef) => {},
    /** Tells the pool (input.reportTo) which state this connection is in now. */
    reportStatus: enqueueActions(({ context, enqueue }, params: { status: DeviceConnectionStatus }) => {
      if (!context.reportTo) return;
      const report: DeviceStatusReport = {
        type: 'device.status',
        deviceId: context.device.device_id,
        label: context.device.label,
        status: params.status,
      };
      enqueue.sendTo(context.reportTo, report);
    }),
    clearError: assign({ error: null }),
    emitCannotConnectNotice: emit(({ context }) => ({
      type: 'notice' as const,
      title: context.device.label,
      message: DEVICE_CONNECTION_TEXTS.cannotConnect,
      variant: 'warning' as const,
    })),
    emitNotReachableDialog: emit({
      type: 'dialog',
      title: DEVICE_CONNECTION_TEXTS.notReachableTitle,
      message: DEVICE_CONNECTION_TEXTS.notReachableMessage,
    } as const),
    storeInfo: assign((_, info: DeviceInfo) => ({
      clientVersion: info.clientVersion,
      cameras: info.cameras,
      x86Info: info.x86Info,
      jtop: info.jtop,
    })),
    storeHealth: assign((_, sample: HealthSample) => ({ health: sample.health, usage: sample.usage })),
  },
  guards: {
    deviceExists: (_, params: { exists: boolean }) => params.exists,
  },
  delays: {
    connectionTimeout: DEVICE_CONNECTION_TIMEOUT_MS,
    pingTimeout: DEVICE_PING_TIMEOUT_MS,
    healthInterval: DEVICE_HEALTH_INTERVAL_MS,
  },
}).createMachine({
  id: 'deviceConnection',
  initial: 'notConnected',
  context: ({ input }) => ({
    device: input.device,
    error: null,
    health: null,
    usage: null,
    jtop: null,
    x86Info: null,
    clientVersion: null,
    cameras: [],
    rttMs: null,
    openedAt: null,
    reportTo: input.reportTo ?? null,
  }),
  states: {
    notConnected: {
      on: {
        'device.open': { target: 'opening' },
        'device.retry': { target: 'opening' },
      },
    },
    opening: {
      tags: ['busy'],
      entry: ['clearError', { type: 'reportStatus', params: { status: 'opening' } }],
      invoke: {
        id: 'openLink',
        src: 'openLink',
        input: deviceRef,
        onDone: { target: 'open', actions: assign({ openedAt: ({ event }) => event.output.openedAt }) },
        onError: {
          target: 'errored',
          actions: [
            assign({ error: ({ event }) => errorText(event.error, DEVICE_CONNECTION_TEXTS.cannotConnect) }),
            'emitCannotConnectNotice',
          ],
        },
      },
      after: {
        // §9 device connection time-out 5000 ms.
        connectionTimeout: {
          target: 'errored',
          actions: [assign({ error: DEVICE_CONNECTION_TEXTS.cannotConnect }), 'emitCannotConnectNotice'],
        },
      },
      on: {
        'device.close': { target: 'closed' },
      },
    },
    open: {
      type: 'parallel',
      entry: { type: 'reportStatus', params: { status: 'open' } },
      invoke: { id: 'watchLink', src: 'watchLink', input: deviceRef },
      on: {
        'device.close': { target: 'closed' },
        'device.link.closed': {
          target: 'closed',
          actions: assign({ error: DEVICE_CONNECTION_TEXTS.disconnected }),
        },
      },
      states: {
        info: {
          initial: 'loading',
          states: {
            loading: {
              invoke: {
                id: 'loadDeviceInfo',
                src: 'loadDeviceInfo',
                input: deviceRef,
                onDone: {
                  target: 'loaded',
                  actions: { type: 'storeInfo', params: ({ event }) => event.output },
                },
                onError: { target: 'unavailable' },
              },
            },
            loaded: {},
            unavailable: {},
          },
        },
        health: {
          initial: 'pinging',
          states: {
            pinging: {
              invoke: {
                id: 'pingDevice',
                src: 'pingDevice',
                input: deviceRef,
                onDone: { target: 'sampling', actions: assign({ rttMs: ({ event }) => event.output.rttMs }) },
                onError: { target: 'checkingPresence' },
              },
              after: {
                // §4 §9 ping time-out 5 s: no reply → ask signalling whether the device exists.
                pingTimeout: { target: 'checkingPresence' },
              },
            },
            sampling: {
              invoke: {
                id: 'sampleHealth',
                src: 'sampleHealth',
                input: deviceRef,
                onDone: {
                  target: 'waiting',
                  actions: { type: 'storeHealth', params: ({ event }) => event.output },
                },
                onError: { target: 'waiting' },
              },
            },
            waiting: {
              after: { healthInterval: { target: 'pinging' } },
            },
            checkingPresence: {
              invoke: {
                id: 'checkDeviceExists',
                src: 'checkDeviceExists',
                input: deviceRef,
                onDone: [
                  // The device is registered with signalling: keep trying.
                  {
                    guard: { type: 'deviceExists', params: ({ event }) => ({ exists: event.output }) },
                    target: 'pinging',
                  },
                  {
                    target: '#deviceConnection.errored',
                    actions: [
                      assign({ error: DEVICE_CONNECTION_TEXTS.notReachableTitle }),
                      'emitNotReachableDialog',
                    ],
                  },
                ],
                // Signalling itself did not answer: wait for the next round.
                onError: { target: 'waiting' },
              },
            },
          },
        },
      },
    },
    closed: {
      entry: [
        { type: 'closeLink', params: deviceRef },
        { type: 'reportStatus', params: { status: 'closed' } },
      ],
      on: {
        'device.open': { target: 'opening' },
        'device.retry': { target: 'opening' },
      },
    },
    errored: {
      tags: ['error'],
      entry: [
        { type: 'closeLink', params: deviceRef },
        { type: 'reportStatus', params: { status: 'errored' } },
      ],
      on: {
        'device.open': { target: 'opening' },
        'device.retry': { target: 'opening' },
      },
    },
  },
});
