/**
 * Handlers of the schedulers feature's routes (src/protocol/schedulers.ts; issue 10 `/schedulers`):
 *   GET    schedulers/calendars          → { calendars } the caller's, by name, with job_ids and state now
 *   POST   schedulers/calendars          → Calendar; 404 a job not the caller's, 409 name taken
 *   PUT    schedulers/calendars/:id      → Calendar; 404, 409 as above
 *   DELETE schedulers/calendars/:id      → { ok }; 404 not the caller's
 *   GET    schedulers/calendars/:id/sync → per device, the DeviceCalendar for scheduling-calendar-operation (§7)
 *   PUT    device/jobs/:id/state         → { ok }; the device reports a job it started/stopped on schedule
 * The device is sent calendars by the console over the peer link (§7), as every device command is.
 */
import { and, asc, eq, inArray } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import { EMPTY_RUNTIME, type JobOptions, type JobRuntime, type StartOptions } from '../../protocol/inference';
import {
  calendarState,
  CalendarInterval,
  SCHEDULER_TEXTS,
  type Calendar,
  type CalendarInput,
  type CalendarSync,
  type schedulerRoutes,
} from '../../protocol/schedulers';
import { deviceOf, userOf } from '../auth/guard';
import type { Db } from '../db';
import { isUniqueViolation, isUuid } from '../db/scope';
import {
  applications,
  devices,
  inferenceJobs,
  models,
  modelVersions,
  schedulingCalendarJobs,
  schedulingCalendars,
} from '../db/schema';
import { HttpError } from '../errors';
import type { HandlersOf } from './register';

type Row = typeof schedulingCalendars.$inferSelect;

const notFound = () => new HttpError(404, API_ERROR_CODES.notFound, SCHEDULER_TEXTS.notFound);
const duplicate = () => new HttpError(409, 'Calendar_exists', SCHEDULER_TEXTS.duplicate);
const jobsMissing = () => new HttpError(404, API_ERROR_CODES.notFound, SCHEDULER_TEXTS.jobsMissing);

function toCalendar(r: Row, jobIds: string[], now: number): Calendar {
  const intervals = CalendarInterval.array().parse(r.intervals);
  const s = calendarState({ time_zone: r.timeZone, intervals }, now);
  return {
    id: r.id,
    name: r.name,
    time_zone: r.timeZone,
    intervals,
    job_ids: jobIds,
    active: s.active,
    next: s.next,
    updated_at: r.updatedAt.toISOString(),
  };
}

async function ownCalendar(db: Db, owner: string, id: string): Promise<Row | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(schedulingCalendars)
    .where(and(eq(schedulingCalendars.id, id), eq(schedulingCalendars.ownerId, owner)))
    .limit(1);
  return row ?? null;
}

