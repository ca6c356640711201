/**
 * The faces feature's actors: the gallery machine (systemId 'faces': GET faces and faces/seen, POST
 * faces/from-event and faces/upload, PUT / DELETE faces/:id) and the face alarms timeline (systemId
 * 'faceAlarms': GET faces/alarm-events with the gallery for the person filter, POST events/review).
 *
 * Every change to the gallery can change the blacklist, and every face alarm a device holds carries the
 * blacklisted identities (src/server/alarms/store.ts), so after each one `alarm-new` (§7) goes again, with
 * GET alarms/device/:id, to every device whose link is open: a running job's face alarm fires on a newly
 * blacklisted person without the alarm being saved again. A device that is not connected gets the list when
 * its agent starts (it asks the server) or with its next job's start (§4 step 1).
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

/** The peer ids of the devices whose link is open in the device pool. */
function openDevices(system: SystemLike): string[] {
  const pool = system.get(SYSTEM_IDS.devicePool);
  const status =
    (pool?.getSnapshot() as { context?: { status?: Record<string, string> } } | undefined)?.context?.status ??
    {};
  return Object.keys(status).filter((id) => status[id] === 'open');
}

/** Sends each connected device its alarm list again (alarm-new); a device that fails is left for later. */
export async function syncDevices(platform: Platform, system: SystemLike): Promise<void> {
  await Promise.all(
    openDevices(system).map(async (deviceId) => {
      try {
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
