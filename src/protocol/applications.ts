/**
 * The applications feature's contract (spec §2 /applications; §3 "Model/application list: data, lastUpdate,
 * loading, page_info. Features list and selectedModelInfo"; §7 `POST applications` (pages = -1 → app,
 * page_info) and `GET features` (path not shown: /api/features); §9 "Default detection threshold 0.3").
 *
 * An application pairs a model version (the models feature's `model_versions`) with its pipeline settings —
 * input (source kind, frame size, frames per second), detection threshold (0–1, default 0.3), classes (a
 * subset of the model's; empty = every class of the model), tracker — and is what an inference job starts (a
 * later issue). The features list names what a pipeline can use: the input kinds and the trackers, each with
 * the model tasks it applies to; the console's form offers them (selectedModelInfo: the chosen version's
 * model — task, classes, input size).
 */
import { z } from 'zod';
import { InputSide, ModelFormat, ModelTask } from './models';
import { defineRoutes } from './route';

/** §9 "Default detection threshold 0.3". */
export const DEFAULT_DETECTION_THRESHOLD = 0.3;
/** Longest application name and description, characters. */
export const APPLICATION_NAME_MAX_CHARS = 120;
export const APPLICATION_DESCRIPTION_MAX_CHARS = 2000;
/** Frames per second a pipeline may ask for. */
export const FPS_MAX = 120;

/** Where a pipeline's frames come from. */
export const INPUT_SOURCES = ['camera', 'ip-camera', 'video-file', 'rtsp'] as const;
export const InputSource = z.enum(INPUT_SOURCES);
export type InputSource = z.infer<typeof InputSource>;

/** Object trackers a pipeline may run after detection ('none': no tracking). */
export const TRACKERS = ['none', 'iou', 'sort', 'deepsort', 'bytetrack', 'nvdcf'] as const;
export const Tracker = z.enum(TRACKERS);
export type Tracker = z.infer<typeof Tracker>;
/** Model tasks whose detections a tracker can follow; any other task takes tracker 'none' only. */
export const TRACKABLE_TASKS: readonly z.infer<typeof ModelTask>[] = [
  'object-detection',
  'pose-estimation',
  'face-recognition',
];

/** One entry of the §7 features list: an input kind or a tracker, and the model tasks it applies to. */
export const Feature = z.object({
  key: z.string(),
  kind: z.enum(['input', 'tracker']),
  name: z.string(),
  description: z.string(),
  /** Model tasks it applies to; empty = every task. */
  tasks: z.array(ModelTask),
});
export type Feature = z.infer<typeof Feature>;

/** Pipeline input: source kind, frame size in pixels (null: the model's input size), frames per second. */
export const ApplicationInput = z.object({
  source: InputSource,
  width: InputSide.nullable(),
  height: InputSide.nullable(),
  fps: z.number().int().min(1).max(FPS_MAX),
});
export type ApplicationInput = z.infer<typeof ApplicationInput>;

/**
 * An application. model_*: the model version it runs (version: its number; task, format, model_classes: the
 * model's); threshold: 0–1; classes: the detected classes (empty: all the model's); times ISO 8601.
 */
export const Application = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  model_id: z.string(),
  model_name: z.string(),
  model_version_id: z.string(),
  version: z.number().int(),
  task: ModelTask,
  format: ModelFormat,
  model_classes: z.array(z.string()),
  input: ApplicationInput,
  threshold: z.number().min(0).max(1),
  classes: z.array(z.string()),
  tracker: Tracker,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Application = z.infer<typeof Application>;

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });

/** Body of a create or edit. threshold defaults to DEFAULT_DETECTION_THRESHOLD, tracker to 'none'. */
export const ApplicationBody = z
  .object({
    name: z.string().trim().min(1, 'name is required').max(APPLICATION_NAME_MAX_CHARS),
    description: z.string().max(APPLICATION_DESCRIPTION_MAX_CHARS).default(''),
    model_version_id: Uuid,
    input: ApplicationInput.default({ source: 'camera', width: null, height: null, fps: 25 }),
    threshold: z.number().min(0).max(1).default(DEFAULT_DETECTION_THRESHOLD),
    classes: z.array(z.string().trim().min(1).max(100)).max(1000).default([]),
    tracker: Tracker.default('none'),
  })
  .strict();
export type ApplicationBody = z.input<typeof ApplicationBody>;

/** §3 page_info of the application list. */
export const ApplicationPageInfo = z.object({
  page: z.number().int(),
  per_page: z.number().int(),
  total_items: z.number().int(),
  pages: z.number().int(),
});

/**
 * §7 POST applications: `pages` -1 answers every application (page_info.pages 1); otherwise the page `page`
 * of `per_page`. search: the name or model name contains it (case-insensitive). Newest edit first.
 */
export const ApplicationListBody = z
  .object({
    pages: z.number().int().min(-1).max(100_000).optional(),
    page: z.number().int().min(1).max(100_000).default(1),
    per_page: z.number().int().min(1).max(100).default(20),
    search: z.string().max(200).default(''),
  })
  .strict();

/** Error codes. */
export const APPLICATION_ERROR_CODES = { nameTaken: 'Application_exists' } as const;

const Params = z.object({ id: Uuid });

export const applicationRoutes = defineRoutes({
  'applications.list': {
    method: 'POST',
    path: '/api/applications',
    auth: 'user',
    summary: '§7 applications: the caller’s applications (pages -1: all) with §3 page_info.',
    body: ApplicationListBody,
    answer: z.object({ app: z.array(Application), page_info: ApplicationPageInfo }),
  },
  'applications.create': {
    method: 'POST',
    path: '/api/applications/new',
    auth: 'user',
    summary:
      'Creates an application from one of the caller’s model versions. 404 unknown version, 409 name taken, 400 classes not the model’s or a tracker for a task that has none.',
    body: ApplicationBody,
    answer: Application,
    errors: [404, 409],
  },
  'applications.get': {
    method: 'GET',
    path: '/api/applications/:id',
    auth: 'user',
    summary: 'One application of the caller. 404 otherwise.',
    params: Params,
    answer: Application,
    errors: [404],
  },
  'applications.update': {
    method: 'PUT',
    path: '/api/applications/:id',
    auth: 'user',
    summary: 'Replaces an application’s settings (same rules as create).',
    params: Params,
    body: ApplicationBody,
    answer: Application,
    errors: [404, 409],
  },
  'applications.delete': {
    method: 'DELETE',
    path: '/api/applications/:id',
    auth: 'user',
    summary: 'Deletes an application of the caller.',
    params: Params,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'applications.features': {
    method: 'GET',
    path: '/api/features',
    auth: 'user',
    summary:
      '§7 features: the input kinds and trackers a pipeline can use, with the model tasks each applies to.',
    answer: z.object({ features: z.array(Feature) }),
  },
});
