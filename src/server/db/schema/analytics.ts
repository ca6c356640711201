/**
 * Database schema, Analytics and use cases (issue 11). Re-exported by ./index.ts.
 *
 * - dashboard_collections / dashboards: a user's collections; a dashboard's charts (JSON, src/protocol/
 *   analytics.ts Chart) and its react-grid-layout layout (JSON), saved per dashboard.
 * - use_cases: a person counter (with its line), demographic or plate use case on one inference job.
 * - use_case_records: what the device measured: crossings (direction) and sightings (identity, age band,
 *   gender, plate, speed px/s); `key` unique per use case makes a repeated post record once.
 * - event_rollup_hourly: alarm events (./alarms.ts `events`) counted per user, hour, class, camera and
 *   severity, kept by statement-level triggers on events (migration analytics_rollup): dashboards over a
 *   million events read thousands of rollup rows instead (hour-aligned windows and buckets).
 */
import { sql } from 'drizzle-orm';
import {
  bigint,
  bigserial,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, users } from './core';
import { inferenceJobs } from './inference';

export const dashboardCollections = pgTable(
  'dashboard_collections',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
  },
  (t) => [unique('dashboard_collections_user_name_uq').on(t.userId, t.name)],
);

export const dashboards = pgTable(
  'dashboards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    collectionId: uuid('collection_id')
      .notNull()
      .references(() => dashboardCollections.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    charts: jsonb('charts')
      .notNull()
      .default(sql`'[]'::jsonb`),
    layout: jsonb('layout')
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('dashboards_collection_idx').on(t.collectionId)],
);

export const useCases = pgTable(
  'use_cases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    jobId: uuid('job_id')
      .notNull()
      .references(() => inferenceJobs.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    line: jsonb('line'),
    intervalSeconds: integer('interval_seconds').notNull().default(60),
    createdAt: createdAt(),
  },
  (t) => [index('use_cases_user_idx').on(t.userId), index('use_cases_job_idx').on(t.jobId)],
);

export const useCaseRecords = pgTable(
  'use_case_records',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    useCaseId: uuid('use_case_id')
      .notNull()
      .references(() => useCases.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    kind: text('kind').notNull(),
    direction: text('direction'),
    class: text('class').notNull(),
    cameraId: text('camera_id').notNull(),
    track: text('track').notNull(),
    identity: text('identity'),
    ageBand: text('age_band'),
    gender: text('gender'),
    plate: text('plate'),
    speed: real('speed'),
  },
  (t) => [
    unique('use_case_records_key_uq').on(t.useCaseId, t.key),
    index('use_case_records_case_at_idx').on(t.useCaseId, t.kind, t.at),
    index('use_case_records_user_at_idx').on(t.userId, t.kind, t.at),
  ],
);

export const eventRollupHourly = pgTable(
  'event_rollup_hourly',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    hour: timestamp('hour', { withTimezone: true }).notNull(),
    class: text('class').notNull(),
    cameraId: text('camera_id').notNull(),
    severity: text('severity').notNull(),
    count: bigint('count', { mode: 'number' }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.hour, t.class, t.cameraId, t.severity] })],
);
