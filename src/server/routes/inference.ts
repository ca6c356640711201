/**
 * Handlers of the inference feature's routes (src/protocol/inference.ts; spec §3 Job, §4 "Job events"):
 *   GET    /api/jobs             → { jobs } (newest first)
 *   POST   /api/jobs             → the created job (state created; 404 application or device not the caller's)
 *   PUT    /api/jobs/:id/state   → the job with its new state and runtime fields (§4 started, error, deploying, stop)
 *   DELETE /api/jobs/:id         → { ok } (§4 delete)
 *   POST   /api/jobs/delete      → { deleted } (§4 multiple deletion; ids not the caller's are skipped)
 * Everything is scoped to the caller (404, never revealing another user's rows). The device runs the job;
 * the server keeps what the console reports of it.
 */
import { and, desc, eq, inArray } from 'drizzle-orm';
import {
  EMPTY_RUNTIME,
  type inferenceRoutes,
  type Job,
  type JobOptions,
  type JobRuntime,
  type JobState,
} from '../../protocol/inference';
import { userOf } from '../auth/guard';
import type { Db } from '../db';
import { applications, devices, inferenceJobs } from '../db/schema';
import { notFound } from '../errors';
import type { HandlersOf } from './register';

const select = {
  job: inferenceJobs,
  deviceId: devices.deviceId,
  deviceLabel: devices.label,
};
type Joined = { job: typeof inferenceJobs.$inferSelect; deviceId: string; deviceLabel: string };

const toJob = (r: Joined): Job => ({
  id: r.job.id,
  job_name: r.job.jobName,
  application_id: r.job.applicationId,
  application_name: r.job.applicationName,
  device_id: r.deviceId,
  device_label: r.deviceLabel,
  cameras: r.job.cameras,
  camera_label: r.job.cameraLabel,
  state: r.job.state as JobState,
  options: r.job.options as JobOptions,
  runtime: { ...EMPTY_RUNTIME, ...(r.job.runtime as Partial<JobRuntime>) },
  created_at: r.job.createdAt.toISOString(),
  updated_at: r.job.updatedAt.toISOString(),
});

const joined = (db: Db) =>
  db.select(select).from(inferenceJobs).innerJoin(devices, eq(devices.id, inferenceJobs.deviceRowId));

async function one(db: Db, ownerId: string, id: string): Promise<Job> {
  const [row] = await joined(db)
    .where(and(eq(inferenceJobs.ownerId, ownerId), eq(inferenceJobs.id, id)))
    .limit(1);
  if (!row) throw notFound('Job');
  return toJob(row);
}

export const inferenceHandlers: HandlersOf<typeof inferenceRoutes> = (ctx) => ({
  'inference.jobs': async (_input, request) => {
    const rows = await joined(ctx.db)
      .where(eq(inferenceJobs.ownerId, userOf(request).id))
      .orderBy(desc(inferenceJobs.createdAt), desc(inferenceJobs.id))
      .limit(1000);
    return { jobs: rows.map(toJob) };
  },

  'inference.createJob': async ({ body }, request) => {
    const owner = userOf(request).id;
    const [app] = await ctx.db
      .select({ id: applications.id, name: applications.name, threshold: applications.threshold })
      .from(applications)
      .where(and(eq(applications.ownerId, owner), eq(applications.id, body.application_id)))
      .limit(1);
    if (!app) throw notFound('Application');
    const [device] = await ctx.db
      .select({ id: devices.id })
      .from(devices)
      .where(and(eq(devices.ownerId, owner), eq(devices.deviceId, body.device_id)))
      .limit(1);
    if (!device) throw notFound('Device');
    const options: JobOptions = {
      resolution: body.resolution,
      threshold: body.threshold ?? app.threshold,
      recording: body.recording,
      engine: body.engine,
    };
    const [row] = await ctx.db
      .insert(inferenceJobs)
      .values({
        ownerId: owner,
        deviceRowId: device.id,
        applicationId: app.id,
        jobName: body.job_name,
        applicationName: app.name,
        cameras: [body.camera_id],
        cameraLabel: body.camera_label,
        state: 'created',
        options,
        runtime: EMPTY_RUNTIME,
      })
      .returning({ id: inferenceJobs.id });
    return one(ctx.db, owner, row!.id);
  },

  'inference.jobState': async ({ params, body }, request) => {
    const owner = userOf(request).id;
    const current = await one(ctx.db, owner, params.id);
    const runtime: JobRuntime = { ...current.runtime, ...body.runtime };
    const options: JobOptions = body.engine ? { ...current.options, engine: body.engine } : current.options;
    await ctx.db
      .update(inferenceJobs)
      .set({ state: body.state, runtime, options, updatedAt: new Date() })
      .where(and(eq(inferenceJobs.ownerId, owner), eq(inferenceJobs.id, params.id)));
    return one(ctx.db, owner, params.id);
  },

  'inference.deleteJob': async ({ params }, request) => {
    const removed = await ctx.db
      .delete(inferenceJobs)
      .where(and(eq(inferenceJobs.ownerId, userOf(request).id), eq(inferenceJobs.id, params.id)))
      .returning({ id: inferenceJobs.id });
    if (removed.length === 0) throw notFound('Job');
    return { ok: true as const };
  },

  'inference.deleteJobs': async ({ body }, request) => {
    const removed = await ctx.db
      .delete(inferenceJobs)
      .where(and(eq(inferenceJobs.ownerId, userOf(request).id), inArray(inferenceJobs.id, body.ids)))
      .returning({ id: inferenceJobs.id });
    return { deleted: removed.map((r) => r.id) };
  },
});
