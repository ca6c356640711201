/**
 * The events feature's contract (issue 11 "Events": `/events`, `/alarm-dashboard`; spec §2 "If the page URL
 * contains events the app goes to /events").
 *
 * An event is one detection that matched an alarm (src/protocol/alarms.ts): time, device, camera, class,
 * score, box, a JPEG snapshot, a short MP4 clip, severity and a reviewed flag (as Frigate's review items).
 * The device posts it with its token (`events.devicePost`, idempotent by its key), then uploads the snapshot
 * and the clip as raw bodies (`PUT /api/device/events/:id/snapshot` image/jpeg and `.../clip` video/mp4,
 * src/server/events/media.ts; bodies are not JSON, so they are not in this table). The console reads the
 * pictures through short-lived signed URLs (`snapshot_url`, `clip_url`): an <img> or <video> sends no
 * Authorization header.
 */
import { z } from 'zod';
import { AlarmSource, Severity } from './alarms';
import { defineRoutes, Id } from './route';

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });

/** Most events one page lists; default page size. */
export const EVENTS_PAGE_MAX = 200;
export const EVENTS_PAGE_DEFAULT = 50;
/** Most events one review call changes. */
export const EVENTS_REVIEW_MAX = 500;
/** Largest snapshot (image/jpeg) and clip (video/mp4) a device may upload, bytes. */
export const EVENT_SNAPSHOT_MAX_BYTES = 4 * 1024 * 1024;
export const EVENT_CLIP_MAX_BYTES = 16 * 1024 * 1024;
/** How long a signed media URL stays valid, s. */
export const EVENT_MEDIA_URL_TTL_S = 3600;

/** A box in 0..1 frame coordinates: x, y top-left; w, h. */
export const EventBox = z
  .object({
    x: z.number().min(0).max(1),
    y: z.number().min(0).max(1),
    w: z.number().min(0).max(1),
    h: z.number().min(0).max(1),
  })
  .strict();
export type EventBox = z.infer<typeof EventBox>;

export const CameraKind = AlarmSource.shape.type;

/** An event as the console reads it. device_id is the device's peer id; urls are signed, null when no file. */
export const EventView = z.object({
  id: z.string(),
  alarm_id: z.string().nullable(),
  alarm_name: z.string().nullable(),
  device_id: z.string().nullable(),
  device_label: z.string().nullable(),
  camera_id: z.string(),
  camera_kind: CameraKind,
  job_id: z.string().nullable(),
  track_id: z.string().nullable(),
  at: z.string(),
  class: z.string(),
  score: z.number(),
  box: EventBox,
  severity: Severity,
  reviewed: z.boolean(),
  identity: z.string().nullable(),
  attributes: z.record(z.string(), z.unknown()),
  snapshot_url: z.string().nullable(),
  clip_url: z.string().nullable(),
});
export type EventView = z.infer<typeof EventView>;

const Instant = z.iso.datetime({ offset: true });

/** Filters of the timeline (all optional; combined with AND), newest first, keyset-paged by (at, id). */
export const EventsQuery = z
  .object({
    camera_id: Id.optional(),
    class: z.string().min(1).max(100).optional(),
    severity: Severity.optional(),
    alarm_id: Uuid.optional(),
    reviewed: z.enum(['true', 'false']).optional(),
    from: Instant.optional(),
    to: Instant.optional(),
    /** The page after the event (before_at, before_id) of the previous page's `next`. */
    before_at: Instant.optional(),
    before_id: Uuid.optional(),
    limit: z.coerce.number().int().min(1).max(EVENTS_PAGE_MAX).default(EVENTS_PAGE_DEFAULT),
  })
  .strict();
export type EventsQuery = z.infer<typeof EventsQuery>;
export type EventsQueryIn = z.input<typeof EventsQuery>;

export const EventsPage = z.object({
  events: z.array(EventView),
  /** The cursor of the next (older) page; null on the last. */
  next: z.object({ before_at: z.string(), before_id: z.string() }).nullable(),
});
export type EventsPage = z.infer<typeof EventsPage>;

/** Counts per alarm (and severity) over a time range, for /alarm-dashboard. */
export const AlarmCount = z.object({
  alarm_id: z.string().nullable(),
  alarm_name: z.string().nullable(),
  info: z.number().int(),
  warning: z.number().int(),
  critical: z.number().int(),
  total: z.number().int(),
  unreviewed: z.number().int(),
});
export type AlarmCount = z.infer<typeof AlarmCount>;

