/** Database schema, Applications (issue 9): a model version paired with its pipeline settings. Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import {
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, users } from './core';
import { modelVersions } from './models';

/**
 * An application (spec §2 /applications; §3 "Model/application list"): one of its owner's model versions with
 * the pipeline settings an inference job starts with. input_source: 'camera' | 'ip-camera' | 'video-file' |
 * 'rtsp'; input_width/height: frame size in pixels (null: the model's input size); fps: frames per second;
 * threshold: detection threshold 0–1 (§9 default 0.3); classes: detected classes, a subset of the model's
 * (empty: all); tracker: 'none' | 'iou' | 'sort' | 'deepsort' | 'bytetrack' | 'nvdcf'. Deleting the model
 * version (or its model) deletes its applications. Names are unique per owner.
 */
export const applications = pgTable(
  'applications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    modelVersionId: uuid('model_version_id')
      .notNull()
      .references(() => modelVersions.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    inputSource: text('input_source').notNull().default('camera'),
    inputWidth: integer('input_width'),
    inputHeight: integer('input_height'),
    fps: integer('fps').notNull().default(25),
    threshold: doublePrecision('threshold').notNull().default(0.3),
    classes: text('classes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    tracker: text('tracker').notNull().default('none'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('applications_owner_name_uq').on(t.ownerId, t.name),
    index('applications_owner_updated_idx').on(t.ownerId, t.updatedAt),
    index('applications_model_version_idx').on(t.modelVersionId),
    check('applications_threshold_ck', sql`${t.threshold} >= 0 and ${t.threshold} <= 1`),
  ],
);
