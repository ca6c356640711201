/**
 * The alarms feature's contract (issue 11 "Alarms": `/alarms`; spec §3 Alarm "id; sources (type IP or
 * PHYSICAL, text, value); calendars (each with id)", §4 "Starting an inference connection" step 1 "Send the
 * alarm list to the device, then assign calendars to alarms", §7 `alarm-new` and
 * `POST /calendars/alarms/{id}/assign/` with calendar_ids, job_id, ip_camera_id, physical_camera_id).
 *
 * An alarm says which detections become events: on which cameras (sources), which classes, inside which zones
 * (polygons in 0..1 frame coordinates; a detection is inside when the bottom centre of its box is, as
 * Frigate decides), from which score, how often per tracked object (cooldown), with which severity, and when
 * (calendars: the scheduling calendars of src/protocol/schedulers.ts, recurring weekly intervals in an IANA
 * zone, plus one-off silences). The device matches detections itself (src/agent/alarms/); the server checks
 * the alarm again when the event is posted (src/server/events/).
 */
import { z } from 'zod';
import { defineCommands } from './command';
import { defineRoutes, Id } from './route';

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });
import { CalendarInterval, calendarState, CALENDAR_INTERVALS_MAX, TimeZone } from './schedulers';

/** Longest alarm name, most sources / classes / zones / points per zone / calendars / silences per alarm. */
export const ALARM_NAME_MAX_CHARS = 120;
export const ALARM_SOURCES_MAX = 64;
export const ALARM_CLASSES_MAX = 64;
export const ALARM_ZONES_MAX = 8;
export const ZONE_POINTS_MAX = 32;
export const ALARM_CALENDARS_MAX = 16;
export const ALARM_SILENCES_MAX = 32;
/** Most alarms one device is sent; most blacklisted identities a face alarm carries. */
export const DEVICE_ALARMS_MAX = 500;
export const DEVICE_IDENTITIES_MAX = 1000;
/** Longest cooldown, s (one day). */
export const ALARM_COOLDOWN_MAX_S = 86_400;
/** Defaults of a new alarm: §9 default detection threshold 0.3; 30 s cooldown per tracked object. */
export const ALARM_DEFAULT_MIN_SCORE = 0.3;
export const ALARM_DEFAULT_COOLDOWN_S = 30;

export const SEVERITIES = ['info', 'warning', 'critical'] as const;
export const Severity = z.enum(SEVERITIES);
export type Severity = z.infer<typeof Severity>;

/** 'object': any detection of its classes; 'face': a person whose identity is on the blacklist. */
export const AlarmKind = z.enum(['object', 'face']);
export type AlarmKind = z.infer<typeof AlarmKind>;

/**
 * §3 Alarm source: type IP or PHYSICAL, text (the camera's label), value (the camera: a PHYSICAL camera's
 * uniqueCameraId `<device_id>_<camera_id>`, an IP camera's id).
 */
export const AlarmSource = z
  .object({
    type: z.enum(['IP', 'PHYSICAL']),
    text: z.string().max(200),
    value: Id,
  })
  .strict();
export type AlarmSource = z.infer<typeof AlarmSource>;

/** A point in 0..1 frame coordinates (x to the right, y down). */
export const ZonePoint = z.tuple([z.number().min(0).max(1), z.number().min(0).max(1)]);
/** A zone: a polygon of 3 or more points in 0..1 frame coordinates. */
export const Zone = z.array(ZonePoint).min(3, 'A zone needs at least 3 points').max(ZONE_POINTS_MAX);
export type Zone = z.infer<typeof Zone>;

/** A one-off silence: the alarm does not fire from `start` to `end` (ISO instants, end after start). */
export const Silence = z
  .object({ start: z.iso.datetime({ offset: true }), end: z.iso.datetime({ offset: true }) })
  .strict()
  .refine((s) => Date.parse(s.end) > Date.parse(s.start), {
    message: 'The end must be after the start',
    path: ['end'],
  });
