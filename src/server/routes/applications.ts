/**
 * Handlers of the applications feature (src/protocol/applications.ts; spec §2 /applications; §3
 * "Model/application list … Features list"; §7 POST applications, GET features; §9 default threshold 0.3):
 *   POST   /api/applications        { pages: -1 | page, per_page, search } → { app, page_info }
 *   POST   /api/applications/new    → the created application (404 version, 409 name, 400 rules)
 *   GET    /api/applications/:id    → one application
 *   PUT    /api/applications/:id    → the replaced application
 *   DELETE /api/applications/:id    → { ok }
 *   GET    /api/features            → { features } (input kinds and trackers)
 * Everything is scoped to the caller: an application, and the model version it names, must be the caller's
 * (404 otherwise, never revealing another user's rows). Also `ensureDemoApplications` (the demo seed).
 */
import { and, count, desc, eq, ilike, or } from 'drizzle-orm';
import {
  APPLICATION_ERROR_CODES,
  ApplicationBody,
  DEFAULT_DETECTION_THRESHOLD,
  INPUT_SOURCES,
  TRACKABLE_TASKS,
  TRACKERS,
  type Application,
  type applicationRoutes,
  type Feature,
  type InputSource,
  type Tracker,
} from '../../protocol/applications';
import type { ModelFormat, ModelTask } from '../../protocol/models';
import { userOf } from '../auth/guard';
import type { ServerContext } from '../context';
import type { Db } from '../db';
import { isUniqueViolation, likeContains } from '../db/scope';
import { applications, models, modelVersions } from '../db/schema';
import { badRequest, HttpError, notFound } from '../errors';
import type { HandlersOf } from './register';

/** The §7 features list: what a pipeline can take as input and which trackers it can run. */
export const FEATURES: readonly Feature[] = [
  ...INPUT_SOURCES.map((source) => ({
    key: source,
    kind: 'input' as const,
    name: {
      camera: 'Camera on the device',
      'ip-camera': 'IP camera',
      'video-file': 'Video file',
      rtsp: 'RTSP stream',
    }[source],
    description: {
      camera: 'A camera attached to the device (USB, CSI or V4L2).',
      'ip-camera': 'An IP camera of the console, pulled by the device that reaches it.',
      'video-file': 'A video file on the device, played in a loop.',
      rtsp: 'Any RTSP address the device can reach.',
    }[source],
    tasks: [],
  })),
  ...TRACKERS.map((tracker) => ({
    key: tracker,
    kind: 'tracker' as const,
    name: {
      none: 'No tracking',
      iou: 'IoU tracker',
      sort: 'SORT',
      deepsort: 'DeepSORT',
      bytetrack: 'ByteTrack',
      nvdcf: 'NvDCF (DeepStream)',
    }[tracker],
    description: {
      none: 'Each frame’s detections stand alone.',
      iou: 'Follows boxes that overlap from frame to frame; the lightest.',
      sort: 'Kalman filter and IoU matching.',
      deepsort: 'SORT with appearance features; steadier through occlusions, heavier.',
      bytetrack: 'Also matches low-confidence boxes; good for crowds.',
      nvdcf: 'NVIDIA’s correlation-filter tracker, on Jetson and NVIDIA GPUs.',
    }[tracker],
    tasks: tracker === 'none' ? [] : [...TRACKABLE_TASKS],
  })),
];

const select = {
  app: applications,
  modelId: models.id,
  modelName: models.name,
  task: models.task,
  format: models.format,
  modelClasses: models.classes,
  version: modelVersions.version,
};
type Joined = {
  app: typeof applications.$inferSelect;
  modelId: string;
  modelName: string;
  task: string;
  format: string;
  modelClasses: string[];
  version: number;
};

const toApplication = (r: Joined): Application => ({
  id: r.app.id,
  name: r.app.name,
  description: r.app.description,
  model_id: r.modelId,
  model_name: r.modelName,
  model_version_id: r.app.modelVersionId,
  version: r.version,
  task: r.task as ModelTask,
  format: r.format as ModelFormat,
  model_classes: r.modelClasses,
  input: {
    source: r.app.inputSource as InputSource,
    width: r.app.inputWidth,
    height: r.app.inputHeight,
    fps: r.app.fps,
  },
  threshold: r.app.threshold,
  classes: r.app.classes,
  tracker: r.app.tracker as Tracker,
  created_at: r.app.createdAt.toISOString(),
  updated_at: r.app.updatedAt.toISOString(),
});

function joined(db: Db) {
  return db
    .select(select)
    .from(applications)
    .innerJoin(modelVersions, eq(modelVersions.id, applications.modelVersionId))
    .innerJoin(models, eq(models.id, modelVersions.modelId));
}

async function one(db: Db, ownerId: string, id: string): Promise<Application> {
  const [row] = await joined(db)
    .where(and(eq(applications.ownerId, ownerId), eq(applications.id, id)))
    .limit(1);
  if (!row) throw notFound('Application');
  return toApplication(row);
}

/**
 * The row values of a create or edit, checked against the model version (the caller's): classes a subset of
 * the model's, a tracker only for a task that has detections to follow. 404 / 400 as the routes.
 */
