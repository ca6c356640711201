/**
 * Handlers of the events feature's routes (src/protocol/events.ts; issue 11 `/events`, `/alarm-dashboard`):
 *   GET  events                 → { events, next } the caller's, newest first, filtered, keyset-paged
 *   GET  events/:id             → EventView; 404 not the caller's
 *   POST events/review          → { updated } marks the caller's events (bulk review)
 *   GET  events/summary         → counts per alarm and severity, per hour, recent events, filter choices
 *   GET  event-media/:id/:kind  → the snapshot / clip bytes of a signed URL (src/server/events/media.ts)
 *   POST device/events          → { id, created } a device records a matched detection (recordEvent): the
 *                                 alarm must be its owner's, the camera one of the alarm's sources (a
 *                                 PHYSICAL one on this device), and the alarm active at the frame's time
 *                                 (calendars, silences, enabled: checked again here); 404 / 409 otherwise.
 * Also registers the device's raw snapshot and clip uploads (media.ts), whose bodies are not JSON.
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { and, count, desc, eq, gte, inArray, lt, or, sql, type SQL } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import { alarmActiveAt, Severity, type AlarmCalendar } from '../../protocol/alarms';
import {
  EventBox,
  EVENT_TEXTS,
  type eventRoutes,
  type EventsQuery,
  type EventView,
} from '../../protocol/events';
import { calendarsOf, ownAlarm, toDeviceAlarm } from '../alarms/store';
import { deviceOf, userOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { isUuid } from '../db/scope';
import { alarms, devices, events, inferenceJobs } from '../db/schema';
import { HttpError } from '../errors';
import {
  MEDIA_TYPE,
  mediaPath,
  registerEventMediaRoutes,
  signedMediaUrl,
  verifyMediaSignature,
} from '../events/media';
import { recordEvent, type EventRow } from '../events/record';
import type { HandlersOf } from './register';

const notFound = () => new HttpError(404, API_ERROR_CODES.notFound, EVENT_TEXTS.notFound);
const HOUR = 3_600_000;
const SUMMARY_RECENT = 10;

type Joined = { e: EventRow; alarmName: string | null; deviceId: string | null; deviceLabel: string | null };

const select = {
  e: events,
  alarmName: alarms.name,
  deviceId: devices.deviceId,
  deviceLabel: devices.label,
};

async function toView(ctx: ServerContext, j: Joined, now: number): Promise<EventView> {
  const e = j.e;
  const box = EventBox.safeParse(e.box);
  return {
    id: e.id,
    alarm_id: e.alarmId,
    alarm_name: j.alarmName,
    device_id: j.deviceId,
    device_label: j.deviceLabel,
    camera_id: e.cameraId,
    camera_kind: e.cameraKind === 'IP' ? 'IP' : 'PHYSICAL',
    job_id: e.jobId,
    track_id: e.trackId,
    at: e.at.toISOString(),
    class: e.class,
    score: e.score,
    box: box.success ? box.data : { x: 0, y: 0, w: 0, h: 0 },
    severity: Severity.catch('warning').parse(e.severity),
    reviewed: e.reviewed,
    identity: e.identity,
    attributes:
      e.attributes && typeof e.attributes === 'object' && !Array.isArray(e.attributes)
        ? (e.attributes as Record<string, unknown>)
        : {},
    snapshot_url: e.snapshotFile ? await signedMediaUrl(ctx, e.id, 'snapshot', now) : null,
    clip_url: e.clipFile ? await signedMediaUrl(ctx, e.id, 'clip', now) : null,
  };
}

/** The WHERE of a timeline query (the user's events and the filters). */
function filtersOf(userId: string, q: Partial<EventsQuery>): SQL[] {
  const where: SQL[] = [eq(events.userId, userId)];
  if (q.camera_id) where.push(eq(events.cameraId, q.camera_id));
  if (q.class) where.push(eq(events.class, q.class));
  if (q.severity) where.push(eq(events.severity, q.severity));
  if (q.alarm_id) where.push(eq(events.alarmId, q.alarm_id));
  if (q.reviewed) where.push(eq(events.reviewed, q.reviewed === 'true'));
  if (q.from) where.push(gte(events.at, new Date(q.from)));
  if (q.to) where.push(lt(events.at, new Date(q.to)));
  return where;
}