export type Silence = z.infer<typeof Silence>;

/** An alarm's editable fields (REST body). Empty classes: any class; empty zones: the whole frame. */
export const AlarmInput = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(ALARM_NAME_MAX_CHARS),
    kind: AlarmKind.default('object'),
    sources: z.array(AlarmSource).min(1, 'Choose at least one camera').max(ALARM_SOURCES_MAX),
    classes: z.array(z.string().trim().min(1).max(100)).max(ALARM_CLASSES_MAX).default([]),
    zones: z.array(Zone).max(ALARM_ZONES_MAX).default([]),
    min_score: z.number().min(0).max(1).default(ALARM_DEFAULT_MIN_SCORE),
    cooldown_seconds: z.number().int().min(0).max(ALARM_COOLDOWN_MAX_S).default(ALARM_DEFAULT_COOLDOWN_S),
    severity: Severity.default('warning'),
    calendar_ids: z.array(Uuid).max(ALARM_CALENDARS_MAX).default([]),
    silences: z.array(Silence).max(ALARM_SILENCES_MAX).default([]),
    enabled: z.boolean().default(true),
  })
  .strict();
export type AlarmInput = z.infer<typeof AlarmInput>;
export type AlarmInputIn = z.input<typeof AlarmInput>;

/** §3 Alarm as the console reads it: id, sources, calendars [{ id }], plus the fields above. */
export const AlarmView = z.object({
  id: z.string(),
  name: z.string(),
  kind: AlarmKind,
  sources: z.array(AlarmSource),
  classes: z.array(z.string()),
  zones: z.array(Zone),
  min_score: z.number(),
  cooldown_seconds: z.number().int(),
  severity: Severity,
  calendar_ids: z.array(z.string()),
  calendars: z.array(z.object({ id: z.string() })),
  silences: z.array(Silence),
  enabled: z.boolean(),
  /** Whether the alarm may fire now (enabled, inside a calendar or without one, not silenced). */
  active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type AlarmView = z.infer<typeof AlarmView>;

/** A calendar as the device needs it to decide "inside or not" (no jobs). */
export const AlarmCalendar = z
  .object({
    id: z.string().max(200),
    time_zone: TimeZone,
    intervals: z.array(CalendarInterval).max(CALENDAR_INTERVALS_MAX),
  })
  .strict();
export type AlarmCalendar = z.infer<typeof AlarmCalendar>;

/**
 * §3 Alarm as the device gets it in `alarm-new`: id, sources, calendars (each with its id, zone and
 * intervals), and what it matches.
 */
export const DeviceAlarm = z
  .object({
    id: Id,
    name: z.string().max(ALARM_NAME_MAX_CHARS),
    kind: AlarmKind,
    sources: z.array(AlarmSource).max(ALARM_SOURCES_MAX),
    calendars: z.array(AlarmCalendar).max(ALARM_CALENDARS_MAX),
    classes: z.array(z.string().max(100)).max(ALARM_CLASSES_MAX),
    zones: z.array(Zone).max(ALARM_ZONES_MAX),
    min_score: z.number().min(0).max(1),
    cooldown_seconds: z.number().int().min(0).max(ALARM_COOLDOWN_MAX_S),
    severity: Severity,
    silences: z.array(Silence).max(ALARM_SILENCES_MAX),
    enabled: z.boolean(),
    /** A face alarm's blacklist: the identities it fires on (empty for an object alarm). */
    identities: z.array(z.string().max(200)).max(DEVICE_IDENTITIES_MAX).default([]),
  })
  .strict();
export type DeviceAlarm = z.infer<typeof DeviceAlarm>;

/**
 * Whether an alarm may fire at `at` (ms since the epoch): enabled, not in a silence, and inside one of its
 * calendars (an alarm without calendars is always active). One function for the device, the server and the
 * console.
 */
export function alarmActiveAt(
  alarm: {
    enabled: boolean;
    silences: readonly Silence[];
    calendars: readonly Pick<AlarmCalendar, 'time_zone' | 'intervals'>[];
  },
  at: number,
): boolean {
  if (!alarm.enabled) return false;
  if (alarm.silences.some((s) => at >= Date.parse(s.start) && at < Date.parse(s.end))) return false;
  if (alarm.calendars.length === 0) return true;
  return alarm.calendars.some((c) => calendarState(c, at).active);
}

/** Texts of the alarm routes and screens that the server also answers with (en). */
export const ALARM_TEXTS = {
  notFound: 'Alarm not found.',
  duplicate: 'You already have an alarm with this name.',
  calendarsMissing: 'A calendar was not found among yours.',
  jobMissing: 'The job was not found among yours.',
} as const;

/** §7 POST /calendars/alarms/{id}/assign/ body. */
export const AssignCalendarsBody = z
  .object({
    calendar_ids: z.array(Uuid).max(ALARM_CALENDARS_MAX),
    job_id: Uuid.nullable().optional(),
    ip_camera_id: Id.nullable().optional(),
    physical_camera_id: Id.nullable().optional(),
  })
  .strict();
export type AssignCalendarsBody = z.infer<typeof AssignCalendarsBody>;

const AlarmParams = z.object({ id: Id });

export const alarmRoutes = defineRoutes({
  'alarms.list': {
    method: 'GET',
    path: '/api/alarms',
    auth: 'user',
    summary: 'The caller’s alarms (§3 Alarm), by name',
    answer: z.object({ alarms: z.array(AlarmView) }),
  },
  'alarms.create': {
    method: 'POST',
    path: '/api/alarms',
    auth: 'user',
    summary: 'Creates an alarm. 404 when a calendar is not the caller’s, 409 when the name is taken.',
    body: AlarmInput,
    answer: AlarmView,
    errors: [404, 409],
  },
  'alarms.update': {
    method: 'PUT',
    path: '/api/alarms/:id',
    auth: 'user',
    summary: 'Replaces an alarm’s fields. 404 unknown alarm or calendar, 409 name taken.',
    params: AlarmParams,
    body: AlarmInput,
    answer: AlarmView,
    errors: [404, 409],
  },
  'alarms.remove': {
    method: 'DELETE',
    path: '/api/alarms/:id',
    auth: 'user',
    summary: 'Deletes an alarm (its events stay, without the alarm). 404 when not the caller’s.',
    params: AlarmParams,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  /** §7 POST /calendars/alarms/{id}/assign/: the alarm's calendars become calendar_ids. */
  'alarms.assignCalendars': {
    method: 'POST',
    path: '/api/calendars/alarms/:id/assign/',
    auth: 'user',
    summary: 'Assigns calendars to an alarm (§4 start step 1). 404 unknown alarm, calendar or job.',
    params: AlarmParams,
    body: AssignCalendarsBody,
    answer: AlarmView,
    errors: [404],
  },
  /** The list `alarm-new` sends to a device: the caller's alarms with a camera of that device or an IP camera. */
  'alarms.forDevice': {
    method: 'GET',
    path: '/api/alarms/device/:device_id',
    auth: 'user',
    summary: 'The alarms to send to one of the caller’s devices (alarm-new). 404 unknown device.',
    params: z.object({ device_id: Id }),
    answer: z.object({ alarms: z.array(DeviceAlarm) }),
    errors: [404],
  },
  /** The device asks for its alarm list itself (at start), with its token. */
  'alarms.agentList': {
    method: 'GET',
    path: '/api/device/alarms',
    auth: 'device',
    summary: 'The alarms this device matches detections against',
    answer: z.object({ alarms: z.array(DeviceAlarm) }),
  },
});

export const alarmCommands = defineCommands({
  /** §7 alarm-new (§4 start step 1): the alarms this device should know (replaces the list; possibly empty). */
  'alarm-new': {
    request: z.object({ alarms: z.array(DeviceAlarm).max(DEVICE_ALARMS_MAX) }).strict(),
    reply: z.object({ count: z.number().int() }),
  },
});
