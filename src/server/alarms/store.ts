/**
 * The server's alarms (issue 11; spec §3 Alarm): rows ↔ the contract's shapes, the calendars an alarm is
 * active in, and the per-device list `alarm-new` sends (§4 start step 1, §7).
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import {
  AlarmSource,
  alarmActiveAt,
  Silence,
  Zone,
  type AlarmCalendar,
  type AlarmView,
  type DeviceAlarm,
  type Severity,
} from '../../protocol/alarms';
import { CalendarInterval } from '../../protocol/schedulers';
import type { Db } from '../db';
import { isUuid } from '../db/scope';
import { alarms, faceIdentities, schedulingCalendars } from '../db/schema';

export type AlarmRow = typeof alarms.$inferSelect;

const sourcesOf = (r: AlarmRow) => AlarmSource.array().catch([]).parse(r.sources);
const zonesOf = (r: AlarmRow) => Zone.array().catch([]).parse(r.zones);
const silencesOf = (r: AlarmRow) => Silence.array().catch([]).parse(r.silences);
const severityOf = (r: AlarmRow): Severity =>
  r.severity === 'info' || r.severity === 'critical' ? r.severity : 'warning';

/** The calendars (zone and intervals) of the given ids that belong to `userId`, by id. */
export async function calendarsOf(
  db: Db,
  userId: string,
  ids: readonly string[],
): Promise<Map<string, AlarmCalendar>> {
  const out = new Map<string, AlarmCalendar>();
  const wanted = [...new Set(ids)].filter(isUuid);
  if (wanted.length === 0) return out;
  const rows = await db
    .select()
    .from(schedulingCalendars)
    .where(and(inArray(schedulingCalendars.id, wanted), eq(schedulingCalendars.ownerId, userId)));
  for (const r of rows) {
    out.set(r.id, {
      id: r.id,
      time_zone: r.timeZone,
      intervals: CalendarInterval.array().catch([]).parse(r.intervals),
    });
  }
  return out;
}

/** The alarm as the console reads it; `active` at `now` with the calendars given. */
export function toAlarmView(r: AlarmRow, calendars: Map<string, AlarmCalendar>, now: number): AlarmView {
  const silences = silencesOf(r);
  const cals = r.calendarIds.map((id) => calendars.get(id)).filter((c): c is AlarmCalendar => !!c);
  return {
    id: r.id,
    name: r.name,
    kind: r.kind === 'face' ? 'face' : 'object',
    sources: sourcesOf(r),
    classes: r.classes,
    zones: zonesOf(r),
    min_score: r.minScore,
    cooldown_seconds: r.cooldownSeconds,
    severity: severityOf(r),
    calendar_ids: r.calendarIds,
    calendars: r.calendarIds.map((id) => ({ id })),
    silences,
    enabled: r.enabled,
    active: alarmActiveAt({ enabled: r.enabled, silences, calendars: cals }, now),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  };
}

/** The alarm as a device matches it (calendars resolved; a face alarm carries the user's blacklist). */
export function toDeviceAlarm(
  r: AlarmRow,
  calendars: Map<string, AlarmCalendar>,
  blacklist: string[],
): DeviceAlarm {
  return {
    id: r.id,
    name: r.name,
    kind: r.kind === 'face' ? 'face' : 'object',
    sources: sourcesOf(r),
    calendars: r.calendarIds.map((id) => calendars.get(id)).filter((c): c is AlarmCalendar => !!c),
    classes: r.classes,
    zones: zonesOf(r),
    min_score: r.minScore,
    cooldown_seconds: r.cooldownSeconds,
    severity: severityOf(r),
    silences: silencesOf(r),
    enabled: r.enabled,
    identities: r.kind === 'face' ? blacklist : [],
  };
}

/** The user's alarms, by name. */
export async function alarmRowsOf(db: Db, userId: string): Promise<AlarmRow[]> {
  return db.select().from(alarms).where(eq(alarms.userId, userId)).orderBy(asc(alarms.name));
}

/** One of the user's alarms, or null. */
export async function ownAlarm(db: Db, userId: string, id: string): Promise<AlarmRow | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(alarms)
    .where(and(eq(alarms.id, id), eq(alarms.userId, userId)))
    .limit(1);
  return row ?? null;
}

/**
 * The list `alarm-new` sends to device `deviceId` (its peer id) of `userId`: the user's enabled alarms with a
 * PHYSICAL source on that device (`<device_id>_…`) or any IP source (the device decides whether it reaches
 * the IP camera), calendars resolved; face alarms carry the user's blacklisted identities.
 */
export async function deviceAlarmsFor(db: Db, userId: string, deviceId: string): Promise<DeviceAlarm[]> {
  const rows = (await alarmRowsOf(db, userId)).filter(
    (r) => r.enabled && sourcesOf(r).some((s) => s.type === 'IP' || s.value.startsWith(`${deviceId}_`)),
  );
  if (rows.length === 0) return [];
  const calendars = await calendarsOf(
    db,
    userId,
    rows.flatMap((r) => r.calendarIds),
  );
  const blacklist = rows.some((r) => r.kind === 'face')
    ? (
        await db
          .select({ identity: faceIdentities.identity })
          .from(faceIdentities)
          .where(and(eq(faceIdentities.userId, userId), eq(faceIdentities.blacklisted, true)))
      ).map((f) => f.identity)
    : [];
  return rows.map((r) => toDeviceAlarm(r, calendars, blacklist));
}
