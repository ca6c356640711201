/**
 * The schedulers feature's contract (issue 10 "Jobs, application streams, schedulers": `/schedulers`,
 * calendars, `scheduling-calendar-operation`, jobs that start and stop on schedule; spec §4 "A scheduled job is
 * started directly (`start-scheduled-job`)", §7 device commands `scheduling-calendar-operation`,
 * `start-scheduled-job`).
 *
 * A calendar is a named set of recurring weekly intervals (weekday, start, end) read in an IANA time zone, as
 * Grafana's mute timings and Frigate's schedules do: an instant is inside the calendar when its wall-clock time
 * in that zone falls in one of the intervals. The device keeps the calendars it was sent and starts and stops
 * the attached jobs at the interval edges itself (src/agent/schedulers/), so a schedule runs with no browser.
 *
 * calendarState() is the one pure function every end uses (server, agent, console): "is this instant inside,
 * and when is the next edge". It reads the zone with Intl (the ICU tz database of the engine), so summer-time
 * changes follow the zone's real rules.
 */
import { z } from 'zod';
import { defineCommands } from './command';
import { defineRoutes } from './route';
import { JobStateBody, StartOptions } from './inference';

/** Most intervals one calendar holds, most jobs attached to one calendar, longest calendar name (characters). */
export const CALENDAR_INTERVALS_MAX = 200;
export const CALENDAR_JOBS_MAX = 100;
export const CALENDAR_NAME_MAX_CHARS = 120;

/** Weekdays as JavaScript numbers them (0 Sunday … 6 Saturday). */
export const WEEKDAYS = [0, 1, 2, 3, 4, 5, 6] as const;

const HHMM = /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/;

/** Minutes since local midnight of "HH:MM" ("24:00" is 1440, the end of the day). */
export const minutesOf = (hhmm: string): number => Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3, 5));

/** True when the engine knows this IANA zone name. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/**
 * One recurring weekly interval: on `weekday` (0 Sunday … 6 Saturday), from `start` (inclusive) to `end`
 * (exclusive), both "HH:MM" local wall-clock in the calendar's zone; end "24:00" is midnight ending the day.
 * An interval stays within its day (end after start); a night shift is two intervals.
 */
export const CalendarInterval = z
  .object({
    weekday: z.number().int().min(0).max(6),
    start: z.string().regex(HHMM, 'Use HH:MM (00:00 to 23:59)'),
    end: z.string().regex(HHMM, 'Use HH:MM (00:01 to 24:00)'),
  })
  .strict()
  .refine((i) => minutesOf(i.end) > minutesOf(i.start), {
    message: 'The end must be after the start',
    path: ['end'],
  });
export type CalendarInterval = z.infer<typeof CalendarInterval>;

export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, { message: 'Unknown time zone (use an IANA name such as Europe/Paris)' })
  .meta({ examples: ['Europe/Paris'] });

/** A calendar's editable fields (REST body; the device gets the same with its id and jobs). */
export const CalendarInput = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(CALENDAR_NAME_MAX_CHARS),
    time_zone: TimeZone,
    intervals: z.array(CalendarInterval).max(CALENDAR_INTERVALS_MAX),
    /** Ids of the jobs (§3 Job.id) this calendar starts and stops. */
    job_ids: z.array(z.uuid()).max(CALENDAR_JOBS_MAX),
  })
  .strict();
export type CalendarInput = z.infer<typeof CalendarInput>;

/**
 * A calendar as the device keeps it: the jobs come with their start options (§4 step 3), so the device can
 * start them with no browser (§4 step 4).
 */
export const DeviceCalendar = CalendarInput.omit({ job_ids: true })
  .extend({ id: z.uuid(), jobs: z.array(StartOptions).max(CALENDAR_JOBS_MAX) })
  .strict();
export type DeviceCalendar = z.infer<typeof DeviceCalendar>;

type Zoned = { weekday: number; minute: number; offsetMs: number };

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock of instant `at` (ms since the epoch) in `zone`: weekday, minute of the day, UTC offset (ms). */
export function zoned(at: number, zone: string): Zoned {
  const p: Record<string, number> = {};
  for (const part of formatter(zone).formatToParts(new Date(at)))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const localMidnight = Date.UTC(p.year!, p.month! - 1, p.day!);
  const local = localMidnight + ((p.hour! * 60 + p.minute!) * 60 + p.second!) * 1000;
  const whole = at - (((at % 1000) + 1000) % 1000);
  return {
    weekday: new Date(localMidnight).getUTCDay(),
    minute: p.hour! * 60 + p.minute!,
    offsetMs: local - whole,
  };
}

