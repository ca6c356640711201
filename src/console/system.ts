/**
 * The console's running actor system — ARCHITECTURE "Console state: the actor system".
 *
 * `createConsoleSystem()` builds the services (REST client, session storage, PeerJS link, stream sessions),
 * gives them to the pure machines with `.provide()` and starts `systemMachine`. Views find the long-lived
 * actors with the get*Ref helpers (typed) or `system.system.get(SYSTEM_IDS.x)`; they never call REST or
 * PeerJS themselves. Nothing heavy is imported here: peerjs is loaded on the first signalling connect.
 */
import { createActor, fromCallback, fromPromise, type Actor, type ActorRefFrom } from 'xstate';
import { authMachine } from '../../machines/accounts/auth.machine';
import {
  deviceConnectionMachine,
  type DeviceInfo,
  type HealthSample,
} from '../../machines/devices/deviceConnection.machine';
import { devicePoolMachine } from '../../machines/devices/devicePool.machine';
import { devicesTableMachine } from '../../machines/devices/devicesTable.machine';
import { signalMachine } from '../../machines/signalling/signal.machine';
import { cameraGridMachine, GRID_TEXTS, type LoadedLayout } from '../../machines/cameras/cameraGrid.machine';
import { errorText } from '../../machines/notifications/emitted';
import { PRESENCE_POLL_MS } from '../../machines/devices/deviceConnection.machine';
import { streamMachine } from '../../machines/cameras/stream.machine';
import { systemMachine } from '../../machines/system.machine';
import { SYSTEM_IDS } from '../../machines/systemIds';
import { DEVICE_PING_TIMEOUT_MS, X86_CHIPSET_ID } from '../protocol/constants';
import { createApiClient, createAuthBridge, type ApiClient } from './platform/http';
import { createDevInspector } from './shell/inspect';
import { createBrowserId, createPeerLink, type PeerLink, type PeerLinkOptions } from './platform/peerLink';
import {
  browserStorage,
  createSessionStore,
  type KeyValueStorage,
  type SessionStore,
} from './platform/storage';
import type * as StreamMediaModule from './features/cameras/streamMedia';
import { createStreamSessions, type StreamSessions } from './features/cameras/streamSession';

/** The started root actor. */
export type ConsoleSystem = Actor<typeof systemMachine>;

export type AuthRef = ActorRefFrom<typeof authMachine>;
export type SignalRef = ActorRefFrom<typeof signalMachine>;
export type DevicesTableRef = ActorRefFrom<typeof devicesTableMachine>;
export type DevicePoolRef = ActorRefFrom<typeof devicePoolMachine>;
export type StreamsRef = ActorRefFrom<typeof cameraGridMachine>;

const must = <T>(ref: T | undefined, id: string): T => {
  if (!ref) throw new Error(`console system: actor '${id}' is not running`);
  return ref;
};

/** The auth actor (§4 Auth). */
export const getAuthRef = (system: ConsoleSystem): AuthRef =>
  must(system.system.get(SYSTEM_IDS.auth) as AuthRef | undefined, SYSTEM_IDS.auth);
/** The signal actor (§4 Signal connection status). */
export const getSignalRef = (system: ConsoleSystem): SignalRef =>
  must(system.system.get(SYSTEM_IDS.signal) as SignalRef | undefined, SYSTEM_IDS.signal);
/** The devices table actor (§7 get_devices/, §9 defaults). */
export const getDevicesTableRef = (system: ConsoleSystem): DevicesTableRef =>
  must(system.system.get(SYSTEM_IDS.devicesTable) as DevicesTableRef | undefined, SYSTEM_IDS.devicesTable);
/** The device pool actor (§4 Device connection, limit 50). */
export const getDevicePoolRef = (system: ConsoleSystem): DevicePoolRef =>
  must(system.system.get(SYSTEM_IDS.devicePool) as DevicePoolRef | undefined, SYSTEM_IDS.devicePool);
