/**
 * Handlers of the analytics feature's routes (src/protocol/analytics.ts; issue 11 Analytics and use cases):
 *   GET/POST/PUT/DELETE analytics/collections[/:id]     → collections with dashboard counts; 409 name taken
 *   GET  analytics/collections/:id/dashboards            → { collection, dashboards }
 *   POST/GET/PUT/DELETE analytics/dashboards[/:id]       → Dashboard (charts, layout)
 *   POST analytics/dashboards/:id/data                   → { charts: [{ id, rows }], server_ms } (../analytics/aggregate.ts)
 *   GET/POST/PUT/DELETE use-cases[/:id]                  → UseCase on one of the caller's inference jobs
 *   GET  use-cases/:id/{counts,people,vehicles}          → per-bucket counts, people by age band and gender, plates
 *   GET  device/use-cases, POST device/use-cases/records → what a device runs; its crossings and sightings
 * Every row is the caller's (404 otherwise).
 */
import { and, asc, count, eq, inArray } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import type {
  analyticsRoutes,
  Chart,
  Collection,
  CountingLine,
  Dashboard,
  LayoutItem,
  UseCase,
  UseCaseInput,
} from '../../protocol/analytics';
import { deviceOf, userOf } from '../auth/guard';
import type { Db } from '../db';
import { isUniqueViolation, isUuid } from '../db/scope';
import { dashboardCollections, dashboards, devices, inferenceJobs, useCases } from '../db/schema';
import { HttpError } from '../errors';
import { dashboardRows } from '../analytics/aggregate';
import { countsOf, peopleOf, recordFromDevice, vehiclesOf } from '../analytics/useCases';
import type { HandlersOf } from './register';

const notFound = (what: string) => new HttpError(404, API_ERROR_CODES.notFound, `${what} not found.`);
const taken = () => new HttpError(409, 'Collection_exists', 'A collection with this name already exists.');

type CollectionRow = typeof dashboardCollections.$inferSelect;
type DashboardRow = typeof dashboards.$inferSelect;

const toCollection = (r: CollectionRow, n: number): Collection => ({
  id: r.id,
  name: r.name,
  description: r.description,
  dashboards: n,
  created_at: r.createdAt.toISOString(),
});
const toDashboard = (r: DashboardRow): Dashboard => ({
  id: r.id,
  name: r.name,
  collection_id: r.collectionId,
  charts: r.charts as Chart[],
  layout: r.layout as LayoutItem[],
  updated_at: r.updatedAt.toISOString(),
});

async function ownCollection(db: Db, user: string, id: string): Promise<CollectionRow> {
  if (!isUuid(id)) throw notFound('Collection');
  const [row] = await db
    .select()
    .from(dashboardCollections)
    .where(and(eq(dashboardCollections.id, id), eq(dashboardCollections.userId, user)));
  if (!row) throw notFound('Collection');
  return row;
}
async function ownDashboard(db: Db, user: string, id: string): Promise<DashboardRow> {
  if (!isUuid(id)) throw notFound('Dashboard');
  const [row] = await db
    .select()
    .from(dashboards)
    .where(and(eq(dashboards.id, id), eq(dashboards.userId, user)));
  if (!row) throw notFound('Dashboard');
  return row;
}
async function dashboardCount(db: Db, collectionId: string): Promise<number> {
  const [r] = await db
    .select({ n: count() })
    .from(dashboards)
    .where(eq(dashboards.collectionId, collectionId));
  return Number(r?.n ?? 0);
}