async function valuesOf(db: Db, ownerId: string, raw: unknown) {
  const body = ApplicationBody.parse(raw);
  const [version] = await db
    .select({ id: modelVersions.id, classes: models.classes, task: models.task })
    .from(modelVersions)
    .innerJoin(models, eq(models.id, modelVersions.modelId))
    .where(and(eq(modelVersions.id, body.model_version_id), eq(models.ownerId, ownerId)))
    .limit(1);
  if (!version) throw notFound('Model version');
  const classes = [...new Set(body.classes)];
  const unknown = classes.filter((c) => !version.classes.includes(c));
  if (unknown.length > 0)
    throw badRequest(
      `classes: ${unknown.slice(0, 5).join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not a class of the model.`,
    );
  if (body.tracker !== 'none' && !TRACKABLE_TASKS.includes(version.task as ModelTask))
    throw badRequest(`tracker: a ${version.task} model has no detections to track; use none.`);
  return {
    modelVersionId: version.id,
    name: body.name,
    description: body.description,
    inputSource: body.input.source,
    inputWidth: body.input.width,
    inputHeight: body.input.height,
    fps: body.input.fps,
    threshold: body.threshold,
    classes,
    tracker: body.tracker,
  };
}

const nameTaken = () =>
  new HttpError(409, APPLICATION_ERROR_CODES.nameTaken, 'An application with this name already exists.');

/** Creates an application for `ownerId` (the route and the demo seed). */
export async function createApplication(
  ctx: ServerContext,
  ownerId: string,
  body: unknown,
): Promise<Application> {
  const values = await valuesOf(ctx.db, ownerId, body);
  try {
    const [row] = await ctx.db
      .insert(applications)
      .values({ ownerId, ...values })
      .returning({ id: applications.id });
    return one(ctx.db, ownerId, row!.id);
  } catch (err) {
    if (isUniqueViolation(err)) throw nameTaken();
    throw err;
  }
}

/** The demo's application: the demo people detector's newest version with persons only, ByteTrack. */
export const DEMO_APPLICATION = {
  name: 'Lobby people counter',
  model: 'demo-people-detector',
  description: 'Counts the people crossing the lobby (persons only, ByteTrack).',
} as const;

/** Adds DEMO_APPLICATION to `ownerId` once its demo model exists (idempotent by name). */
export async function ensureDemoApplications(ctx: ServerContext, ownerId: string): Promise<void> {
  const [exists] = await ctx.db
    .select({ id: applications.id })
    .from(applications)
    .where(and(eq(applications.ownerId, ownerId), eq(applications.name, DEMO_APPLICATION.name)))
    .limit(1);
  if (exists) return;
  const [version] = await ctx.db
    .select({ id: modelVersions.id, classes: models.classes })
    .from(modelVersions)
    .innerJoin(models, eq(models.id, modelVersions.modelId))
    .where(and(eq(models.ownerId, ownerId), eq(models.name, DEMO_APPLICATION.model)))
    .orderBy(desc(modelVersions.version))
    .limit(1);
  if (!version) return;
  await createApplication(ctx, ownerId, {
    name: DEMO_APPLICATION.name,
    description: DEMO_APPLICATION.description,
    model_version_id: version.id,
    input: { source: 'camera', width: null, height: null, fps: 25 },
    threshold: DEFAULT_DETECTION_THRESHOLD,
    classes: version.classes.includes('person') ? ['person'] : [],
    tracker: 'bytetrack',
  }).catch((err: unknown) => {
    if (!(err instanceof HttpError && err.statusCode === 409)) throw err;
  });
}

export const applicationHandlers: HandlersOf<typeof applicationRoutes> = (ctx) => ({
  'applications.list': async ({ body }, request) => {
    const owner = userOf(request).id;
    const search = body.search.trim();
    const where = search
      ? and(
          eq(applications.ownerId, owner),
          or(ilike(applications.name, likeContains(search)), ilike(models.name, likeContains(search))),
        )
      : eq(applications.ownerId, owner);
    const [total] = await ctx.db
      .select({ n: count() })
      .from(applications)
      .innerJoin(modelVersions, eq(modelVersions.id, applications.modelVersionId))
      .innerJoin(models, eq(models.id, modelVersions.modelId))
      .where(where);
    const all = body.pages === -1;
    const perPage = all ? Math.max(1, total!.n) : body.per_page;
    const page = all ? 1 : body.page;
    const rows = await joined(ctx.db)
      .where(where)
      .orderBy(desc(applications.updatedAt), desc(applications.id))
      .limit(all ? 10_000 : perPage)
      .offset(all ? 0 : (page - 1) * perPage);
    return {
      app: rows.map(toApplication),
      page_info: {
        page,
        per_page: perPage,
        total_items: total!.n,
        pages: all ? 1 : Math.ceil(total!.n / perPage),
      },
    };
  },

  'applications.create': async ({ body }, request) => createApplication(ctx, userOf(request).id, body),

  'applications.get': async ({ params }, request) => one(ctx.db, userOf(request).id, params.id),

  'applications.update': async ({ params, body }, request) => {
    const owner = userOf(request).id;
    await one(ctx.db, owner, params.id);
    const values = await valuesOf(ctx.db, owner, body);
    try {
      await ctx.db
        .update(applications)
        .set({ ...values, updatedAt: new Date() })
        .where(and(eq(applications.ownerId, owner), eq(applications.id, params.id)));
    } catch (err) {
      if (isUniqueViolation(err)) throw nameTaken();
      throw err;
    }
    return one(ctx.db, owner, params.id);
  },

  'applications.delete': async ({ params }, request) => {
    const removed = await ctx.db
      .delete(applications)
      .where(and(eq(applications.ownerId, userOf(request).id), eq(applications.id, params.id)))
      .returning({ id: applications.id });
    if (removed.length === 0) throw notFound('Application');
    return { ok: true as const };
  },

  'applications.features': async () => ({ features: [...FEATURES] }),
});