/** The camera grid actor (systemId 'streams'). */
export const getStreamsRef = (system: ConsoleSystem): StreamsRef =>
  must(system.system.get(SYSTEM_IDS.streams) as StreamsRef | undefined, SYSTEM_IDS.streams);

/**
 * Runs `start` with streamMedia.ts (MediaRecorder, getStats summaries), loaded on first use so the /login
 * bundle does not ship it. Returns a clean-up that stops what `start` began (or skips it if not begun yet).
 */
function withStreamMedia(start: (m: typeof StreamMediaModule) => () => void, onLoadError: () => void) {
  let stop: (() => void) | null = null;
  let cancelled = false;
  import('./features/cameras/streamMedia')
    .then((m) => {
      if (!cancelled) stop = start(m);
    })
    .catch(() => {
      if (!cancelled) onLoadError();
    });
  return () => {
    cancelled = true;
    stop?.();
  };
}

/** The services the machines' side effects run on. */
export interface ConsoleServices {
  api: ApiClient;
  session: SessionStore;
  peerLink: PeerLink;
  streams: StreamSessions;
}

/**
 * Gives the machines their side effects. Exported so tests and tools can run the real machine tree on
 * fake services.
 */
export function provideConsoleMachine(services: ConsoleServices) {
  const { api, session, peerLink, streams } = services;

  const auth = authMachine.provide({
    actors: {
      restoreSession: fromPromise(async () => {
        const stored = session.read();
        if (!stored || stored.user) return stored;
        // Tokens without the user: ask the server once; a refused token is dealt with by the next request.
        const user = await api.userInfo(stored.token).catch(() => null);
        if (user) session.write({ ...stored, user });
        return { ...stored, user };
      }),
      login: fromPromise(async ({ input }) => api.login(input)),
      refreshToken: fromPromise(async ({ input }) => api.refreshAccessToken(input.refreshToken)),
      logout: fromPromise(async ({ input }) => {
        await api.logout(input.token).catch(() => undefined);
      }),
    },
    actions: {
      persistSession: (_, params) => session.write(params),
      clearSession: () => session.clear(),
    },
  });

  const signal = signalMachine.provide({
    actors: {
      openSignalling: fromPromise(async () => peerLink.open()),
      watchSignalling: fromCallback(({ sendBack }) =>
        peerLink.onLost((error) => sendBack({ type: 'signal.lost', error })),
      ),
    },
    actions: {
      closeSignalling: () => peerLink.close(),
    },
  });

  const devicesTable = devicesTableMachine.provide({
    actors: {
      loadDevices: fromPromise(async ({ input, signal: abort }) => api.getDevices(input, abort)),
    },
  });

  const deviceConnection = deviceConnectionMachine.provide({
    actors: {
      openLink: fromPromise(async ({ input, signal: abort }) => ({
        openedAt: await peerLink.openDevice(input.deviceId, abort),
      })),
      watchLink: fromCallback(({ input, sendBack }) => {
        const off = peerLink.onDeviceClosed(input.deviceId, (reason) =>
          sendBack({ type: 'device.link.closed', reason }),
        );
        return () => {
          off();
          peerLink.closeDevice(input.deviceId);
        };
      }),
      watchPresence: fromCallback(({ input, sendBack }) => {
        // §9 presence: polled fast only while reconnecting, one request at a time.
        const controller = new AbortController();
        let busy = false;
        const timer = setInterval(() => {
          if (busy) return;
          busy = true;
          api
            .checkDeviceExists(input.deviceId, controller.signal)
            .then((exists) => sendBack({ type: 'device.presence', exists }))
            .catch(() => undefined)
            .finally(() => {
              busy = false;
            });
        }, PRESENCE_POLL_MS);
        return () => {
          clearInterval(timer);
          controller.abort();
        };
      }),
      pingDevice: fromPromise(async ({ input }) => {
        const started = performance.now();
        // The machine decides the 5 s time-out; the call's own bound is only a backstop.
        await peerLink.callDevice(input.deviceId, 'ping', {}, { timeoutMs: DEVICE_PING_TIMEOUT_MS + 1_000 });
        return { rttMs: performance.now() - started };
      }),
      checkDeviceExists: fromPromise(async ({ input, signal: abort }) =>
        api.checkDeviceExists(input.deviceId, abort),
      ),
      loadDeviceInfo: fromPromise(async ({ input }): Promise<DeviceInfo> => {
        const call = peerLink.callDevice.bind(peerLink);
        const isX86 = input.chipsetId === X86_CHIPSET_ID;
        const [version, cameraList, x86Info, jtop] = await Promise.all([
          call(input.deviceId, 'get-client-version', {}),
          call(input.deviceId, 'camera-list', {}),
          isX86
            ? call(input.deviceId, 'x86-device-information', {}).catch(() => null)
            : Promise.resolve(null),
          isX86 ? Promise.resolve(null) : call(input.deviceId, 'jtop-health', {}).catch(() => null),
        ]);
        return { clientVersion: version.version, cameras: cameraList.cameras, x86Info, jtop };
      }),
      sampleHealth: fromPromise(async ({ input }): Promise<HealthSample> => {
        const [health, usage] = await Promise.all([
          peerLink.callDevice(input.deviceId, 'check-health', {}),
          peerLink.callDevice(input.deviceId, 'get-usages', {}),
        ]);
        return { health, usage };
      }),
    },
    actions: {
      closeLink: (_, params) => peerLink.closeDevice(params.deviceId),
    },
  });

  const stream = streamMachine.provide({
    actors: {
      startStream: fromPromise(async ({ input, signal: abort }) => streams.start(input, abort)),
      resumeStream: fromPromise(async ({ input }) => streams.resume(input.streamId)),
      watchStream: fromCallback(({ input, sendBack }) =>
        streams.watch(input.streamId, (error) => sendBack({ type: 'stream.ended', error })),
      ),
      recordStream: fromCallback(({ input }) =>
        // The file is reported to the stream actor itself, also after this actor stopped (stop = save).
        withStreamMedia(
          (m) =>
            m.startRecording(input.mediaStream, input.fileStem, (outcome) =>
              input.owner.send(
                outcome.ok
                  ? { type: 'record.saved', file: outcome.file }
                  : { type: 'record.failed', error: outcome.error },
              ),
            ),
          () => input.owner.send({ type: 'record.failed', error: 'Recording is not available.' }),
        ),
      ),
      pollStats: fromCallback(({ input, sendBack }) =>
        withStreamMedia(
          (m) =>
            m.pollStreamStats(
              () => streams.peerConnection(input.streamId),
              input.intervalMs,
              (stats) => sendBack({ type: 'stats.sample', stats }),
            ),
          () => undefined,
        ),
      ),
    },
    actions: {
      releaseStream: (_, params) => streams.release(params.streamId),
      holdStream: (_, params) => streams.hold(params.streamId),
      revokeRecording: (_, params) => {
        if (params.url) URL.revokeObjectURL(params.url);
      },
    },
  });

  const call = peerLink.callDevice.bind(peerLink);
  const grid = cameraGridMachine.provide({
    actors: {
      stream,
      loadLayout: fromPromise(async ({ signal: abort }): Promise<LoadedLayout> => {
        const [layout, ipCameras] = await Promise.all([
          api.getCameraLayout(abort),
          api.getIpCameras(abort).catch(() => []),
        ]);
        const ids = [...new Set(layout.streams.map((s) => s.deviceId))];
        const devices = ids.length ? await api.getDevicesByIds(ids, abort) : [];
        return { streams: layout.streams, devices, ipCameras };
      }),
      saveLayout: fromPromise(async ({ input, signal: abort }) => api.putCameraLayout(input.streams, abort)),
      checkRequest: fromCallback(({ input, sendBack }) => {
        const abort = new AbortController();
        void Promise.allSettled([
          api.checkStreamLimit(input.deviceId, input.numOfCameras, abort.signal),
          call(input.deviceId, 'check-camera-usage', { camera_id: input.cameraId }),
        ]).then(([quota, usage]) => {
          if (abort.signal.aborted) return;
          sendBack({
            type: 'opener.checked',
            checkId: input.checkId,
            requestId: input.requestId,
            quotaAvailable: quota.status === 'fulfilled' && quota.value,
            quotaError:
              quota.status === 'rejected' ? errorText(quota.reason, GRID_TEXTS.quotaExceeded) : null,
            usage: usage.status === 'fulfilled' ? usage.value : null,
          });
        });
        return () => abort.abort();
      }),
      loadPhotos: fromPromise(async ({ input }) => {
        const photos = await Promise.all(
          input.candidates.map((c) =>
            call(c.deviceId, 'getOneFrameFromPhysicalCamera', { camera_id: c.camera.camera_id })
              .then((r) => [c.deviceId, r.image] as const)
              .catch(() => [c.deviceId, null] as const),
          ),
        );
        return Object.fromEntries(photos);
      }),
      forceKill: fromPromise(
        async ({ input }) =>
          (await call(input.deviceId, 'force-kill-stream', { camera_id: input.cameraId })).result,
      ),
      loadResolutions: fromPromise(
        async ({ input }) =>
          (await call(input.deviceId, 'get-supported-resolutions', { camera_id: input.cameraId }))
            .resolutions,
      ),
    },
  });

  return systemMachine.provide({
    actors: {
      auth,
      signal,
      devicesTable,
      devicePool: devicePoolMachine.provide({ actors: { deviceConnection } }),
      streams: grid,
    },
  });
}

