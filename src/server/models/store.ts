/**
 * The model repository on the server (issue 9 "Models"): model rows, version rows and their files
 * `DATA_DIR/models/<model id>/<version id>` (mode 0600), and the row → protocol shape mappings.
 *
 * - `newModelId(classes)`: §5 "Model ids get prefix M when they have classes, otherwise P" + 11 random
 *   uppercase letters/digits.
 * - `addModelVersion(ctx, user, file, meta)`: a new model or a new version of the user's model from a stored
 *   file (moved, or copied when on another disk); 404 for a model not the user's, 409 on a taken name.
 * - `deleteModel` / `deleteVersion`: rows and files.
 */
import { randomBytes } from 'node:crypto';
import { copyFile, mkdir, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import {
  DEPLOY_FINAL_STATES,
  DEPLOY_STALE_MS,
  fileMatchesFormat,
  MODEL_FORMATS,
  modelIdPrefix,
  ModelUploadMeta,
  type Model,
  type ModelDeployment,
  type ModelFormat,
  type ModelTask,
  type ModelVersion,
} from '../../protocol/models';
import type { UserRow } from '../auth/guard';
import type { ServerContext } from '../context';
import { devices, modelDeployments, models, modelVersions, users } from '../db/schema';
import { HttpError, notFound } from '../errors';
import type { z } from 'zod';

export type ModelRow = typeof models.$inferSelect;
export type VersionRow = typeof modelVersions.$inferSelect;
export type DeploymentRow = typeof modelDeployments.$inferSelect;

/** Parsed 'model' upload meta. */
export type ModelMeta = z.output<typeof ModelUploadMeta>;

const ID_ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/** §5: a new model id, M + 11 when the model has classes, otherwise P + 11 (uppercase letters and digits). */
export function newModelId(classes: readonly string[]): string {
  const bytes = randomBytes(11);
  let id: string = modelIdPrefix(classes);
  for (const b of bytes) id += ID_ALPHABET[b % ID_ALPHABET.length];
  return id;
}

/** The folder of all model files. */
export const modelsDir = (ctx: ServerContext) => path.join(ctx.config.dataDir, 'models');
/** The file of one version. */
export const versionFile = (ctx: ServerContext, modelId: string, versionId: string) =>
  path.join(modelsDir(ctx), modelId, versionId);

/** A version row (with its uploader's name) as the protocol shows it. */
export const toVersion = (v: VersionRow, uploader: string | null): ModelVersion => ({
  id: v.id,
  model_id: v.modelId,
  version: v.version,
  file_name: v.fileName,
  size: v.size,
  sha256: v.sha256,
  notes: v.notes,
  uploaded_by: uploader,
  created_at: v.createdAt.toISOString(),
});

/** A model row with its version count and newest version, as lists show it. */
export const toModel = (m: ModelRow, versions: number, latest: ModelVersion | null): Model => ({
  id: m.id,
  name: m.name,
  task: m.task as ModelTask,
  format: m.format as ModelFormat,
  classes: m.classes,
  input_width: m.inputWidth,
  input_height: m.inputHeight,
  description: m.description,
  versions,
  latest,
  size: latest?.size ?? 0,
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
});

/** The versions of `modelIds`, newest first, with their uploaders' names. */
export async function versionsOf(ctx: ServerContext, modelIds: string[]): Promise<ModelVersion[]> {
  if (modelIds.length === 0) return [];
  const rows = await ctx.db
    .select({ v: modelVersions, uploader: users.username })
    .from(modelVersions)
    .leftJoin(users, eq(users.id, modelVersions.uploadedBy))
    .where(inArray(modelVersions.modelId, modelIds))
    .orderBy(desc(modelVersions.version));
  return rows.map((r) => toVersion(r.v, r.uploader));
}

/** Models with their counts and newest versions, in the order of `rows`. */
export async function withVersions(ctx: ServerContext, rows: ModelRow[]): Promise<Model[]> {
  const versions = await versionsOf(
    ctx,
    rows.map((r) => r.id),
  );
  return rows.map((m) => {
    const own = versions.filter((v) => v.model_id === m.id);
    return toModel(m, own.length, own[0] ?? null);
  });
}

/** The user's model `id`; 404 when absent or another user's. */
export async function ownModel(ctx: ServerContext, ownerId: string, id: string): Promise<ModelRow> {
  const [row] = await ctx.db
    .select()
    .from(models)
    .where(and(eq(models.id, id), eq(models.ownerId, ownerId)))
    .limit(1);
  if (!row) throw notFound('Model');
  return row;
}

/** True for PostgreSQL's unique violation (23505), as drizzle wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  return e?.code === '23505' || e?.cause?.code === '23505';
}

export const nameTaken = (name: string) =>
  new HttpError(409, 'Model_exists', `You already have a model named “${name}”.`);

const unsupported = (fileName: string, format: ModelFormat) =>
  new HttpError(
    415,
    'Unsupported_media_type',
    `${fileName}: a ${format} model must be a ${MODEL_FORMATS[format].join(', ')} file.`,
  );

/**
 * Checks an upload before its first byte: the file's extension must be one of the declared format's (a new
 * version: the model's format), the model of a new version must be the user's (404), a new model's name must
 * be free (409). Resolves with the format.
 */
export async function checkModelUpload(
  ctx: ServerContext,
  user: UserRow,
  meta: ModelMeta,
  fileName: string,
): Promise<ModelFormat> {
  if (meta.kind === 'new-version') {
    const model = await ownModel(ctx, user.id, meta.model_id);
    const format = model.format as ModelFormat;
    if (!fileMatchesFormat(fileName, format)) throw unsupported(fileName, format);
    return format;
  }
  if (!fileMatchesFormat(fileName, meta.format)) throw unsupported(fileName, meta.format);
  const [taken] = await ctx.db
    .select({ id: models.id })
    .from(models)
    .where(and(eq(models.ownerId, user.id), eq(models.name, meta.name)))
    .limit(1);
  if (taken) throw nameTaken(meta.name);
  return meta.format;
}

/** Moves `from` to `to` (copies across disks). */
async function moveFile(from: string, to: string): Promise<void> {
  await mkdir(path.dirname(to), { recursive: true });
  try {
    await rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await copyFile(from, to);
    await rm(from, { force: true });
  }
}

/**
 * Records a stored file as a new model (version 1) or the next version of the user's model, and moves the file
 * into model storage. file: absolute path, size bytes, sha256 hex, the browser's file name.
 * @throws HttpError 404 (model not the user's), 409 (name taken), 415 (extension not of the format).
 */
export async function addModelVersion(
  ctx: ServerContext,
  user: UserRow,
  file: { path: string; size: number; sha256: string; fileName: string },
  meta: ModelMeta,
): Promise<{ model: Model; version: ModelVersion }> {
  await checkModelUpload(ctx, user, meta, file.fileName);
  const { modelRow, versionRow } = await ctx.db.transaction(async (tx) => {
    let modelRow: ModelRow;
    if (meta.kind === 'new-model') {
      try {
        const [created] = await tx
          .insert(models)
          .values({
            id: newModelId(meta.classes),
            ownerId: user.id,
            name: meta.name,
            task: meta.task,
            format: meta.format,
            classes: meta.classes,
            inputWidth: meta.input_width,
            inputHeight: meta.input_height,
            description: meta.description,
          })
          .returning();
        modelRow = created!;
      } catch (err) {
        if (isUniqueViolation(err)) throw nameTaken(meta.name);
        throw err;
      }
    } else {
      // Row lock: two versions uploaded at once get 2 and 3, never both 2.
      const [locked] = await tx
        .select()
        .from(models)
        .where(and(eq(models.id, meta.model_id), eq(models.ownerId, user.id)))
        .for('update');
      if (!locked) throw notFound('Model');
      const [updated] = await tx
        .update(models)
        .set({ updatedAt: new Date() })
        .where(eq(models.id, locked.id))
        .returning();
      modelRow = updated!;
    }
    const [next] = await tx
      .select({ n: sql<number>`coalesce(max(${modelVersions.version}), 0) + 1` })
      .from(modelVersions)
      .where(eq(modelVersions.modelId, modelRow.id));
    const [versionRow] = await tx
      .insert(modelVersions)
      .values({
        modelId: modelRow.id,
        version: Number(next?.n ?? 1),
        fileName: file.fileName,
        size: file.size,
        sha256: file.sha256,
        notes: meta.notes,
        uploadedBy: user.id,
      })
      .returning();
    await moveFile(file.path, versionFile(ctx, modelRow.id, versionRow!.id));
    return { modelRow, versionRow: versionRow! };
  });
  const [model] = await withVersions(ctx, [modelRow]);
  return { model: model!, version: toVersion(versionRow, user.username) };
}

/** Deletes the user's model, its versions (rows and files) and deployments. 404 when not theirs. */
export async function deleteModel(ctx: ServerContext, ownerId: string, id: string): Promise<void> {
  const model = await ownModel(ctx, ownerId, id);
  await ctx.db.delete(models).where(eq(models.id, model.id));
  await rm(path.join(modelsDir(ctx), model.id), { recursive: true, force: true });
}

/** Deletes one version of the user's model (row, file, its deployments' records). 404 when absent. */
export async function deleteVersion(
  ctx: ServerContext,
  ownerId: string,
  id: string,
  version: number,
): Promise<void> {
  const model = await ownModel(ctx, ownerId, id);
  const [row] = await ctx.db
    .delete(modelVersions)
    .where(and(eq(modelVersions.modelId, model.id), eq(modelVersions.version, version)))
    .returning();
  if (!row) throw notFound('Model version');
  await rm(versionFile(ctx, model.id, row.id), { force: true });
}

/**
 * The state a deployment row is shown with: a row not final whose device has not reported for DEPLOY_STALE_MS
 * (`now` in ms) is failed with code 'stale' (read-time only; a later report from the device wins).
 */
export function shownState(
  row: Pick<DeploymentRow, 'state' | 'updatedAt' | 'errorCode' | 'errorMessage'>,
  now: number,
): { state: ModelDeployment['state']; error: ModelDeployment['error'] } {
  const state = row.state as ModelDeployment['state'];
  if (!DEPLOY_FINAL_STATES.includes(state) && now - row.updatedAt.getTime() > DEPLOY_STALE_MS) {
    return {
      state: 'failed',
      error: { code: 'stale', message: 'The device stopped reporting this download.' },
    };
  }
  return {
    state,
    error:
      row.errorCode !== null ? { code: row.errorCode, message: row.errorMessage ?? row.errorCode } : null,
  };
}

/** Deployment rows (joined with their device, model and version) as the protocol shows them. */
export async function deploymentsWhere(
  ctx: ServerContext,
  where: ReturnType<typeof and>,
  limit = 200,
): Promise<ModelDeployment[]> {
  const rows = await ctx.db
    .select({
      d: modelDeployments,
      deviceId: devices.deviceId,
      deviceLabel: devices.label,
      modelName: models.name,
      version: modelVersions.version,
      fileName: modelVersions.fileName,
    })
    .from(modelDeployments)
    .innerJoin(devices, eq(devices.id, modelDeployments.deviceId))
    .innerJoin(models, eq(models.id, modelDeployments.modelId))
    .innerJoin(modelVersions, eq(modelVersions.id, modelDeployments.versionId))
    .where(where)
    .orderBy(desc(modelDeployments.updatedAt))
    .limit(limit);
  const now = Date.now();
  return rows.map((r) => ({
    ...shownState(r.d, now),
    id: r.d.id,
    device_id: r.deviceId,
    device_label: r.deviceLabel,
    model_id: r.d.modelId,
    model_name: r.modelName,
    version_id: r.d.versionId,
    version: r.version,
    file_name: r.fileName,
    bytes_done: r.d.bytesDone,
    bytes_total: r.d.bytesTotal,
    created_at: r.d.createdAt.toISOString(),
    updated_at: r.d.updatedAt.toISOString(),
  }));
}
