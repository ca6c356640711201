/**
 * The demo apps' side effects (machines/demoApps/*.machine.ts): the user's devices (GET /api/get_devices/),
 * a device's link opened through the device pool (systemId 'devicePool'), camera-list and demo-apps-info, the
 * camera's live stream (the camera page's stream session, cameras/streamSession.ts), and the apps' device
 * commands: nanoowl-detect polled every OWL_POLL_MS, llava-chat with its streamed tokens, speed-measure and
 * city-observe polled every MEASURE_POLL_MS.
 */
import { fromCallback, fromPromise, type AnyActorRef } from 'xstate';
import { aiPlatformMachine, type PlatformDevice } from '../../../../machines/demoApps/aiPlatform.machine';
import {
  demoAppMachine,
  type DemoAppEvent,
  type DemoDevice,
  type DetectLoopInput,
  type LiveCameraInput,
} from '../../../../machines/demoApps/demoApp.machine';
import { demoAppsMachine } from '../../../../machines/demoApps/demoApps.machine';
import type { DevicePoolEvent } from '../../../../machines/devices/devicePool.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { DeviceCamera } from '../../../protocol/cameras';
import type { Device } from '../../../protocol/devices';
import type { Platform } from '../feature';
import { openStreamSession, type StreamSessionDeps } from '../cameras/streamSession';

/** How often NanoOWL boxes are asked for, ms. */
export const OWL_POLL_MS = 150;
/** How often speed and IBB results are read, ms. */
export const MEASURE_POLL_MS = 1_000;
/** Look-back of one speed poll, ms: longer than any vehicle takes between the lines; passes are merged. */
export const SPEED_WINDOW_MS = 20_000;
/** How long a pick waits for its device's link to open, ms. */
export const DEVICE_OPEN_WAIT_MS = 15_000;
/** §8 "Could not get an answer from the device". */
const NO_ANSWER = 'Could not get an answer from the device';

type SystemLike = { get(id: string): AnyActorRef | undefined };
const knownDevices = new Map<string, Device>();
const knownCameras = new Map<string, DeviceCamera>();

/** Resolves once the device's link is open (asks the device pool to connect it). */
function ensureDevice(system: SystemLike, deviceId: string): Promise<void> {
  const pool = system.get(SYSTEM_IDS.devicePool);
  if (!pool) return Promise.reject(new Error('Devices are not loaded.'));
  const statusOf = () =>
    (pool.getSnapshot() as { context?: { status?: Record<string, string> } }).context?.status?.[deviceId];
  if (statusOf() === 'open') return Promise.resolve();
  const device = knownDevices.get(deviceId);
  if (device && statusOf() !== 'opening' && statusOf() !== 'reconnecting')
    pool.send({ type: 'device.connect', device } satisfies DevicePoolEvent);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.unsubscribe();
      reject(new Error(NO_ANSWER));
    }, DEVICE_OPEN_WAIT_MS);
    const sub = pool.subscribe(() => {
      if (statusOf() !== 'open') return;
      clearTimeout(timer);
      sub.unsubscribe();
      resolve();
    });
  });
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** Runs `step` now and then every `ms` after it ends, until stopped. */
function pollLoop(ms: number, step: () => Promise<void>): () => void {
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const run = async () => {
    if (stopped) return;
    await step().catch(() => undefined);
    if (!stopped) timer = setTimeout(() => void run(), ms);
  };
  void run();
  return () => {
    stopped = true;
    clearTimeout(timer);
  };
}

