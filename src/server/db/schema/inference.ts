/** Database schema, Inference jobs (issue 10; spec §3 Job). Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { applications } from './applications';
import { createdAt, devices, users } from './core';

/**
 * §3 Job: one application run on one camera of one device of its owner. job_name; application_name (kept
 * when the application is deleted: application_id then null); cameras: camera ids (one today); state: §4 job
 * events 'created' | 'deploying' | 'started' | 'error' | 'stopped'; options: the start options (resolution,
 * threshold, recording, engine) as JSON; runtime: the §3 runtime fields the device last reported (jobId,
 * childJobId, port, scriptPath, inferenceUrl, containerName, inferenceEngineError, message) as JSON.
 */
export const inferenceJobs = pgTable(
  'inference_jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceRowId: uuid('device_row_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    applicationId: uuid('application_id').references(() => applications.id, { onDelete: 'set null' }),
    jobName: text('job_name').notNull(),
    applicationName: text('application_name').notNull(),
    cameras: text('cameras')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    cameraLabel: text('camera_label').notNull().default(''),
    state: text('state').notNull().default('created'),
    options: jsonb('options').notNull(),
    runtime: jsonb('runtime').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('inference_jobs_owner_idx').on(t.ownerId, t.createdAt)],
);
