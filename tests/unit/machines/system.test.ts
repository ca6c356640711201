import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  fromPromise,
  type ActorRefFrom,
  type AnyActorLogic,
  type EventObject,
} from 'xstate';
import { authMachine, type LoginInput, type StoredSession } from '../../../machines/accounts/auth.machine';
import type { LoginResponse } from '../../../src/protocol/rest';
import {
  deviceConnectionMachine,
  type DeviceInfo,
  type DeviceRef,
} from '../../../machines/devices/deviceConnection.machine';
import { devicePoolMachine } from '../../../machines/devices/devicePool.machine';
import { devicesTableMachine } from '../../../machines/devices/devicesTable.machine';
import { signalMachine, type SignalInput } from '../../../machines/signalling/signal.machine';
import { streamMachine } from '../../../machines/cameras/stream.machine';
import {
  cameraGridMachine,
  type LoadedLayout,
  type RequestCheckInput,
} from '../../../machines/cameras/cameraGrid.machine';
import { openerMachine } from '../../../machines/cameras/opener.machine';
import { systemMachine } from '../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { composeConsole } from '../../../src/console/system';
import { flush, makeCamera, makeDevice, user } from './fixtures';

function build() {
  const log: string[] = [];
  const machine = systemMachine.provide({
    actors: {
      auth: authMachine.provide({
        actors: {
          restoreSession: fromPromise<StoredSession | null>(async () => null),
          login: fromPromise<LoginResponse, LoginInput>(async () => ({
            status: 2 as const,
            token: 'access-1',
            refresh_token: 'refresh-1',
            user_info: user,
          })),
          logout: fromPromise<void, { token: string | null }>(async () => undefined),
        },
        actions: { clearSession: () => log.push('storage cleared') },
      }),
    },
  });
  // The console's features, as the composition root starts them (systemIds, inputs, sign-in and sign-out
  // events), with fake implementations.
  const fakes: Record<string, AnyActorLogic> = {
    signal: signalMachine.provide({
      actors: {
        openSignalling: fromPromise<void, SignalInput>(async () => undefined),
        watchSignalling: fromCallback(() => () => undefined),
      },
      actions: { closeSignalling: () => log.push('signalling closed') },
    }),
    devicesTable: devicesTableMachine.provide({
      actors: {
        loadDevices: fromPromise(async () => ({
          res: [makeDevice(1)],
          total_items: 1,
          active_devices_count: 1,
        })),
      },
    }),
    devicePool: devicePoolMachine.provide({
      actors: {
        deviceConnection: deviceConnectionMachine.provide({
          actors: {
            openLink: fromPromise(async () => ({ openedAt: 1 })),
            watchLink: fromCallback(
              ({ input }) =>
                () =>
                  log.push(`link closed ${input.deviceId}`),
            ),
            pingDevice: fromPromise(() => new Promise<{ rttMs: number }>(() => undefined)),
            loadDeviceInfo: fromPromise<DeviceInfo, DeviceRef>(() => new Promise(() => undefined)),
          },
        }),
      },
    }),
    streams: cameraGridMachine.provide({
      actors: {
        loadLayout: fromPromise<LoadedLayout, void>(async () => {
          log.push('layout loaded');
          return { streams: [], devices: [], ipCameras: [] };
        }),
        saveLayout: fromPromise(async () => {
          log.push('layout saved');
        }),
        opener: openerMachine.provide({
          actors: {
            checkRequest: fromCallback<EventObject, RequestCheckInput>(({ input, sendBack }) => {
              void Promise.resolve().then(() =>
                sendBack({
                  type: 'opener.checked',
                  checkId: input.checkId,
                  requestId: input.requestId,
                  quotaAvailable: true,
                  quotaError: null,
                  usage: { in_use: false, processes: [] },
                }),
              );
            }),
          },
        }),
        stream: streamMachine.provide({
          actors: {
            // A session that never answers: streams stay connecting.
            streamSession: fromCallback(() => () => undefined),
          },
        }),
      },
    }),
  };
  // A transport whose every call answers something that is both a pending promise and an unsubscribe
  // function: nothing is ever answered, and what subscribes can unsubscribe.
  const pending: (() => void) & PromiseLike<never> & { catch(): unknown; finally(): unknown } = Object.assign(
    () => undefined,
    { then: () => pending, catch: () => pending, finally: () => pending },
  );
  const anything = new Proxy({}, { get: () => () => pending });
  const platform = { browserId: 'web-test', http: anything, peerLink: anything, session: anything } as never;
  const features = composeConsole(platform).input.features.map((f) => ({
    ...f,
    logic: fakes[f.systemId] ?? f.logic,
  }));
  const system = createActor(machine, { input: { browserId: 'web-test', features } });
  const get = <T>(id: string) => system.system.get(id) as T;
  return { system, log, get };
}