/** True when instant `at` (ms since the epoch) lies inside one of the calendar's intervals. */
export function isInside(calendar: Pick<CalendarInput, 'time_zone' | 'intervals'>, at: number): boolean {
  const z = zoned(at, calendar.time_zone);
  return calendar.intervals.some(
    (i) => i.weekday === z.weekday && minutesOf(i.start) <= z.minute && z.minute < minutesOf(i.end),
  );
}

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/**
 * Whether `at` is inside the calendar, and its next edge: the first later instant where that changes
 * (`kind` 'start': the calendar becomes active; 'stop': it ends), or null when it never changes (no
 * intervals, or the whole week). Edges are whole minutes of wall-clock time in the zone; a start in a
 * spring-forward gap happens at the end of the gap, a stop in the repeated hour of a fall-back at its first
 * occurrence, and a fall-back that re-enters an interval starts it again. Pure; ms since the epoch.
 */
export function calendarState(
  calendar: Pick<CalendarInput, 'time_zone' | 'intervals'>,
  at: number,
): { active: boolean; next: { at: number; kind: 'start' | 'stop' } | null } {
  const active = isInside(calendar, at);
  if (calendar.intervals.length === 0) return { active, next: null };
  const zone = calendar.time_zone;
  // Every instant where the state may change within the next 8 days: the interval edges of each local day,
  // resolved with the offsets in force around them, plus the zone's offset changes.
  const candidates: number[] = [];
  const until = at + 8 * DAY;
  let prev = zoned(at, zone).offsetMs;
  for (let t = at; t <= until; t += HOUR) {
    const off = zoned(t + HOUR, zone).offsetMs;
    if (off !== prev) {
      let lo = t;
      let hi = t + HOUR; // offset(lo) = prev, offset(hi) = off
      while (hi - lo > MINUTE) {
        const mid = lo + Math.floor((hi - lo) / 2 / MINUTE) * MINUTE || lo + MINUTE;
        if (zoned(mid, zone).offsetMs === prev) lo = mid;
        else hi = mid;
      }
      candidates.push(hi - (((hi % MINUTE) + MINUTE) % MINUTE));
      candidates.push(hi);
      prev = off;
    }
  }
  const offsets = new Set<number>();
  for (let t = at - DAY; t <= until + DAY; t += 6 * HOUR) offsets.add(zoned(t, zone).offsetMs);
  const startLocal = at + zoned(at, zone).offsetMs;
  const firstDay = startLocal - (((startLocal % DAY) + DAY) % DAY) - DAY;
  for (let day = firstDay; day <= until + 2 * DAY; day += DAY) {
    const weekday = new Date(day).getUTCDay();
    for (const i of calendar.intervals) {
      if (i.weekday !== weekday) continue;
      for (const m of [minutesOf(i.start), minutesOf(i.end)])
        for (const off of offsets) candidates.push(day + m * MINUTE - off);
    }
  }
  const later = [...new Set(candidates.filter((c) => c > at && c <= until))].sort((a, b) => a - b);
  for (const c of later) {
    if (isInside(calendar, c) !== active) return { active, next: { at: c, kind: active ? 'stop' : 'start' } };
  }
  return { active, next: null };
}

/** One calendar's state on the device (scheduling-calendar-operation reply, start-scheduled-job). */
export const DeviceCalendarStatus = z.object({
  id: z.string(),
  active: z.boolean(),
  /** The next edge, ms since the epoch, and what happens there; null: none within a week. */
  next: z.object({ at: z.number().int(), kind: z.enum(['start', 'stop']) }).nullable(),
  /** The last start or stop the device could not do, with its reason; null: none. */
  last_error: z.string().nullable(),
});
export type DeviceCalendarStatus = z.infer<typeof DeviceCalendarStatus>;

