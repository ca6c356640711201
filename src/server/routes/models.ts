/**
 * Handlers of the models feature's routes (src/protocol/models.ts; issue 9 "Models"):
 *   GET    models?search&sort&order&page&per_page&kind  → { data, page_info } (the caller's; kind llm = llm/vlm)
 *   GET    models/:id                                   → ModelDetail; 404 not the caller's
 *   PUT    models/:id                                   → Model (name, task, description); 409 name taken
 *   DELETE models/:id, models/:id/versions/:version     → { ok }; rows and files
 *   GET    models/:id/versions/:version/file            → the bytes (Range → 206), user or device of the owner
 *   POST   models/:id/deploy { version, device_id }     → ModelDeployment queued (one row per device + version)
 *   GET    model-deployments?device_id                  → { deployments } newest first (≤ 200)
 *   DELETE model-deployments/:id                        → { ok }
 *   GET    device/model-deployments/:id                 (device) → DeployDescriptor of its own deployment
 *   POST   device/model-deployments/:id/status          (device) → { ok }; progress, installed, failed
 * Uploads of model files go through the uploads feature (purpose 'model', src/server/models/uploadPurpose.ts).
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { LLM_TASKS, type modelRoutes } from '../../protocol/models';
import { routeUrl } from '../../protocol/route';
import { modelRoutes as routeTable } from '../../protocol/models';
import { userOf, deviceOf } from '../auth/guard';
import { devices, modelDeployments, models, modelVersions } from '../db/schema';
import { HttpError, notFound } from '../errors';
import {
  deleteModel,
  deleteVersion,
  deploymentsWhere,
  isUniqueViolation,
  nameTaken,
  ownModel,
  toVersion,
  versionFile,
  versionsOf,
  withVersions,
} from '../models/store';
import type { HandlersOf } from './register';

/** `%` and `_` taken literally in an ILIKE pattern. */
const likeEscape = (s: string) => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** Parses `bytes=start-[end]` against a file of `size` bytes; null for no/unsupported Range, 'bad' if unsatisfiable. */
export function parseRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | null | 'bad' {
  if (!header) return null;
  const m = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    const suffix = Number(m[2]);
    start = Math.max(0, size - suffix);
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'bad';
  return { start, end };
}