async function jobIdsOf(db: Db, calendarIds: string[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>();
  if (calendarIds.length === 0) return out;
  const rows = await db
    .select()
    .from(schedulingCalendarJobs)
    .where(inArray(schedulingCalendarJobs.calendarId, calendarIds));
  for (const r of rows) out.set(r.calendarId, [...(out.get(r.calendarId) ?? []), r.jobId]);
  return out;
}

/** Writes the calendar and its jobs in one transaction; 404 when a job is not the caller's, 409 name taken. */
async function save(db: Db, owner: string, id: string | null, body: CalendarInput): Promise<Calendar> {
  const jobIds = [...new Set(body.job_ids)];
  try {
    const row = await db.transaction(async (tx) => {
      if (jobIds.length) {
        const own = await tx
          .select({ id: inferenceJobs.id })
          .from(inferenceJobs)
          .where(and(inArray(inferenceJobs.id, jobIds), eq(inferenceJobs.ownerId, owner)));
        if (own.length !== jobIds.length) throw jobsMissing();
      }
      const values = { name: body.name, timeZone: body.time_zone, intervals: body.intervals };
      const [saved] = id
        ? await tx
            .update(schedulingCalendars)
            .set({ ...values, updatedAt: new Date() })
            .where(and(eq(schedulingCalendars.id, id), eq(schedulingCalendars.ownerId, owner)))
            .returning()
        : await tx
            .insert(schedulingCalendars)
            .values({ ...values, ownerId: owner })
            .returning();
      if (!saved) throw notFound();
      await tx.delete(schedulingCalendarJobs).where(eq(schedulingCalendarJobs.calendarId, saved.id));
      if (jobIds.length) {
        // A job is in one calendar at most: attaching it here takes it from any other.
        await tx.delete(schedulingCalendarJobs).where(inArray(schedulingCalendarJobs.jobId, jobIds));
        await tx
          .insert(schedulingCalendarJobs)
          .values(jobIds.map((jobId) => ({ jobId, calendarId: saved.id })));
      }
      return saved;
    });
    return toCalendar(row, jobIds, Date.now());
  } catch (err) {
    if (isUniqueViolation(err)) throw duplicate();
    throw err;
  }
}

export const schedulerHandlers: HandlersOf<typeof schedulerRoutes> = (ctx) => ({
  'schedulers.list': async (_req, request) => {
    const owner = userOf(request).id;
    const rows = await ctx.db
      .select()
      .from(schedulingCalendars)
      .where(eq(schedulingCalendars.ownerId, owner))
      .orderBy(asc(schedulingCalendars.name));
    const jobs = await jobIdsOf(
      ctx.db,
      rows.map((r) => r.id),
    );
    const now = Date.now();
    return { calendars: rows.map((r) => toCalendar(r, jobs.get(r.id) ?? [], now)) };
  },

  'schedulers.create': async ({ body }, request) => save(ctx.db, userOf(request).id, null, body),

  'schedulers.update': async ({ params, body }, request) => {
    const owner = userOf(request).id;
    if (!(await ownCalendar(ctx.db, owner, params.id))) throw notFound();
    return save(ctx.db, owner, params.id, body);
  },

  'schedulers.delete': async ({ params }, request) => {
    const owner = userOf(request).id;
    if (!(await ownCalendar(ctx.db, owner, params.id))) throw notFound();
    await ctx.db
      .delete(schedulingCalendars)
      .where(and(eq(schedulingCalendars.id, params.id), eq(schedulingCalendars.ownerId, owner)));
    return { ok: true };
  },

  'schedulers.sync': async ({ params }, request) => {
    const owner = userOf(request).id;
    const cal = await ownCalendar(ctx.db, owner, params.id);
    if (!cal) throw notFound();
    // §4 step 3 start options of each job, from the job and its application's model version (a job whose
    // application was deleted cannot start: it is left out).
    const rows = await ctx.db
      .select({
        job: inferenceJobs,
        deviceId: devices.deviceId,
        app: applications,
        modelId: models.id,
        modelName: models.name,
        task: models.task,
        format: models.format,
        modelClasses: models.classes,
        version: modelVersions.version,
      })
      .from(schedulingCalendarJobs)
      .innerJoin(inferenceJobs, eq(inferenceJobs.id, schedulingCalendarJobs.jobId))
      .innerJoin(devices, eq(devices.id, inferenceJobs.deviceRowId))
      .innerJoin(applications, eq(applications.id, inferenceJobs.applicationId))
      .innerJoin(modelVersions, eq(modelVersions.id, applications.modelVersionId))
      .innerJoin(models, eq(models.id, modelVersions.modelId))
      .where(eq(schedulingCalendarJobs.calendarId, cal.id));
    const byDevice = new Map<string, StartOptions[]>();
    for (const r of rows) {
      const o = r.job.options as JobOptions;
      const options: StartOptions = {
        job_id: r.job.id,
        job_name: r.job.jobName,
        application: {
          id: r.app.id,
          name: r.app.name,
          task: r.task,
          format: r.format,
          classes: r.app.classes,
          model_classes: r.modelClasses,
          tracker: r.app.tracker,
          fps: r.app.fps,
        },
        model: { model_id: r.modelId, name: r.modelName, version: r.version },
        camera_id: r.job.cameras[0] ?? '',
        resolution: o.resolution ?? null,
        threshold: o.threshold,
        recording: o.recording,
        engine: o.engine ?? null,
      };
      byDevice.set(r.deviceId, [...(byDevice.get(r.deviceId) ?? []), options]);
    }
    const base = {
      id: cal.id,
      name: cal.name,
      time_zone: cal.timeZone,
      intervals: CalendarInterval.array().parse(cal.intervals),
    };
    const sync: CalendarSync = {
      devices: [...byDevice].map(([device_id, jobs]) => ({ device_id, calendar: { ...base, jobs } })),
    };
    return sync;
  },

  'schedulers.deviceJobState': async ({ params, body }, request) => {
    const device = deviceOf(request);
    const where = and(eq(inferenceJobs.id, params.id), eq(inferenceJobs.deviceRowId, device.id));
    const [job] = await ctx.db
      .select({ runtime: inferenceJobs.runtime, options: inferenceJobs.options })
      .from(inferenceJobs)
      .where(where)
      .limit(1);
    if (!job) throw new HttpError(404, API_ERROR_CODES.notFound, 'Job not found.');
    const runtime: JobRuntime = {
      ...EMPTY_RUNTIME,
      ...(job.runtime as Partial<JobRuntime>),
      ...body.runtime,
    };
    const current = job.options as JobOptions;
    const options: JobOptions = body.engine ? { ...current, engine: body.engine } : current;
    await ctx.db
      .update(inferenceJobs)
      .set({ state: body.state, runtime, options, updatedAt: new Date() })
      .where(where);
    return { ok: true as const };
  },
});