async function listEvents(ctx: ServerContext, where: SQL[], limit: number): Promise<Joined[]> {
  return ctx.db
    .select(select)
    .from(events)
    .leftJoin(alarms, eq(alarms.id, events.alarmId))
    .leftJoin(devices, eq(devices.id, events.deviceId))
    .where(and(...where))
    .orderBy(desc(events.at), desc(events.id))
    .limit(limit);
}

export const eventHandlers: HandlersOf<typeof eventRoutes> = (ctx, app) => {
  registerEventMediaRoutes(app, ctx);
  return {
    'events.list': async ({ query }, request) => {
      const userId = userOf(request).id;
      const where = filtersOf(userId, query);
      if (query.before_at) {
        const at = new Date(query.before_at);
        where.push(
          query.before_id
            ? (or(lt(events.at, at), and(eq(events.at, at), lt(events.id, query.before_id))) as SQL)
            : lt(events.at, at),
        );
      }
      const rows = await listEvents(ctx, where, query.limit + 1);
      const page = rows.slice(0, query.limit);
      const now = Date.now();
      const last = page[page.length - 1];
      return {
        events: await Promise.all(page.map((r) => toView(ctx, r, now))),
        next:
          rows.length > query.limit && last
            ? { before_at: last.e.at.toISOString(), before_id: last.e.id }
            : null,
      };
    },

    'events.get': async ({ params }, request) => {
      const userId = userOf(request).id;
      if (!isUuid(params.id)) throw notFound();
      const [row] = await listEvents(ctx, [eq(events.userId, userId), eq(events.id, params.id)], 1);
      if (!row) throw notFound();
      return toView(ctx, row, Date.now());
    },

    'events.review': async ({ body }, request) => {
      const userId = userOf(request).id;
      const done = await ctx.db
        .update(events)
        .set({ reviewed: body.reviewed })
        .where(and(eq(events.userId, userId), inArray(events.id, [...new Set(body.ids)])))
        .returning({ id: events.id });
      return { updated: done.length };
    },

    'events.summary': async ({ query }, request) => {
      const userId = userOf(request).id;
      const to = query.to ? new Date(query.to) : new Date();
      const from = query.from ? new Date(query.from) : new Date(to.getTime() - 24 * HOUR);
      const where = filtersOf(userId, { from: from.toISOString(), to: to.toISOString() });
      const [perAlarm, perHour, classes, cameras, recent] = await Promise.all([
        ctx.db
          .select({
            alarmId: events.alarmId,
            alarmName: alarms.name,
            severity: events.severity,
            n: count(),
            unreviewed: sql<number>`count(*) filter (where not ${events.reviewed})`.mapWith(Number),
          })
          .from(events)
          .leftJoin(alarms, eq(alarms.id, events.alarmId))
          .where(and(...where))
          .groupBy(events.alarmId, alarms.name, events.severity),
        ctx.db
          .select({ bucket: sql<Date>`date_trunc('hour', ${events.at})`.as('bucket'), n: count() })
          .from(events)
          .where(and(...where))
          .groupBy(sql`bucket`)
          .orderBy(sql`bucket`),
        ctx.db
          .selectDistinct({ c: events.class })
          .from(events)
          .where(and(...where))
          .orderBy(events.class)
          .limit(200),
        ctx.db
          .selectDistinct({ id: events.cameraId, kind: events.cameraKind, label: devices.label })
          .from(events)
          .leftJoin(devices, eq(devices.id, events.deviceId))
          .where(and(...where))
          .limit(200),
        listEvents(ctx, where, SUMMARY_RECENT),
      ]);
      const byAlarm = new Map<
        string,
        {
          alarm_id: string | null;
          alarm_name: string | null;
          info: number;
          warning: number;
          critical: number;
          total: number;
          unreviewed: number;
        }
      >();
      const perSeverity = { info: 0, warning: 0, critical: 0 };
      let unreviewed = 0;
      for (const r of perAlarm) {
        const key = r.alarmId ?? '';
        const a = byAlarm.get(key) ?? {
          alarm_id: r.alarmId,
          alarm_name: r.alarmName,
          info: 0,
          warning: 0,
          critical: 0,
          total: 0,
          unreviewed: 0,
        };
        const sev = Severity.catch('warning').parse(r.severity);
        a[sev] += r.n;
        a.total += r.n;
        a.unreviewed += r.unreviewed;
        perSeverity[sev] += r.n;
        unreviewed += r.unreviewed;
        byAlarm.set(key, a);
      }
      const now = Date.now();
      return {
        from: from.toISOString(),
        to: to.toISOString(),
        per_alarm: [...byAlarm.values()].sort((a, b) => b.total - a.total),
        per_severity: perSeverity,
        unreviewed,
        per_hour: perHour.map((h) => ({ at: new Date(h.bucket).toISOString(), count: h.n })),
        recent: await Promise.all(recent.map((r) => toView(ctx, r, now))),
        classes: classes.map((c) => c.c),
        cameras: cameras.map((c) => ({
          camera_id: c.id,
          camera_kind: c.kind === 'IP' ? ('IP' as const) : ('PHYSICAL' as const),
          device_label: c.label,
        })),
      };
    },

    'events.media': async ({ params, query }, _request, reply) => {
      if (!isUuid(params.id)) throw notFound();
      if (!(await verifyMediaSignature(ctx, params.id, params.kind, query.exp, query.sig))) throw notFound();
      const [row] = await ctx.db.select().from(events).where(eq(events.id, params.id)).limit(1);
      const name = params.kind === 'snapshot' ? row?.snapshotFile : row?.clipFile;
      if (!row || !name) throw notFound();
      const file = mediaPath(ctx, row.userId, name);
      const info = await stat(file).catch(() => null);
      if (!info) throw notFound();
      void reply
        .header('content-type', MEDIA_TYPE[params.kind])
        .header('content-length', String(info.size))
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .header('cache-control', 'private, max-age=3600');
      return reply.send(createReadStream(file));
    },

    'events.devicePost': async ({ body }, request) => {
      const device = deviceOf(request);
      const alarm = await ownAlarm(ctx.db, device.ownerId, body.alarm_id);
      if (!alarm) throw new HttpError(404, API_ERROR_CODES.notFound, EVENT_TEXTS.alarmNotFound);
      const calendars: Map<string, AlarmCalendar> = await calendarsOf(
        ctx.db,
        device.ownerId,
        alarm.calendarIds,
      );
      const full = toDeviceAlarm(alarm, calendars, []);
      const source = full.sources.find((s) => s.type === body.camera_kind && s.value === body.camera_id);
      if (!source || (source.type === 'PHYSICAL' && !source.value.startsWith(`${device.deviceId}_`)))
        throw new HttpError(409, 'Camera_not_in_alarm', EVENT_TEXTS.cameraNotInAlarm);
      if (!alarmActiveAt(full, Date.parse(body.at)))
        throw new HttpError(409, 'Alarm_inactive', EVENT_TEXTS.inactive);
      let jobId = body.job_id;
      if (jobId) {
        const [job] = await ctx.db
          .select({ id: inferenceJobs.id })
          .from(inferenceJobs)
          .where(and(eq(inferenceJobs.id, jobId), eq(inferenceJobs.ownerId, device.ownerId)))
          .limit(1);
        if (!job) jobId = null;
      }
      const { event, created } = await recordEvent(ctx.db, {
        userId: device.ownerId,
        deviceRowId: device.id,
        severity: full.severity,
        post: { ...body, job_id: jobId },
      });
      return { id: event.id, created };
    },
  };
};
