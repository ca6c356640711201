/**
 * The schedulers feature's actors (issue 10 `/schedulers`; §7 scheduling-calendar-operation): the calendars
 * list (systemId 'schedulers': GET schedulers/calendars + GET /api/jobs; delete = GET …/sync, DELETE, then
 * scheduling-calendar-operation delete on each device that held it) and the edit machine's calls, provided to
 * it when the page opens the editor: save (POST/PUT schedulers/calendars) and send (GET …/sync, then
 * scheduling-calendar-operation update to every device holding one of its jobs; each device's answer, with
 * its state of the calendar: the timer it armed). A device not connected yet is connected through the device
 * pool (systemId 'devicePool') first.
 */
import { fromPromise, type AnyActorRef } from 'xstate';
import type { DevicePoolEvent } from '../../../../machines/devices/devicePool.machine';
import {
  calendarEditMachine,
  type DeviceSyncResult,
} from '../../../../machines/schedulers/calendarEdit.machine';
import { calendarsMachine } from '../../../../machines/schedulers/calendars.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { INFERENCE_TEXTS } from '../../../protocol/inference';
import type { Calendar, CalendarInput } from '../../../protocol/schedulers';
import type { Platform } from '../feature';

/** How long a send waits for a device's link to open, ms. */
export const DEVICE_OPEN_WAIT_MS = 15_000;

type SystemLike = { get(id: string): AnyActorRef | undefined };

let editLogic: typeof calendarEditMachine | null = null;
/** The root system (the device pool lives there); the list actor runs in it. */
let rootSystem: SystemLike | null = null;

/** The edit machine with its real calls, once the feature's actors have started (after sign-in). */
export function calendarEditLogic(): typeof calendarEditMachine {
  if (!editLogic) throw new Error('schedulers: not started');
  return editLogic;
}

const messageOf = (e: unknown) => (e instanceof Error ? e.message : String(e));

export function schedulersActors({ http, peerLink }: Platform): FeatureActor[] {
  const call = peerLink.callDevice.bind(peerLink);

  /** Resolves once the device's link is open (asking the pool to connect it); §8 "Could not get an answer". */
  async function connect(deviceId: string): Promise<void> {
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

  editLogic = calendarEditMachine.provide({
    actors: {
      saveCalendar: fromPromise<Calendar, { id: string | null; draft: CalendarInput }>(({ input, signal }) =>
        input.id
          ? http.call('schedulers.update', { params: { id: input.id }, body: input.draft, signal })
          : http.call('schedulers.create', { body: input.draft, signal }),
      ),
      syncDevices: fromPromise<DeviceSyncResult[], { id: string }>(async ({ input, signal }) => {
        const sync = await http.call('schedulers.sync', { params: { id: input.id }, signal });
        return Promise.all(
          sync.devices.map(async ({ device_id, calendar }): Promise<DeviceSyncResult> => {
            try {
              await connect(device_id);
              const reply = await call(device_id, 'scheduling-calendar-operation', {
                operation: 'update',
                calendar,
              });
              return {
                deviceId: device_id,
                error: null,
                status: reply.calendars.find((c) => c.id === input.id) ?? null,
              };
            } catch (err) {
              return { deviceId: device_id, error: messageOf(err), status: null };
            }
          }),
        );
      }),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.schedulers,
      logic: calendarsMachine.provide({
        actors: {
          loadCalendars: fromPromise(async ({ signal, system }) => {
            rootSystem = system;
            const [list, jobs] = await Promise.all([
              http.call('schedulers.list', { signal }),
              http.call('inference.jobs', { signal }),
            ]);
            return { calendars: list.calendars, jobs: jobs.jobs };
          }),
          deleteCalendar: fromPromise<unknown, { id: string }>(async ({ input, signal }) => {
            const held = await http.call('schedulers.sync', { params: { id: input.id }, signal });
            await http.call('schedulers.delete', { params: { id: input.id }, signal });
            // The devices forget it too; one that cannot be reached keeps it until it is sent again.
            await Promise.all(
              held.devices.map(async ({ device_id }) => {
                try {
                  await connect(device_id);
                  await call(device_id, 'scheduling-calendar-operation', {
                    operation: 'delete',
                    id: input.id,
                  });
                } catch {
                  // not reachable, or it did not hold it
                }
              }),
            );
            return { ok: true };
          }),
        },
      }),
      onSignOut: [{ type: 'schedulers.reset' }],
    }),
  ];
}