export const schedulerCommands = defineCommands({
  /**
   * §7 scheduling-calendar-operation: create, update or delete one calendar on the device. The device keeps
   * it in its state directory (it survives a restart) and starts/stops the calendar's jobs at its edges.
   * Reply: every calendar the device now holds, with its state.
   */
  'scheduling-calendar-operation': {
    request: z.discriminatedUnion('operation', [
      z.object({ operation: z.literal('create'), calendar: DeviceCalendar }).strict(),
      z.object({ operation: z.literal('update'), calendar: DeviceCalendar }).strict(),
      z.object({ operation: z.literal('delete'), id: z.uuid() }).strict(),
    ]),
    reply: z.object({ calendars: z.array(DeviceCalendarStatus) }),
  },
  /**
   * §4 step 4 / §7 start-scheduled-job: starts a job that a calendar on the device schedules, now, without
   * the start connection (the device holds what it needs). started false when it was already running.
   */
  'start-scheduled-job': {
    request: z.object({ job_id: z.uuid() }).strict(),
    reply: z.object({ job_id: z.string(), started: z.boolean() }),
  },
});

/** English error texts of the calendar calls (the console shows its own translations by code). */
export const SCHEDULER_TEXTS = {
  notFound: 'Calendar not found.',
  duplicate: 'A calendar with this name already exists.',
  jobsMissing: 'Some of these jobs were not found.',
} as const;

/**
 * A calendar as the REST calls answer it: its fields, the jobs it schedules, and its state now (server
 * clock): active and the next edge (calendarState).
 */
export const Calendar = CalendarInput.extend({
  id: z.string(),
  active: z.boolean(),
  next: z.object({ at: z.number().int(), kind: z.enum(['start', 'stop']) }).nullable(),
  updated_at: z.string(),
});
export type Calendar = z.infer<typeof Calendar>;

/** What each device must hold for one calendar: the DeviceCalendar with that device's jobs (sync). */
export const CalendarSync = z.object({
  devices: z.array(z.object({ device_id: z.string(), calendar: DeviceCalendar })),
});
export type CalendarSync = z.infer<typeof CalendarSync>;

const CalendarParams = z.object({ id: z.string().min(1).max(100) });

export const schedulerRoutes = defineRoutes({
  'schedulers.list': {
    method: 'GET',
    path: '/api/schedulers/calendars',
    auth: 'user',
    summary: "The caller's calendars by name, with their jobs and their state now",
    answer: z.object({ calendars: z.array(Calendar) }),
  },
  'schedulers.create': {
    method: 'POST',
    path: '/api/schedulers/calendars',
    auth: 'user',
    summary: 'Create a calendar of weekly intervals in a time zone; job_ids must be the caller’s jobs',
    body: CalendarInput,
    answer: Calendar,
    errors: [404, 409],
  },
  'schedulers.update': {
    method: 'PUT',
    path: '/api/schedulers/calendars/:id',
    auth: 'user',
    summary: 'Replace a calendar’s name, zone, intervals and jobs (a job moves here from another calendar)',
    params: CalendarParams,
    body: CalendarInput,
    answer: Calendar,
    errors: [404, 409],
  },
  'schedulers.delete': {
    method: 'DELETE',
    path: '/api/schedulers/calendars/:id',
    auth: 'user',
    summary: 'Delete a calendar; its jobs are no longer scheduled',
    params: CalendarParams,
    answer: z.object({ ok: z.boolean() }),
    errors: [404],
  },
  'schedulers.sync': {
    method: 'GET',
    path: '/api/schedulers/calendars/:id/sync',
    auth: 'user',
    summary:
      'Per device, the calendar to send with scheduling-calendar-operation (jobs with their start options)',
    params: CalendarParams,
    answer: CalendarSync,
    errors: [404],
  },
  /**
   * §4 job events of a job the device started by itself (§4 step 4, a calendar's start edge) or stopped at a
   * calendar's stop edge: no console is there to report them, so the device does (its device token). Same
   * body and merge as inference.jobState; 404 for a job not on this device.
   */
  'schedulers.deviceJobState': {
    method: 'PUT',
    path: '/api/device/jobs/:id/state',
    auth: 'device',
    summary: 'This device reports the state and runtime fields of a job it started or stopped on schedule.',
    params: z.object({ id: z.uuid().meta({ examples: ['6f1e2b0c-8f0e-4c43-9c77-0d7b0a3b1c11'] }) }),
    body: JobStateBody,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
});
