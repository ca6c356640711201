/**
 * The faces feature's actors: the gallery machine (systemId 'faces': GET faces and faces/seen, POST
 * faces/from-event and faces/upload, PUT / DELETE faces/:id) and the face alarms timeline (systemId
 * 'faceAlarms': GET faces/alarm-events with the gallery for the person filter, POST events/review).
 *
 * Every change to the gallery can change the blacklist, and every face alarm a device holds carries the
 * blacklisted identities (src/server/alarms/store.ts), so after each one `alarm-new` (§7) goes again, with
 * GET alarms/device/:id, to every device in the device pool's connected list (a link being restored is waited
 * for): a running job's face alarm fires on a newly blacklisted person without the alarm being saved again. A
 * device that is not connected gets the list when its agent starts (it asks the server) or with its next job's
 * start (§4 step 1).
 */
import { fromPromise, type AnyActorRef } from 'xstate';
import {
  faceAlarmsMachine,
  type FaceEventsInput,
  type FaceEventsLoaded,
} from '../../../../machines/faces/faceAlarms.machine';
import { facesMachine } from '../../../../machines/faces/faces.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { facesApi } from './api';

type SystemLike = { get(id: string): AnyActorRef | undefined };

/** How long a device whose link is being opened or restored is waited for, ms. */
export const SYNC_DEVICE_WAIT_MS = 20_000;

type PoolSnapshot = { context?: { status?: Record<string, string>; order?: string[] } };
const poolOf = (system: SystemLike) => system.get(SYSTEM_IDS.devicePool);
const statusIn = (pool: AnyActorRef, id: string) =>
  (pool.getSnapshot() as PoolSnapshot).context?.status?.[id];

/** The devices in the pool's connected list (link open, opening or being restored). */
function connectedDevices(system: SystemLike): string[] {
  const ctx = (poolOf(system)?.getSnapshot() as PoolSnapshot | undefined)?.context;
  const status = ctx?.status ?? {};
  return [...new Set([...(ctx?.order ?? []), ...Object.keys(status).filter((id) => status[id] === 'open')])];
}

/** Resolves once the device's link is open; rejects after `ms` or when it is given up (closed, errored). */
function linkOpen(system: SystemLike, deviceId: string, ms = SYNC_DEVICE_WAIT_MS): Promise<void> {
  const pool = poolOf(system);
  if (!pool) return Promise.reject(new Error('Devices are not loaded.'));
  if (statusIn(pool, deviceId) === 'open') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error) => {
      clearTimeout(timer);
      sub.unsubscribe();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error('link not open')), ms);
    const sub = pool.subscribe(() => {
      const st = statusIn(pool, deviceId);
      if (st === 'open') done();
      else if (st === 'closed' || st === 'errored') done(new Error(`link ${st}`));
    });
  });
}

/**
 * Sends each connected device its alarm list again (alarm-new), waiting up to SYNC_DEVICE_WAIT_MS for a link
 * being opened or restored; a device that still fails is left for later (it asks when its agent starts).
 */
export async function syncDevices(platform: Platform, system: SystemLike): Promise<void> {
  await Promise.all(
    connectedDevices(system).map(async (deviceId) => {
      try {
        await linkOpen(system, deviceId);
        const list = await platform.http.call('alarms.forDevice', { params: { device_id: deviceId } });
        await platform.peerLink.callDevice(deviceId, 'alarm-new', list);
      } catch {
        // Not this user's device any more, or its link closed: it asks for the list when it starts.
      }
    }),
  );
}

export function facesActors(platform: Platform): FeatureActor[] {
  const api = facesApi(platform.http);
  const synced = async <T>(system: unknown, change: Promise<T>): Promise<T> => {
    const out = await change;
    await syncDevices(platform, system as SystemLike);
    return out;
  };
  const loadPage = fromPromise<FaceEventsLoaded, FaceEventsInput>(async ({ input, signal }) => {
    const [page, faces] = await Promise.all([
      api.alarmEvents(
        {
          ...(input.identity ? { identity: input.identity } : {}),
          ...(input.before ? input.before : {}),
        },
        signal,
      ),
      api.list(signal),
    ]);
    return { page, people: faces.map((f) => ({ identity: f.identity, label: f.label })) };
  });
  return [
    featureActor({
      systemId: SYSTEM_IDS.faces,
      logic: facesMachine.provide({
        actors: {
          loadFaces: fromPromise(async ({ signal }) => {
            const [faces, seen] = await Promise.all([api.list(signal), api.seen(signal)]);
            return { faces, seen: seen.events, identities: seen.identities };
          }),
          enrollFace: fromPromise(({ input, signal, system }) =>
            synced(
              system,
              api.enrollFromEvent(
                { event_id: input.eventId, label: input.label, blacklisted: input.blacklisted },
                signal,
              ),
            ),
          ),
          uploadFace: fromPromise(({ input, signal, system }) => synced(system, api.upload(input, signal))),
          updateFace: fromPromise(({ input, signal, system }) =>
            synced(
              system,
              api.update(
                input.id,
                {
                  ...(input.label !== undefined ? { label: input.label } : {}),
                  ...(input.blacklisted !== undefined ? { blacklisted: input.blacklisted } : {}),
                },
                signal,
              ),
            ),
          ),
          deleteFace: fromPromise(({ input, signal, system }) =>
            synced(system, api.remove(input.id, signal)),
          ),
        },
      }),
      onSignOut: [{ type: 'faces.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.faceAlarms,
      logic: faceAlarmsMachine.provide({
        actors: {
          loadFaceEvents: loadPage,
          loadMoreFaceEvents: loadPage,
          reviewEvent: fromPromise(async ({ input, signal }) => {
            await api.review(input.id, input.reviewed, signal);
            return input;
          }),
        },
      }),
      onSignOut: [{ type: 'faceAlarms.reset' }],
    }),
  ];
}
