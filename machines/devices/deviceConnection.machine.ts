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
 * Recovery (issue 3, ARCHITECTURE "PeerJS closes a connection when ICE reports disconnected … recovery is the
 * device connection machine's job"): when the link drops while open (agent restarted, network cut) or the
 * device stops answering pings and signalling says it is gone, the actor goes to `reconnecting` (never to
 * `closed`): it retries opening with a back-off (RECONNECT_BASE_MS 0.5 s, doubling, capped at
 * RECONNECT_MAX_MS 5 s) for as long as the user has not disconnected (`device.close`). The device's
 * signalling presence guides it: `watchPresence` polls `check/peerjs/{device_id}` every
 * PRESENCE_POLL_MS while reconnecting; when the device was seen absent and is present again (the agent came
 * back) the next attempt starts at once instead of waiting out the back-off. `device.retry` also tries at
 * once. Streams of the device follow the reports: 'reconnecting' makes them wait, 'open' resumes them.
 * Only `device.close` (the user) ends in `closed`; a first open that fails ends in `errored`.
 *
 * The actor reports every change of its state to `input.reportTo` (the pool) with `device.status`.
 * Side effects are the named actors and `closeLink`, provided by src/console/features/devices/actors.ts.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { CommandReply } from '../../src/protocol/commands';
import type { DeviceCamera } from '../../src/protocol/commands';
import {
  DEVICE_CONNECTION_TIMEOUT_MS,
  DEVICE_HEALTH_INTERVAL_MS,
  DEVICE_PING_TIMEOUT_MS,
} from '../../src/protocol/constants';
import type { Device } from '../../src/protocol/rest';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** §8 texts. */
export const DEVICE_CONNECTION_TEXTS = {
  cannotConnect: 'Can not connect to the device. Please try again in a minute.',
  disconnected: 'Device disconnected',
  notReachableTitle: 'Device is not reachable',
  notReachableMessage: 'can not get any response from your device. Please make sure it is connected.',
} as const;

/** The state names of a device connection (§4). */
export type DeviceConnectionStatus =
  'notConnected' | 'opening' | 'open' | 'reconnecting' | 'closed' | 'errored';

/** Reconnect back-off: first retry after 500 ms, doubling, at most 5 s between attempts. */
export const RECONNECT_BASE_MS = 500;
export const RECONNECT_MAX_MS = 5_000;
/** While reconnecting, how often signalling presence is asked, ms. */
export const PRESENCE_POLL_MS = 500;
/** Back-off before reconnect attempt n (0-based), ms. */
export const reconnectDelayMs = (attempt: number): number =>
  Math.min(RECONNECT_MAX_MS, RECONNECT_BASE_MS * 2 ** Math.max(0, attempt));

/** What the actor tells its pool whenever its state changes. */
export interface DeviceStatusReport {
  type: 'device.status';
  deviceId: string;
  label: string;
  status: DeviceConnectionStatus;
}

/** Sent to the pool when the device's camera list is known (after the link opened). */
export interface DeviceCamerasReport {
  type: 'device.cameras';
  deviceId: string;
  cameras: DeviceCamera[];
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
  /** Failed reconnect attempts since the link dropped (drives the back-off). */
  attempts: number;
  /** While reconnecting: signalling said the device is gone at least once since the last attempt. */
  sawAbsent: boolean;
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
  | { type: 'device.link.closed'; reason: string }
  /** Internal (watchPresence, while reconnecting): is the device registered with signalling? */
  | { type: 'device.presence'; exists: boolean };

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
    /** While reconnecting: sends `device.presence { exists }` every PRESENCE_POLL_MS (check/peerjs). */
    watchPresence: fromCallback<DeviceConnectionEvent, DeviceRef>(() => notProvided('watchPresence')),
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
    /** Tells the pool (and through it the camera grid) which cameras the device has. */
    reportCameras: enqueueActions(({ context, enqueue }) => {
      if (!context.reportTo) return;
      const report: DeviceCamerasReport = {
        type: 'device.cameras',
        deviceId: context.device.device_id,
        cameras: context.cameras,
      };
      enqueue.sendTo(context.reportTo, report);
    }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1, sawAbsent: false }),
    resetAttempts: assign({ attempts: 0, sawAbsent: false }),
    notePresence: assign({
      sawAbsent: ({ context, event }) =>
        context.sawAbsent || (event.type === 'device.presence' && !event.exists),
    }),
    storeHealth: assign((_, sample: HealthSample) => ({ health: sample.health, usage: sample.usage })),
  },
  guards: {
    deviceExists: (_, params: { exists: boolean }) => params.exists,
    /** The device was gone from signalling and is back: try now rather than after the back-off. */
    deviceCameBack: ({ context, event }) =>
      event.type === 'device.presence' && event.exists && context.sawAbsent,
  },
  delays: {
    reconnectDelay: ({ context }) => reconnectDelayMs(context.attempts),
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
    attempts: 0,
    sawAbsent: false,
  }),
  states: {
    notConnected: {
      tags: ['connectable'],
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
      entry: ['resetAttempts', { type: 'reportStatus', params: { status: 'open' } }],
      invoke: { id: 'watchLink', src: 'watchLink', input: deviceRef },
      on: {
        'device.close': { target: 'closed' },
        'device.link.closed': {
          target: 'reconnecting',
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
                  actions: [{ type: 'storeInfo', params: ({ event }) => event.output }, 'reportCameras'],
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
                  // §4 "otherwise send the start request": the device is registered with signalling but did
                  // not answer on this link (e.g. its agent restarted under the same id) — open a new link.
                  {
                    guard: { type: 'deviceExists', params: ({ event }) => ({ exists: event.output }) },
                    target: '#deviceConnection.reconnecting',
                  },
                  // Gone from signalling (agent stopped or restarting): §4 "mark the device disconnected
                  // and show a dialog" — it is shown once, and the actor keeps reconnecting by itself.
                  {
                    target: '#deviceConnection.reconnecting',
                    actions: [
                      assign({ error: DEVICE_CONNECTION_TEXTS.notReachableTitle, sawAbsent: true }),
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
    reconnecting: {
      tags: ['busy', 'reconnecting'],
      entry: [
        { type: 'closeLink', params: deviceRef },
        { type: 'reportStatus', params: { status: 'reconnecting' } },
      ],
      invoke: { id: 'watchPresence', src: 'watchPresence', input: deviceRef },
      initial: 'waiting',
      on: {
        'device.close': { target: 'closed' },
        'device.retry': { target: '.attempting' },
        'device.open': { target: '.attempting' },
      },
      states: {
        waiting: {
          after: { reconnectDelay: { target: 'attempting' } },
          on: {
            'device.presence': [
              { guard: 'deviceCameBack', target: 'attempting' },
              { actions: 'notePresence' },
            ],
          },
        },
        attempting: {
          invoke: {
            id: 'openLink',
            src: 'openLink',
            input: deviceRef,
            onDone: {
              target: '#deviceConnection.open',
              actions: assign({ openedAt: ({ event }) => event.output.openedAt, error: null }),
            },
            onError: {
              target: 'waiting',
              actions: [
                'countAttempt',
                assign({
                  error: ({ event }) => errorText(event.error, DEVICE_CONNECTION_TEXTS.cannotConnect),
                }),
              ],
            },
          },
          after: {
            connectionTimeout: { target: 'waiting', actions: 'countAttempt' },
          },
          on: {
            'device.presence': { actions: 'notePresence' },
          },
        },
      },
    },
    closed: {
      tags: ['connectable'],
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
      tags: ['error', 'connectable'],
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