export interface ConsoleSystemOptions {
  /** Open the Stately inspector (development builds only, and only with local storage 'inspect' = '1'). */
  inspect?: boolean;
  /** Session storage (default window.localStorage). */
  storage?: KeyValueStorage | null;
  /** fetch for the REST client (default the global fetch). */
  fetch?: typeof globalThis.fetch;
  /** This tab's peer id (default 'web-' + random). */
  browserId?: string;
  /** PeerJS factory and location (tests). */
  peer?: Pick<PeerLinkOptions, 'createPeer' | 'location'>;
  /**
   * Expose `window.__edgeConsole = { system, callDevice }` (benchmarks and support; main.tsx sets it when
   * local storage 'edge.debug' is '1'). It gives the page nothing the signed-in user does not have already.
   */
  debugGlobal?: boolean;
}

/**
 * Creates and starts the console's actor system. On start, auth restores a stored session; a signed-in
 * session connects signalling and loads the devices table.
 */
export function createConsoleSystem(options: ConsoleSystemOptions = {}): ConsoleSystem {
  const browserId = options.browserId ?? createBrowserId();
  let root: ConsoleSystem | null = null;
  const bridge = createAuthBridge(() => getAuthRef(must(root ?? undefined, 'system')));
  const api = createApiClient({ bridge, fetch: options.fetch });
  const peerLink = createPeerLink({ browserId, api, ...options.peer });
  const streams = createStreamSessions({
    callDevice: peerLink.callDevice.bind(peerLink),
    getIceServers: () => peerLink.iceServers,
    onDeviceEvent: (listener) => peerLink.onDeviceEvent(listener),
  });
  const session = createSessionStore(options.storage === undefined ? browserStorage() : options.storage);
  const machine = provideConsoleMachine({ api, session, peerLink, streams });
  root = createActor(machine, {
    input: { browserId },
    inspect: options.inspect ? createDevInspector() : undefined,
  });
  root.start();
  if (options.debugGlobal) {
    (globalThis as { __edgeConsole?: unknown }).__edgeConsole = {
      system: root,
      callDevice: peerLink.callDevice.bind(peerLink),
    };
  }
  return root;
}
