/**
 * Handlers of the alarms feature's routes (src/protocol/alarms.ts; issue 11 `/alarms`, spec §3 Alarm, §7):
 *   GET    alarms                          → { alarms } the caller's, by name, each with `active` now
 *   POST   alarms                          → AlarmView; 404 a calendar not the caller's, 409 name taken
 *   PUT    alarms/:id                      → AlarmView; 404, 409 as above
 *   DELETE alarms/:id                      → { ok }; 404 not the caller's (its events stay, alarm_id null)
 *   POST   calendars/alarms/:id/assign/    → AlarmView (§7: calendar_ids; job_id and the camera must be the
 *                                            caller's when given); 404 unknown alarm, calendar or job
 *   GET    alarms/device/:device_id        → { alarms } the list alarm-new sends to that device (§4 step 1)
 *   GET    device/alarms                   → { alarms } the same, asked by the device with its token
 */
import { and, eq } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import { ALARM_TEXTS, type AlarmInput, type alarmRoutes } from '../../protocol/alarms';
import { alarmRowsOf, calendarsOf, deviceAlarmsFor, ownAlarm, toAlarmView } from '../alarms/store';
import { deviceOf, userOf } from '../auth/guard';
import type { Db } from '../db';
import { findOwnDevice, isUniqueViolation } from '../db/scope';
import { alarms, inferenceJobs } from '../db/schema';
import { HttpError } from '../errors';
import type { HandlersOf } from './register';

const notFound = () => new HttpError(404, API_ERROR_CODES.notFound, ALARM_TEXTS.notFound);
const duplicate = () => new HttpError(409, 'Alarm_exists', ALARM_TEXTS.duplicate);
const calendarsMissing = () => new HttpError(404, API_ERROR_CODES.notFound, ALARM_TEXTS.calendarsMissing);

async function checkCalendars(db: Db, userId: string, ids: string[]) {
  const found = await calendarsOf(db, userId, ids);
  if (new Set(ids).size !== found.size) throw calendarsMissing();
  return found;
}

const valuesOf = (body: AlarmInput) => ({
  name: body.name,
  kind: body.kind,
  sources: body.sources,
  classes: [...new Set(body.classes)],
  zones: body.zones,
  minScore: body.min_score,
  cooldownSeconds: body.cooldown_seconds,
  severity: body.severity,
  calendarIds: [...new Set(body.calendar_ids)],
  silences: body.silences,
  enabled: body.enabled,
});

async function save(db: Db, userId: string, id: string | null, body: AlarmInput) {
  const calendars = await checkCalendars(db, userId, body.calendar_ids);
  try {
    const values = valuesOf(body);
    const [row] = id
      ? await db
          .update(alarms)
          .set({ ...values, updatedAt: new Date() })
          .where(and(eq(alarms.id, id), eq(alarms.userId, userId)))
          .returning()
      : await db
          .insert(alarms)
          .values({ ...values, userId })
          .returning();
    if (!row) throw notFound();
    return toAlarmView(row, calendars, Date.now());
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

export const alarmHandlers: HandlersOf<typeof alarmRoutes> = (ctx) => ({
  'alarms.list': async (_input, request) => {
    const userId = userOf(request).id;
    const rows = await alarmRowsOf(ctx.db, userId);
    const calendars = await calendarsOf(
      ctx.db,
      userId,
      rows.flatMap((r) => r.calendarIds),
    );
    const now = Date.now();
    return { alarms: rows.map((r) => toAlarmView(r, calendars, now)) };
  },

  'alarms.create': async ({ body }, request) => save(ctx.db, userOf(request).id, null, body),

  'alarms.update': async ({ params, body }, request) => {
    const userId = userOf(request).id;
    if (!(await ownAlarm(ctx.db, userId, params.id))) throw notFound();
    return save(ctx.db, userId, params.id, body);
  },

  'alarms.remove': async ({ params }, request) => {
    const userId = userOf(request).id;
    if (!(await ownAlarm(ctx.db, userId, params.id))) throw notFound();
    await ctx.db.delete(alarms).where(and(eq(alarms.id, params.id), eq(alarms.userId, userId)));
    return { ok: true as const };
  },

  'alarms.assignCalendars': async ({ params, body }, request) => {
    const userId = userOf(request).id;
    const row = await ownAlarm(ctx.db, userId, params.id);
    if (!row) throw notFound();
    if (body.job_id) {
      const [job] = await ctx.db
        .select({ id: inferenceJobs.id })
        .from(inferenceJobs)
        .where(and(eq(inferenceJobs.id, body.job_id), eq(inferenceJobs.ownerId, userId)))
        .limit(1);
      if (!job) throw new HttpError(404, API_ERROR_CODES.notFound, ALARM_TEXTS.jobMissing);
    }
    const calendars = await checkCalendars(ctx.db, userId, body.calendar_ids);
    const [saved] = await ctx.db
      .update(alarms)
      .set({ calendarIds: [...new Set(body.calendar_ids)], updatedAt: new Date() })
      .where(eq(alarms.id, row.id))
      .returning();
    return toAlarmView(saved ?? row, calendars, Date.now());
  },

  'alarms.forDevice': async ({ params }, request) => {
    const userId = userOf(request).id;
    const device = await findOwnDevice(ctx.db, userId, params.device_id);
    if (!device) throw new HttpError(404, API_ERROR_CODES.notFound, 'Device not found.');
    return { alarms: await deviceAlarmsFor(ctx.db, userId, device.deviceId) };
  },

  'alarms.agentList': async (_input, request) => {
    const device = deviceOf(request);
    return { alarms: await deviceAlarmsFor(ctx.db, device.ownerId, device.deviceId) };
  },
});
