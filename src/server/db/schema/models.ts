/** Database schema, Model repository and model deployments to devices (issue 9). Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import { bigint, check, index, integer, pgTable, text, timestamp, unique, uuid } from 'drizzle-orm/pg-core';
import { createdAt, devices, users } from './core';

/**
 * A model of the repository (issue 9 "Models"), owned by the user who created it. id: spec §5 "Model ids get
 * prefix M when they have classes, otherwise P" + 11 uppercase letters/digits (src/server/models/ids.ts).
 * task: what it does (e.g. 'object-detection', 'llm'); format: the file format of its versions (onnx,
 * tensorrt, pytorch, tflite, safetensors, gguf, zip); classes: its output labels (empty for none);
 * input_width/height: input size in pixels (null when not an image model).
 */
export const models = pgTable(
  'models',
  {
    id: text('id').primaryKey(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    task: text('task').notNull(),
    format: text('format').notNull(),
    classes: text('classes')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    inputWidth: integer('input_width'),
    inputHeight: integer('input_height'),
    description: text('description').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('models_owner_name_uq').on(t.ownerId, t.name),
    index('models_owner_updated_idx').on(t.ownerId, t.updatedAt),
  ],
);

/**
 * One uploaded file of a model (issue 9 "versions"): version is 1, 2, … per model; size in bytes; sha256 64
 * lowercase hex digits. The file is `DATA_DIR/models/<model id>/<version id>` on the server.
 * uploaded_by: the user who uploaded it (null once that user is deleted).
 */
export const modelVersions = pgTable(
  'model_versions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    modelId: text('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    version: integer('version').notNull(),
    fileName: text('file_name').notNull(),
    size: bigint('size', { mode: 'number' }).notNull(),
    sha256: text('sha256').notNull(),
    notes: text('notes').notNull().default(''),
    uploadedBy: uuid('uploaded_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [unique('model_versions_model_version_uq').on(t.modelId, t.version)],
);

/**
 * A model version deployed to a device (issue 9 "Deploy"), as the device reports it with its token: state
 * queued → downloading → verifying → installed | failed | canceled; bytes_done / bytes_total in bytes; error
 * code and message of a failed one. One row per device and version (a new deploy of the same version reuses it).
 */
export const modelDeployments = pgTable(
  'model_deployments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    ownerId: uuid('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: uuid('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    modelId: text('model_id')
      .notNull()
      .references(() => models.id, { onDelete: 'cascade' }),
    versionId: uuid('version_id')
      .notNull()
      .references(() => modelVersions.id, { onDelete: 'cascade' }),
    state: text('state').notNull().default('queued'),
    bytesDone: bigint('bytes_done', { mode: 'number' }).notNull().default(0),
    bytesTotal: bigint('bytes_total', { mode: 'number' }).notNull().default(0),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('model_deployments_device_version_uq').on(t.deviceId, t.versionId),
    index('model_deployments_owner_updated_idx').on(t.ownerId, t.updatedAt),
    check(
      'model_deployments_state_ck',
      sql`${t.state} in ('queued', 'downloading', 'verifying', 'installed', 'failed', 'canceled')`,
    ),
  ],
);