describe('console system', () => {
  it("starts notifications, auth and the features' signal, devicesTable, devicePool and streams under their systemIds", async () => {
    const { system, get } = build();
    system.start();
    await flush();
    const eager = [SYSTEM_IDS.notifications, SYSTEM_IDS.auth, SYSTEM_IDS.signal, SYSTEM_IDS.devicesTable];
    for (const id of [...eager, SYSTEM_IDS.devicePool, SYSTEM_IDS.streams]) expect(get(id)).toBeDefined();
    // Features with loadActors (containers…) start after sign-in (tests/unit/console/featureLoader.test.ts).
    expect(get(SYSTEM_IDS.containers)).toBeUndefined();
    expect(get<ActorRefFrom<typeof authMachine>>(SYSTEM_IDS.auth).getSnapshot().matches('signedOut')).toBe(
      true,
    );
  });

  it('connects signalling, loads the devices table and the camera layout on sign-in', async () => {
    const { system, get, log } = build();
    system.start();
    await flush();
    get<ActorRefFrom<typeof authMachine>>(SYSTEM_IDS.auth).send({
      type: 'auth.login',
      email: 'demo@example.com',
      password: 'pw',
    });
    await flush();
    expect(system.getSnapshot().value).toBe('signedIn');
    expect(get<ActorRefFrom<typeof signalMachine>>(SYSTEM_IDS.signal).getSnapshot().value).toBe('connected');
    const table = get<ActorRefFrom<typeof devicesTableMachine>>(SYSTEM_IDS.devicesTable).getSnapshot();
    expect(table.value).toBe('ready');
    expect(table.context.rows).toHaveLength(1);
    expect(log).toContain('layout loaded');
  });

  it('on logout disconnects signalling, closes every device link and stream and clears the stores', async () => {
    const { system, get, log } = build();
    system.start();
    await flush();
    const auth = get<ActorRefFrom<typeof authMachine>>(SYSTEM_IDS.auth);
    auth.send({ type: 'auth.login', email: 'demo@example.com', password: 'pw' });
    await flush();
    const pool = get<ActorRefFrom<typeof devicePoolMachine>>(SYSTEM_IDS.devicePool);
    const device = makeDevice(7);
    pool.send({ type: 'device.connect', device });
    await flush();
    const streams = get<ActorRefFrom<typeof cameraGridMachine>>(SYSTEM_IDS.streams);
    streams.send({ type: 'stream.open', deviceId: device.device_id, camera: makeCamera(device.device_id) });
    await flush();
    expect(streams.getSnapshot().context.entries).toHaveLength(1);

    auth.send({ type: 'auth.logout' });
    await flush();

    expect(system.getSnapshot().value).toBe('signedOut');
    expect(auth.getSnapshot().context.token).toBeNull();
    expect(get<ActorRefFrom<typeof signalMachine>>(SYSTEM_IDS.signal).getSnapshot().value).toBe('none');
    expect(pool.getSnapshot().context.connections).toEqual({});
    expect(streams.getSnapshot().context.entries).toEqual([]);
    expect(log.filter((l) => l === 'layout saved')).toEqual([]);
    const table = get<ActorRefFrom<typeof devicesTableMachine>>(SYSTEM_IDS.devicesTable).getSnapshot();
    expect(table.value).toBe('idle');
    expect(table.context.rows).toEqual([]);
    expect(log).toEqual(
      expect.arrayContaining(['storage cleared', 'signalling closed', `link closed ${device.device_id}`]),
    );
  });
});