/** A use case with its job's device and camera. */
async function listUseCaseViews(db: Db, user: string, id?: string): Promise<UseCase[]> {
  const rows = await db
    .select({ u: useCases, job: inferenceJobs, deviceId: devices.deviceId })
    .from(useCases)
    .innerJoin(inferenceJobs, eq(inferenceJobs.id, useCases.jobId))
    .innerJoin(devices, eq(devices.id, inferenceJobs.deviceRowId))
    .where(id ? and(eq(useCases.userId, user), eq(useCases.id, id)) : eq(useCases.userId, user))
    .orderBy(asc(useCases.name));
  return rows.map(({ u, job, deviceId }) => ({
    id: u.id,
    name: u.name,
    kind: u.kind as UseCase['kind'],
    job_id: u.jobId,
    job_name: job.jobName,
    device_id: deviceId,
    camera_id: job.cameras[0] ?? '',
    line: (u.line as CountingLine | null) ?? null,
    interval_seconds: u.intervalSeconds,
    created_at: u.createdAt.toISOString(),
  }));
}
async function ownUseCase(db: Db, user: string, id: string): Promise<UseCase> {
  if (!isUuid(id)) throw notFound('Use case');
  const [u] = await listUseCaseViews(db, user, id);
  if (!u) throw notFound('Use case');
  return u;
}
async function saveUseCase(db: Db, user: string, id: string | null, body: UseCaseInput): Promise<UseCase> {
  const [job] = await db
    .select({ id: inferenceJobs.id })
    .from(inferenceJobs)
    .where(and(eq(inferenceJobs.id, body.job_id), eq(inferenceJobs.ownerId, user)));
  if (!job) throw notFound('Job');
  const values = {
    name: body.name,
    kind: body.kind,
    jobId: body.job_id,
    line: body.kind === 'person-counter' ? body.line : null,
    intervalSeconds: body.interval_seconds,
  };
  const [row] = id
    ? await db
        .update(useCases)
        .set(values)
        .where(and(eq(useCases.id, id), eq(useCases.userId, user)))
        .returning()
    : await db
        .insert(useCases)
        .values({ ...values, userId: user })
        .returning();
  if (!row) throw notFound('Use case');
  return ownUseCase(db, user, row.id);
}

