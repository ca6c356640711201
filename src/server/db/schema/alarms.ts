/** Database schema, Alarms and events (issue 11; spec §3 Alarm, §4 start step 1). Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, devices, users } from './core';
import { inferenceJobs } from './inference';

/**
 * §3 Alarm: id; sources (type IP or PHYSICAL, text, value) as JSON `[{ type, text, value }]` (value: the camera
 * id, text: its label); calendars: `calendar_ids` (scheduling calendars, src/protocol/schedulers.ts) in which
 * the alarm is active (none: always), plus one-off `silences` `[{ start, end }]` (ISO instants) in which it is
 * not. What fires it: `classes` (empty: any class), `zones` (polygons `[[x, y], ...]` in 0..1 frame coordinates;
 * empty: the whole frame; a detection is inside when its box's bottom centre is), `min_score` (0..1),
 * `cooldown_seconds` (per alarm and track). `kind` 'object' | 'face' (a face alarm fires on blacklisted
 * identities). severity 'info' | 'warning' | 'critical'.
 */
export const alarms = pgTable(
  'alarms',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').notNull().default('object'),
    sources: jsonb('sources')
      .notNull()
      .default(sql`'[]'::jsonb`),
    classes: text('classes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    zones: jsonb('zones')
      .notNull()
      .default(sql`'[]'::jsonb`),
    minScore: real('min_score').notNull().default(0.3),
    cooldownSeconds: integer('cooldown_seconds').notNull().default(30),
    severity: text('severity').notNull().default('warning'),
    calendarIds: uuid('calendar_ids')
      .array()
      .notNull()
      .default(sql`'{}'::uuid[]`),
    silences: jsonb('silences')
      .notNull()
      .default(sql`'[]'::jsonb`),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [unique('alarms_user_name_uq').on(t.userId, t.name)],
);

/**
 * An event: one detection that matched an alarm (issue 11 Events). device_id → devices.id; camera_id with
 * camera_kind 'PHYSICAL' | 'IP' (§3 source types); job_id the inference job (null when none); at: the frame's
 * time; class, score (0..1), box `{ x, y, w, h }` in 0..1 frame coordinates; severity copied from the alarm;
 * snapshot_file / clip_file: names of the stored JPEG / MP4 under the server's event files (null: none);
 * identity: the person for face events; attributes: anything else the detector reported (JSON object);
 * idempotency_key: the device's key for this event, unique per user, so a retried post records it once.
 * Indexed for time-bucket aggregation per user (btree (user_id, at) and (user_id, class, at), BRIN on at).
 */
export const events = pgTable(
  'events',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    alarmId: uuid('alarm_id').references(() => alarms.id, { onDelete: 'set null' }),
    deviceId: uuid('device_id').references(() => devices.id, { onDelete: 'set null' }),
    cameraId: text('camera_id').notNull(),
    cameraKind: text('camera_kind').notNull().default('PHYSICAL'),
    jobId: uuid('job_id').references(() => inferenceJobs.id, { onDelete: 'set null' }),
    trackId: text('track_id'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    class: text('class').notNull(),
    score: real('score').notNull(),
    box: jsonb('box').notNull(),
    severity: text('severity').notNull(),
    reviewed: boolean('reviewed').notNull().default(false),
    snapshotFile: text('snapshot_file'),
    clipFile: text('clip_file'),
    identity: text('identity'),
    attributes: jsonb('attributes')
      .notNull()
      .default(sql`'{}'::jsonb`),
    idempotencyKey: text('idempotency_key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    unique('events_user_idempotency_uq').on(t.userId, t.idempotencyKey),
    index('events_user_at_idx').on(t.userId, t.at),
    index('events_user_class_at_idx').on(t.userId, t.class, t.at),
    index('events_user_camera_at_idx').on(t.userId, t.cameraId, t.at),
    index('events_alarm_at_idx').on(t.alarmId, t.at),
    // No BRIN index on `at`: created on an empty table, its page ranges stayed unsummarized until a VACUUM and
    // the planner still chose it, reading the whole table as one lossy bitmap (400–2,450 ms for a 24 h chart,
    // issue 11). Every query is per user, and the (user_id, …, at) b-trees above serve them.
  ],
);

/**
 * Enrolled faces (`/blacklist-faces`): a person's identity (the id the face engine gives; the sim scene's
 * stable `identity`), a label, a picture (image_file, stored like event snapshots) from an upload or an event
 * (source_event_id), and whether the person is on the blacklist (face alarms fire on blacklisted identities).
 */
export const faceIdentities = pgTable(
  'face_identities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    identity: text('identity').notNull(),
    label: text('label').notNull(),
    imageFile: text('image_file'),
    sourceEventId: uuid('source_event_id').references(() => events.id, { onDelete: 'set null' }),
    blacklisted: boolean('blacklisted').notNull().default(true),
    createdAt: createdAt(),
  },
  (t) => [unique('face_identities_user_identity_uq').on(t.userId, t.identity)],
);
