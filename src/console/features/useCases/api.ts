/**
 * The use-case screens' calls (issue 11; src/protocol/analytics.ts), bound to the platform when the feature's
 * actors start (after sign-in):
 * - `dataLogic(kind)`: the data reader machine (machines/useCases/useCaseData.machine.ts) with its read —
 *   GET use-cases/:id/counts | people (a window: from, to, bucket_seconds) or vehicles (q, limit);
 * - `cameraStill(deviceId, cameraId)`: a still of the camera to draw the counting line on (§7
 *   getOneFrameFromPhysicalCamera over the device link; the device pool connects the device first, §8 "Could
 *   not get an answer from the device" after DEVICE_OPEN_WAIT_MS).
 */
import { fromPromise, type AnyActorRef } from 'xstate';
import type { DevicePoolEvent } from '../../../../machines/devices/devicePool.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { useCaseDataMachine } from '../../../../machines/useCases/useCaseData.machine';
import type { CountsAnswer, PeopleAnswer, UseCase, VehiclesAnswer } from '../../../protocol/analytics';
import { INFERENCE_TEXTS } from '../../../protocol/inference';
import type { Platform } from '../feature';
import { liveWindow, type WindowQuery } from './views';

/** How long the still waits for the device's link to open, ms. */
export const DEVICE_OPEN_WAIT_MS = 15_000;

type SystemLike = { get(id: string): AnyActorRef | undefined };
let platform: Platform | null = null;
let rootSystem: SystemLike | null = null;

/** Called by actors.ts when the feature starts. */
export function bindUseCasesApi(p: Platform, system: SystemLike | null): void {
  platform = p;
  if (system) rootSystem = system;
}

const need = (): Platform => {
  if (!platform) throw new Error('useCases: not started');
  return platform;
};

/** A counts or people read: the use case and its window. */
export interface WindowRead {
  id: string;
  window: WindowQuery;
  /** Live: the window is the use case's start to the moment of each read (views.ts liveWindow). */
  live?: Pick<UseCase, 'created_at' | 'interval_seconds'>;
}
/** A vehicles read: the use case and the plate search. */
export interface VehiclesRead {
  id: string;
  q: string;
}

export type DataKind = 'counts' | 'people' | 'vehicles';
export type AnswerOf<K extends DataKind> = K extends 'counts'
  ? CountsAnswer
  : K extends 'people'
    ? PeopleAnswer
    : VehiclesAnswer;

/** Vehicles listed at most. */
export const VEHICLES_LIMIT = 500;

/** The data reader for one kind of answer, with its real call. */
export function dataLogic(kind: DataKind) {
  return useCaseDataMachine.provide({
    actors: {
      fetchData: fromPromise<unknown, unknown>(async ({ input, signal }) => {
        const { http } = need();
        if (kind === 'vehicles') {
          const r = input as VehiclesRead;
          return http.call('useCases.vehicles', {
            params: { id: r.id },
            query: { q: r.q, limit: VEHICLES_LIMIT },
            signal,
          });
        }
        const r = input as WindowRead;
        const window = r.live ? liveWindow(r.live, Date.now()) : r.window;
        return kind === 'counts'
          ? http.call('useCases.counts', { params: { id: r.id }, query: window, signal })
          : http.call('useCases.people', { params: { id: r.id }, query: window, signal });
      }),
    },
  });
}

/** Resolves once the device's link is open (asking the device pool to connect it). */
async function connect(deviceId: string): Promise<void> {
  const { http } = need();
  const pool = rootSystem?.get(SYSTEM_IDS.devicePool);
  if (!pool) throw new Error('Devices are not loaded.');
  const statusOf = () =>
    (pool.getSnapshot() as { context?: { status?: Record<string, string> } }).context?.status?.[deviceId];
  if (statusOf() === 'open') return;
  if (statusOf() !== 'opening' && statusOf() !== 'reconnecting') {
    const list = await http.call('devices.list', { query: { per_page: 100 } });
    const device = list.res.find((d) => d.device_id === deviceId);
    if (!device) throw new Error(INFERENCE_TEXTS.noAnswer);
    pool.send({ type: 'device.connect', device } satisfies DevicePoolEvent);
  }
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.unsubscribe();
      reject(new Error(INFERENCE_TEXTS.noAnswer));
    }, DEVICE_OPEN_WAIT_MS);
    const sub = pool.subscribe(() => {
      if (statusOf() !== 'open') return;
      clearTimeout(timer);
      sub.unsubscribe();
      resolve();
    });
  });
}

/** A still of a device's camera (image data URL). */
export async function cameraStill(deviceId: string, cameraId: string): Promise<string> {
  await connect(deviceId);
  const r = await need().peerLink.callDevice(deviceId, 'getOneFrameFromPhysicalCamera', {
    camera_id: cameraId,
  });
  return r.image;
}