export function demoAppsActors({ http, peerLink }: Platform): FeatureActor[] {
  const call = peerLink.callDevice.bind(peerLink);
  const sessionDeps: StreamSessionDeps = {
    callDevice: call,
    getIceServers: () => peerLink.iceServers,
    getIceTransportPolicy: () => peerLink.iceTransportPolicy,
    onDeviceEvent: (listener) => peerLink.onDeviceEvent(listener),
  };

  const loadDevices = async (signal?: AbortSignal): Promise<Device[]> => {
    const r = await http.call('devices.list', { query: { per_page: 100 }, signal });
    for (const d of r.res) knownDevices.set(d.device_id, d);
    return r.res;
  };

  const app = demoAppMachine.provide({
    actors: {
      loadDevices: fromPromise(async ({ signal }) =>
        (await loadDevices(signal)).map((d): DemoDevice => ({ device_id: d.device_id, label: d.label })),
      ),
      connectDevice: fromPromise(async ({ input, system }) => {
        await ensureDevice(system, input.deviceId);
        const [cams, info] = await Promise.all([
          call(input.deviceId, 'camera-list', {}),
          call(input.deviceId, 'demo-apps-info', {}),
        ]);
        for (const c of cams.cameras) knownCameras.set(`${input.deviceId}/${c.camera_id}`, c);
        return {
          cameras: cams.cameras.map((c) => ({ camera_id: c.camera_id, name: c.name })),
          engines: info.apps,
        };
      }),
      liveCamera: fromCallback<DemoAppEvent, LiveCameraInput>(({ input, sendBack }) => {
        const camera = knownCameras.get(`${input.deviceId}/${input.cameraId}`);
        if (!camera) {
          sendBack({ type: 'camera.failed', error: 'Unknown camera.' });
          return () => undefined;
        }
        const session = openStreamSession(
          sessionDeps,
          {
            streamId: `demo-${input.cameraId}-${Math.random().toString(36).slice(2, 8)}`,
            deviceId: input.deviceId,
            camera,
            resolution: null,
          },
          (report) => {
            if (report.type === 'session.started')
              sendBack({ type: 'camera.playing', mediaStream: report.mediaStream });
            else if (report.type === 'session.failed')
              sendBack({ type: 'camera.failed', error: messageOf(report.error) });
            else if (report.type === 'stream.ended')
              sendBack({ type: 'camera.failed', error: 'The stream ended.' });
          },
        );
        return () => session.close();
      }),
      detectLoop: fromCallback<DemoAppEvent, DetectLoopInput>(({ input, sendBack }) =>
        pollLoop(OWL_POLL_MS, async () => {
          try {
            const r = await call(input.deviceId, 'nanoowl-detect', {
              camera_id: input.cameraId,
              prompt: input.prompt,
            });
            sendBack({ type: 'detect.result', result: r });
          } catch (e) {
            sendBack({ type: 'work.failed', error: messageOf(e) });
            await new Promise((r) => setTimeout(r, 1_000));
          }
        }),
      ),
      askLlava: fromCallback(({ input, sendBack }) => {
        let stopped = false;
        call(
          input.deviceId,
          'llava-chat',
          { camera_id: input.cameraId, messages: input.messages },
          {
            onProgress: (data) => {
              const token = (data as { token?: unknown } | null)?.token;
              if (!stopped && typeof token === 'string') sendBack({ type: 'chat.token', token });
            },
          },
        ).then(
          (r) => !stopped && sendBack({ type: 'chat.done', answer: r.answer }),
          (e) => !stopped && sendBack({ type: 'work.failed', error: messageOf(e) }),
        );
        return () => {
          stopped = true;
        };
      }),
      measureLoop: fromCallback(({ input, sendBack }) =>
        pollLoop(MEASURE_POLL_MS, async () => {
          try {
            const r = await call(input.deviceId, 'speed-measure', {
              camera_id: input.cameraId,
              from: Math.max(input.since, Date.now() - SPEED_WINDOW_MS),
              line_a: input.lineA,
              line_b: input.lineB,
              distance_m: input.distanceM,
            });
            sendBack({ type: 'speed.result', passes: r.passes });
          } catch (e) {
            sendBack({ type: 'work.failed', error: messageOf(e) });
          }
        }),
      ),
      observeLoop: fromCallback(({ input, sendBack }) =>
        pollLoop(MEASURE_POLL_MS, async () => {
          try {
            const from = Math.max(input.since, Date.now() - 590_000);
            const r = await call(input.deviceId, 'city-observe', { camera_id: input.cameraId, from });
            sendBack({ type: 'city.result', sightings: r.sightings });
          } catch (e) {
            sendBack({ type: 'work.failed', error: messageOf(e) });
          }
        }),
      ),
    },
  });

  const platform = aiPlatformMachine.provide({
    actors: {
      scanDevices: fromPromise(async ({ signal, system }) => {
        const devices = await loadDevices(signal);
        return Promise.all(
          devices.map(async (d): Promise<PlatformDevice> => {
            const base = { device_id: d.device_id, label: d.label };
            try {
              await ensureDevice(system, d.device_id);
              const info = await call(d.device_id, 'demo-apps-info', {});
              return { ...base, online: true, engines: info.apps, error: null };
            } catch (e) {
              return { ...base, online: false, engines: [], error: messageOf(e) };
            }
          }),
        );
      }),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.demoApps,
      logic: demoAppsMachine.provide({ actors: { demoApp: app, aiPlatform: platform } }),
      onSignOut: [{ type: 'demoApps.reset' }],
    }),
  ];
}