export const EventsSummary = z.object({
  from: z.string(),
  to: z.string(),
  per_alarm: z.array(AlarmCount),
  per_severity: z.object({ info: z.number().int(), warning: z.number().int(), critical: z.number().int() }),
  unreviewed: z.number().int(),
  /** Events per hour over the range (bucket start ISO, count). */
  per_hour: z.array(z.object({ at: z.string(), count: z.number().int() })),
  recent: z.array(EventView),
  /** The classes and cameras seen in the range (the timeline's filter choices). */
  classes: z.array(z.string()),
  cameras: z.array(
    z.object({ camera_id: z.string(), camera_kind: CameraKind, device_label: z.string().nullable() }),
  ),
});
export type EventsSummary = z.infer<typeof EventsSummary>;

/** What a device posts for one matched detection. `at` is the frame's capture time. */
export const DeviceEventPost = z
  .object({
    idempotency_key: z.string().min(8).max(200),
    alarm_id: Uuid,
    camera_id: Id,
    camera_kind: CameraKind,
    job_id: Uuid.nullable(),
    track_id: z.string().max(100).nullable(),
    at: Instant,
    class: z.string().min(1).max(100),
    score: z.number().min(0).max(1),
    box: EventBox,
    identity: z.string().max(200).nullable().default(null),
    attributes: z
      .record(z.string().max(100), z.union([z.string().max(200), z.number(), z.boolean(), z.null()]))
      .default({}),
  })
  .strict();
export type DeviceEventPost = z.infer<typeof DeviceEventPost>;
export type DeviceEventPostIn = z.input<typeof DeviceEventPost>;

export const EVENT_TEXTS = {
  notFound: 'Event not found.',
  alarmNotFound: 'Alarm not found.',
  inactive: 'The alarm is not active at this time (outside its calendars, silenced or disabled).',
  cameraNotInAlarm: 'The camera is not one of the alarm’s sources.',
  mediaExpired: 'This link has expired.',
} as const;

export const eventRoutes = defineRoutes({
  'events.list': {
    method: 'GET',
    path: '/api/events',
    auth: 'user',
    summary: 'The caller’s events, newest first, filtered (camera, class, severity, alarm, reviewed, time)',
    query: EventsQuery,
    answer: EventsPage,
  },
  'events.get': {
    method: 'GET',
    path: '/api/events/:id',
    auth: 'user',
    summary: 'One of the caller’s events. 404 otherwise.',
    params: z.object({ id: Id }),
    answer: EventView,
    errors: [404],
  },
  'events.review': {
    method: 'POST',
    path: '/api/events/review',
    auth: 'user',
    summary: 'Marks events reviewed (or not); ids not the caller’s are skipped.',
    body: z.object({ ids: z.array(Uuid).min(1).max(EVENTS_REVIEW_MAX), reviewed: z.boolean() }).strict(),
    answer: z.object({ updated: z.number().int() }),
  },
  'events.summary': {
    method: 'GET',
    path: '/api/events/summary',
    auth: 'user',
    summary: 'Counts per alarm and severity, per hour, and the recent events over a range (default: 24 h)',
    query: z.object({ from: Instant.optional(), to: Instant.optional() }).strict(),
    answer: EventsSummary,
  },
  /** A signed URL's bytes (no Authorization: an <img> or <video> sends none). 404 bad or expired signature. */
  'events.media': {
    method: 'GET',
    path: '/api/event-media/:id/:kind',
    auth: 'none',
    summary: 'An event’s snapshot (image/jpeg) or clip (video/mp4) by signed URL; 404 otherwise.',
    params: z.object({ id: Id, kind: z.enum(['snapshot', 'clip']) }),
    query: z
      .object({ exp: z.coerce.number().int().min(0).max(1e13), sig: z.string().min(1).max(128) })
      .strict(),
    answer: z.unknown(),
    errors: [404],
  },
  'events.devicePost': {
    method: 'POST',
    path: '/api/device/events',
    auth: 'device',
    summary:
      'This device records an event for a matched detection (idempotent by key). 404 unknown alarm, 409 alarm inactive or camera not its source.',
    body: DeviceEventPost,
    answer: z.object({ id: z.string(), created: z.boolean() }),
    errors: [404, 409],
  },
});