export const analyticsHandlers: HandlersOf<typeof analyticsRoutes> = (ctx) => ({
  'analytics.collections': async (_req, request) => {
    const user = userOf(request).id;
    const rows = await ctx.db
      .select({ c: dashboardCollections, n: count(dashboards.id) })
      .from(dashboardCollections)
      .leftJoin(dashboards, eq(dashboards.collectionId, dashboardCollections.id))
      .where(eq(dashboardCollections.userId, user))
      .groupBy(dashboardCollections.id)
      .orderBy(asc(dashboardCollections.name));
    return { collections: rows.map((r) => toCollection(r.c, Number(r.n))) };
  },
  'analytics.createCollection': async ({ body }, request) => {
    try {
      const [row] = await ctx.db
        .insert(dashboardCollections)
        .values({ userId: userOf(request).id, name: body.name, description: body.description })
        .returning();
      return toCollection(row!, 0);
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  },
  'analytics.updateCollection': async ({ params, body }, request) => {
    const user = userOf(request).id;
    const own = await ownCollection(ctx.db, user, params.id);
    try {
      const [row] = await ctx.db
        .update(dashboardCollections)
        .set({ name: body.name, description: body.description })
        .where(eq(dashboardCollections.id, own.id))
        .returning();
      return toCollection(row!, await dashboardCount(ctx.db, own.id));
    } catch (err) {
      if (isUniqueViolation(err)) throw taken();
      throw err;
    }
  },
  'analytics.deleteCollection': async ({ params }, request) => {
    const own = await ownCollection(ctx.db, userOf(request).id, params.id);
    await ctx.db.delete(dashboardCollections).where(eq(dashboardCollections.id, own.id));
    return { ok: true as const };
  },
  'analytics.dashboards': async ({ params }, request) => {
    const own = await ownCollection(ctx.db, userOf(request).id, params.id);
    const rows = await ctx.db
      .select()
      .from(dashboards)
      .where(eq(dashboards.collectionId, own.id))
      .orderBy(asc(dashboards.name));
    return { collection: toCollection(own, rows.length), dashboards: rows.map(toDashboard) };
  },
  'analytics.createDashboard': async ({ body }, request) => {
    const user = userOf(request).id;
    const own = await ownCollection(ctx.db, user, body.collection_id);
    const [row] = await ctx.db
      .insert(dashboards)
      .values({
        userId: user,
        collectionId: own.id,
        name: body.name,
        charts: body.charts,
        layout: body.layout,
      })
      .returning();
    return toDashboard(row!);
  },
  'analytics.dashboard': async ({ params }, request) =>
    toDashboard(await ownDashboard(ctx.db, userOf(request).id, params.id)),
  'analytics.updateDashboard': async ({ params, body }, request) => {
    const own = await ownDashboard(ctx.db, userOf(request).id, params.id);
    const [row] = await ctx.db
      .update(dashboards)
      .set({
        ...(body.name !== undefined ? { name: body.name } : {}),
        ...(body.charts !== undefined ? { charts: body.charts } : {}),
        ...(body.layout !== undefined ? { layout: body.layout } : {}),
        updatedAt: new Date(),
      })
      .where(eq(dashboards.id, own.id))
      .returning();
    return toDashboard(row!);
  },
  'analytics.deleteDashboard': async ({ params }, request) => {
    const own = await ownDashboard(ctx.db, userOf(request).id, params.id);
    await ctx.db.delete(dashboards).where(eq(dashboards.id, own.id));
    return { ok: true as const };
  },
  'analytics.dashboardData': async ({ params, body }, request) => {
    const user = userOf(request).id;
    const own = await ownDashboard(ctx.db, user, params.id);
    const started = performance.now();
    const charts = await dashboardRows(
      ctx.db,
      user,
      own.charts as Chart[],
      { from: new Date(body.from), to: new Date(body.to), bucketSeconds: body.bucket_seconds },
      body.filters,
    );
    return { charts, server_ms: Math.round((performance.now() - started) * 10) / 10 };
  },

  'useCases.list': async (_req, request) => ({
    use_cases: await listUseCaseViews(ctx.db, userOf(request).id),
  }),
  'useCases.create': async ({ body }, request) => saveUseCase(ctx.db, userOf(request).id, null, body),
  'useCases.update': async ({ params, body }, request) => {
    const user = userOf(request).id;
    const own = await ownUseCase(ctx.db, user, params.id);
    return saveUseCase(ctx.db, user, own.id, body);
  },
  'useCases.remove': async ({ params }, request) => {
    const user = userOf(request).id;
    const own = await ownUseCase(ctx.db, user, params.id);
    await ctx.db.delete(useCases).where(eq(useCases.id, own.id));
    return { ok: true as const };
  },
  'useCases.counts': async ({ params, query }, request) => {
    const own = await ownUseCase(ctx.db, userOf(request).id, params.id);
    return countsOf(ctx.db, own.id, windowOf(query));
  },
  'useCases.people': async ({ params, query }, request) => {
    const own = await ownUseCase(ctx.db, userOf(request).id, params.id);
    return peopleOf(ctx.db, own.id, windowOf(query));
  },
  'useCases.vehicles': async ({ params, query }, request) => {
    const own = await ownUseCase(ctx.db, userOf(request).id, params.id);
    return vehiclesOf(ctx.db, own.id, query.q, query.limit);
  },
  'useCases.deviceList': async (_req, request) => {
    const device = deviceOf(request);
    const rows = await ctx.db
      .select({ u: useCases, job: inferenceJobs })
      .from(useCases)
      .innerJoin(inferenceJobs, eq(inferenceJobs.id, useCases.jobId))
      .where(eq(inferenceJobs.deviceRowId, device.id));
    return {
      use_cases: rows.map(({ u, job }) => ({
        id: u.id,
        kind: u.kind as UseCase['kind'],
        job_id: job.id,
        camera_id: job.cameras[0] ?? '',
        line: (u.line as CountingLine | null) ?? null,
      })),
    };
  },
  'useCases.devicePost': async ({ body }, request) => {
    const device = deviceOf(request);
    const ids = [...new Set(body.records.map((r) => r.use_case_id))];
    const rows = await ctx.db
      .select({ id: useCases.id, userId: useCases.userId, cameras: inferenceJobs.cameras })
      .from(useCases)
      .innerJoin(inferenceJobs, eq(inferenceJobs.id, useCases.jobId))
      .where(and(inArray(useCases.id, ids), eq(inferenceJobs.deviceRowId, device.id)));
    if (rows.length !== ids.length) throw notFound('Use case');
    const byId = new Map(rows.map((r) => [r.id, r]));
    return { recorded: await recordFromDevice(ctx.db, body.records, byId) };
  },
});

function windowOf(q: { from: string; to: string; bucket_seconds: number }) {
  return { from: new Date(q.from), to: new Date(q.to), bucketSeconds: q.bucket_seconds };
}