export const modelHandlers: HandlersOf<typeof modelRoutes> = (ctx) => ({
  'models.list': async ({ query }, request) => {
    const user = userOf(request);
    const filters: SQL[] = [eq(models.ownerId, user.id)];
    if (query.kind === 'llm') filters.push(inArray(models.task, [...LLM_TASKS]));
    const q = query.search.trim();
    if (q) {
      const pattern = `%${likeEscape(q)}%`;
      filters.push(
        or(
          ilike(models.name, pattern),
          ilike(models.task, pattern),
          ilike(models.format, pattern),
          ilike(models.id, pattern),
        )!,
      );
    }
    const where = and(...filters);
    const latestSize = sql<number>`coalesce((select ${modelVersions.size} from ${modelVersions} where ${modelVersions.modelId} = ${models.id} order by ${modelVersions.version} desc limit 1), 0)`;
    const key =
      query.sort === 'name'
        ? sql`lower(${models.name})`
        : query.sort === 'size'
          ? latestSize
          : query.sort === 'created_at'
            ? models.createdAt
            : models.updatedAt;
    const dir = query.order === 'asc' ? asc : desc;
    const [total] = await ctx.db.select({ n: count() }).from(models).where(where);
    const rows = await ctx.db
      .select()
      .from(models)
      .where(where)
      .orderBy(dir(key), dir(models.id))
      .limit(query.per_page)
      .offset((query.page - 1) * query.per_page);
    return {
      data: await withVersions(ctx, rows),
      page_info: { page: query.page, per_page: query.per_page, total_items: Number(total?.n ?? 0) },
    };
  },

  'models.get': async ({ params }, request) => {
    const user = userOf(request);
    const row = await ownModel(ctx, user.id, params.id);
    const versions = await versionsOf(ctx, [row.id]);
    const [model] = await withVersions(ctx, [row]);
    const deployments = await deploymentsWhere(ctx, and(eq(modelDeployments.modelId, row.id)));
    return { ...model!, version_list: versions, deployments };
  },

  'models.update': async ({ params, body }, request) => {
    const user = userOf(request);
    const row = await ownModel(ctx, user.id, params.id);
    try {
      const [updated] = await ctx.db
        .update(models)
        .set({
          ...(body.name !== undefined ? { name: body.name } : {}),
          ...(body.task !== undefined ? { task: body.task } : {}),
          ...(body.description !== undefined ? { description: body.description } : {}),
        })
        .where(eq(models.id, row.id))
        .returning();
      const [model] = await withVersions(ctx, [updated!]);
      return model!;
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken(body.name ?? row.name);
      throw err;
    }
  },

  'models.delete': async ({ params }, request) => {
    await deleteModel(ctx, userOf(request).id, params.id);
    return { ok: true as const };
  },

  'models.deleteVersion': async ({ params }, request) => {
    await deleteVersion(ctx, userOf(request).id, params.id, params.version);
    return { ok: true as const };
  },

  'models.file': async ({ params }, request, reply) => {
    const ownerId = request.device ? request.device.ownerId : userOf(request).id;
    const model = await ownModel(ctx, ownerId, params.id);
    const [row] = await ctx.db
      .select()
      .from(modelVersions)
      .where(and(eq(modelVersions.modelId, model.id), eq(modelVersions.version, params.version)))
      .limit(1);
    if (!row) throw notFound('Model version');
    const file = versionFile(ctx, model.id, row.id);
    const info = await stat(file).catch(() => null);
    if (!info) throw notFound('The file of this model version');
    const range = parseRange(request.headers.range, info.size);
    void reply
      .header('accept-ranges', 'bytes')
      .header('content-type', 'application/octet-stream')
      .header('x-content-sha256', row.sha256)
      .header('content-disposition', `attachment; filename="${encodeURIComponent(row.fileName)}"`);
    if (range === 'bad') {
      throw new HttpError(416, 'Range_not_satisfiable', `The file has ${info.size} bytes.`);
    }
    if (range) {
      void reply
        .code(206)
        .header('content-range', `bytes ${range.start}-${range.end}/${info.size}`)
        .header('content-length', String(range.end - range.start + 1));
      return reply.send(createReadStream(file, { start: range.start, end: range.end })) as never;
    }
    void reply.header('content-length', String(info.size));
    return reply.send(createReadStream(file)) as never;
  },

  'models.deploy': async ({ params, body }, request) => {
    const user = userOf(request);
    const model = await ownModel(ctx, user.id, params.id);
    const [version] = await ctx.db
      .select()
      .from(modelVersions)
      .where(and(eq(modelVersions.modelId, model.id), eq(modelVersions.version, body.version)))
      .limit(1);
    if (!version) throw notFound('Model version');
    const [device] = await ctx.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.deviceId, body.device_id), eq(devices.ownerId, user.id)))
      .limit(1);
    if (!device) throw notFound('Device');
    const [row] = await ctx.db
      .insert(modelDeployments)
      .values({
        ownerId: user.id,
        deviceId: device.id,
        modelId: model.id,
        versionId: version.id,
        bytesTotal: version.size,
      })
      .onConflictDoUpdate({
        target: [modelDeployments.deviceId, modelDeployments.versionId],
        set: {
          state: 'queued',
          bytesDone: 0,
          bytesTotal: version.size,
          errorCode: null,
          errorMessage: null,
          createdAt: new Date(),
          updatedAt: new Date(),
        },
      })
      .returning({ id: modelDeployments.id });
    const [deployment] = await deploymentsWhere(ctx, and(eq(modelDeployments.id, row!.id)), 1);
    return deployment!;
  },

  'models.deployments': async ({ query }, request) => {
    const user = userOf(request);
    const filters: SQL[] = [eq(modelDeployments.ownerId, user.id)];
    if (query.device_id) filters.push(eq(devices.deviceId, query.device_id));
    return { deployments: await deploymentsWhere(ctx, and(...filters)) };
  },

  'models.deleteDeployment': async ({ params }, request) => {
    const user = userOf(request);
    const [row] = await ctx.db
      .delete(modelDeployments)
      .where(and(eq(modelDeployments.id, params.id), eq(modelDeployments.ownerId, user.id)))
      .returning({ id: modelDeployments.id });
    if (!row) throw notFound('Deployment');
    return { ok: true as const };
  },

  'models.deviceDeployment': async ({ params }, request) => {
    const device = deviceOf(request);
    const [row] = await ctx.db
      .select({ d: modelDeployments, m: models, v: modelVersions })
      .from(modelDeployments)
      .innerJoin(models, eq(models.id, modelDeployments.modelId))
      .innerJoin(modelVersions, eq(modelVersions.id, modelDeployments.versionId))
      .where(and(eq(modelDeployments.id, params.id), eq(modelDeployments.deviceId, device.id)))
      .limit(1);
    if (!row) throw notFound('Deployment');
    const version = toVersion(row.v, null);
    return {
      deployment_id: row.d.id,
      model_id: row.m.id,
      model_name: row.m.name,
      task: row.m.task as never,
      format: row.m.format as never,
      classes: row.m.classes,
      version_id: version.id,
      version: version.version,
      file_name: version.file_name,
      size: version.size,
      sha256: version.sha256,
      file_path: routeUrl(routeTable['models.file'], { id: row.m.id, version: version.version }),
    };
  },

  'models.deviceReport': async ({ params, body }, request) => {
    const device = deviceOf(request);
    const [row] = await ctx.db
      .update(modelDeployments)
      .set({
        state: body.state,
        bytesDone: body.bytes_done,
        bytesTotal: body.bytes_total,
        errorCode: body.error?.code ?? null,
        errorMessage: body.error?.message ?? null,
        updatedAt: new Date(),
      })
      .where(and(eq(modelDeployments.id, params.id), eq(modelDeployments.deviceId, device.id)))
      .returning({ id: modelDeployments.id });
    if (!row) throw notFound('Deployment');
    return { ok: true as const };
  },
});
