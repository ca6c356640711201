/**
 * The alarms feature's actors: the list machine (systemId 'alarms') with its calls — GET alarms, GET
 * physical-cameras and ip-cameras (the editor's cameras), GET schedulers/calendars (its calendars), POST / PUT
 * alarms, DELETE alarms/:id — and after a save or a delete `alarm-new` (§7) with GET alarms/device/:id to every
 * connected device holding one of the cameras, so running jobs match the new list at once (a device that is
 * not connected gets it at its next start: the agent asks the server, §4 step 1 sends it too).
 * Also the camera still for the zone editor (getOneFrameFromPhysicalCamera through the device pool), and the
 * alarm's channels (GET / PUT alarm-channels/alarms/:id: read for the editor, set after a save).
 */
import { fromPromise, type AnyActorRef } from 'xstate';
import { alarmsMachine, type AlarmCamera } from '../../../../machines/alarms/alarms.machine';
import type { DevicePoolEvent } from '../../../../machines/devices/devicePool.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { getAlarmChannels, setAlarmChannels } from '../alarmChannels/api';
import type { Platform } from '../feature';

/** How long the zone editor waits for a device's link to open, ms. */
export const STILL_DEVICE_WAIT_MS = 15_000;

type SystemLike = { get(id: string): AnyActorRef | undefined };
let platform: Platform | null = null;
let systemRef: SystemLike | null = null;

const statusOf = (pool: AnyActorRef, deviceId: string) =>
  (pool.getSnapshot() as { context?: { status?: Record<string, string> } }).context?.status?.[deviceId];

/** Connects the device through the device pool (when it is not) and resolves once its link is open. */
async function openDevice(deviceId: string): Promise<void> {
  const pool = systemRef?.get(SYSTEM_IDS.devicePool);
  if (!pool || !platform) throw new Error('Devices are not loaded.');
  if (statusOf(pool, deviceId) === 'open') return;
  const list = await platform.http.call('devices.list', { query: { per_page: 100 } });
  const device = list.res.find((d) => d.device_id === deviceId);
  if (!device) throw new Error('Device not found.');
  if (statusOf(pool, deviceId) !== 'opening')
    pool.send({ type: 'device.connect', device } satisfies DevicePoolEvent);
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      sub.unsubscribe();
      reject(new Error('can not get any response from your device. Please make sure it is connected.'));
    }, STILL_DEVICE_WAIT_MS);
    const sub = pool.subscribe(() => {
      if (statusOf(pool, deviceId) !== 'open') return;
      clearTimeout(timer);
      sub.unsubscribe();
      resolve();
    });
  });
}

/** A still of a physical camera (PNG data URL) for drawing zones on. */
export async function cameraStill(camera: AlarmCamera): Promise<string> {
  if (!platform || !camera.deviceId) throw new Error('No device for this camera.');
  await openDevice(camera.deviceId);
  const r = await platform.peerLink.callDevice(camera.deviceId, 'getOneFrameFromPhysicalCamera', {
    camera_id: camera.cameraId,
  });
  return r.image;
}

/** The channels an alarm's events go to (GET alarm-channels/alarms/:id), for the editor. */
export async function alarmChannelIds(alarmId: string): Promise<string[]> {
  if (!platform) throw new Error('Alarms are not loaded.');
  return getAlarmChannels(platform.http, alarmId);
}

/** Sends each connected device holding one of `cameras` its alarm list (alarm-new); failures are ignored. */
async function syncDevices(cameras: AlarmCamera[]): Promise<void> {
  if (!platform) return;
  const pool = systemRef?.get(SYSTEM_IDS.devicePool);
  const ids = [...new Set(cameras.map((c) => c.deviceId).filter((d): d is string => !!d))];
  await Promise.all(
    ids
      .map(async (deviceId) => {
        if (!pool || statusOf(pool, deviceId) !== 'open') return;
        const list = await platform!.http.call('alarms.forDevice', { params: { device_id: deviceId } });
        await platform!.peerLink.callDevice(deviceId, 'alarm-new', list);
      })
      .map((p) => p.catch(() => undefined)),
  );
}

export function alarmsActors(p: Platform): FeatureActor[] {
  platform = p;
  const { http } = p;
  return [
    featureActor({
      systemId: SYSTEM_IDS.alarms,
      logic: alarmsMachine.provide({
        actors: {
          loadAlarms: fromPromise(async ({ signal, system }) => {
            systemRef = system as SystemLike;
            const [list, physical, ip, calendars] = await Promise.all([
              http.call('alarms.list', { signal }),
              http.call('cameras.physicalCameras', { query: {}, signal }),
              http.call('cameras.ipCameras', { query: {}, signal }),
              http.call('schedulers.list', { signal }).catch(() => ({ calendars: [] })),
            ]);
            const cameras: AlarmCamera[] = [
              ...physical.data.data.map((c) => ({
                type: 'PHYSICAL' as const,
                value: c.uniqueCameraId,
                text: c.label || c.name,
                deviceId: c.device_id,
                cameraId: c.camera_id,
                deviceLabel: c.device_id,
              })),
              ...ip.data.data.map((c) => ({
                type: 'IP' as const,
                value: c.id,
                text: c.label,
                deviceId: c.deviceId,
                cameraId: c.id,
                deviceLabel: c.deviceId ?? '',
              })),
            ];
            return {
              alarms: list.alarms,
              cameras,
              calendars: calendars.calendars.map((c) => ({ id: c.id, name: c.name })),
            };
          }),
          saveAlarm: fromPromise(async ({ input, signal, system }) => {
            systemRef = system as SystemLike;
            const saved = input.id
              ? await http.call('alarms.update', { params: { id: input.id }, body: input.body, signal })
              : await http.call('alarms.create', { body: input.body, signal });
            // The channels its events go to (alarm channels feature), once the alarm exists.
            if (input.channelIds) await setAlarmChannels(http, saved.id, input.channelIds);
            const used = input.cameras.filter((c) => saved.sources.some((s) => s.value === c.value));
            await syncDevices(used);
            return saved;
          }),
          deleteAlarm: fromPromise(async ({ input, signal, system }) => {
            systemRef = system as SystemLike;
            await http.call('alarms.remove', { params: { id: input.id }, signal });
            await syncDevices(input.cameras);
          }),
        },
      }),
      onSignOut: [{ type: 'alarms.reset' }],
    }),
  ];
}
