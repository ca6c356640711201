/**
 * The models feature's contract (issue 9 "Models": the model repository and deploying models to devices; spec
 * §2 /models, /models-beta, /llm-models, /remote-downloads; §3 "Model/application list: data, lastUpdate,
 * loading, page_info"; §5 "Model ids get prefix M when they have classes, otherwise P"; §7 upload-model,
 * get-download-upload-status; §8 "Models could not be fetched. Please try again.").
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 *
 * A model (name, task, format, classes, input size) has versions: uploaded files (size in bytes, sha256 hex),
 * each uploaded by a user. Files arrive through the uploads feature's resumable uploads with the purpose
 * 'model' (ModelUploadMeta): a new model, or a new version of an existing one.
 *
 * Deploy flow: the console asks the server for a deployment of (version, device) (models.deploy → a queued
 * ModelDeployment), then sends the device `models-deploy { deployment_id }` over the peer link. The device asks
 * the server what to fetch (models.deviceDeployment, device token: only deployments of that device), downloads
 * the file with its token (models.file, HTTP Range-resumable), checks its sha256, installs it in its state
 * directory and reports every step to the server (models.deviceReport) and to the asking console (link
 * `progress` messages, ModelDownload). get-download-upload-status lists the device's downloads in flight and
 * done (its optional `downloads`). /remote-downloads reads the server's deployments of every device.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';
import { defineRoutes, Id } from './route';

/** Largest model file the server accepts, bytes (4 GiB). */
export const MODEL_MAX_BYTES = 4 * 1024 ** 3;
/** Longest model name, characters. */
export const MODEL_NAME_MAX_CHARS = 120;
/** Most classes a model may list; longest class name, characters. */
export const MODEL_CLASSES_MAX = 1000;
export const MODEL_CLASS_MAX_CHARS = 100;
/** Longest description (the model card), characters. */
export const MODEL_DESCRIPTION_MAX_CHARS = 4000;
/** /remote-downloads polls the server this often while shown, ms. */
export const REMOTE_DOWNLOADS_POLL_MS = 2000;
/**
 * A deployment not final whose device has not reported for this long is shown as failed ('stale'), ms: the
 * device went away mid-download (its agent restarted, it lost power).
 */
export const DEPLOY_STALE_MS = 120_000;
/** The device reports download progress to the server at most this often, ms. */
export const DEPLOY_REPORT_INTERVAL_MS = 500;

/**
 * Model file formats with the file extensions each accepts (lower case, with the dot). A file is refused at
 * upload creation (before any byte) when its extension is not one of its declared format's.
 */
export const MODEL_FORMATS = {
  onnx: ['.onnx'],
  tensorrt: ['.engine', '.plan', '.trt'],
  pytorch: ['.pt', '.pth', '.torchscript'],
  tflite: ['.tflite'],
  safetensors: ['.safetensors'],
  gguf: ['.gguf'],
  zip: ['.zip'],
} as const satisfies Record<string, readonly string[]>;
export type ModelFormat = keyof typeof MODEL_FORMATS;
export const ModelFormat = z.enum(Object.keys(MODEL_FORMATS) as [ModelFormat, ...ModelFormat[]]);

/** The format a file name's extension belongs to (null when none accepts it). */
export function formatOfFileName(fileName: string): ModelFormat | null {
  const lower = fileName.toLowerCase();
  for (const [format, exts] of Object.entries(MODEL_FORMATS) as [ModelFormat, readonly string[]][]) {
    if (exts.some((ext) => lower.endsWith(ext))) return format;
  }
  return null;
}

/** True when `fileName` ends with one of `format`'s extensions. */
export const fileMatchesFormat = (fileName: string, format: ModelFormat): boolean =>
  MODEL_FORMATS[format].some((ext) => fileName.toLowerCase().endsWith(ext));

/** What a model does. 'llm' and 'vlm' (language / vision-language models) are the /llm-models page's. */
export const MODEL_TASKS = [
  'object-detection',
  'classification',
  'segmentation',
  'pose-estimation',
  'face-recognition',
  'ocr',
  'llm',
  'vlm',
  'other',
] as const;
export const ModelTask = z.enum(MODEL_TASKS);
export type ModelTask = z.infer<typeof ModelTask>;
/** Tasks listed on /llm-models. */
export const LLM_TASKS: readonly ModelTask[] = ['llm', 'vlm'];

/** §5: the prefix of a model id — M when the model has classes, otherwise P. */
export const modelIdPrefix = (classes: readonly string[]): 'M' | 'P' => (classes.length > 0 ? 'M' : 'P');
/** A model id: the §5 prefix and 11 uppercase letters or digits. */
export const MODEL_ID_PATTERN = /^[MP][0-9A-Z]{11}$/;
export const ModelId = z
  .string()
  .regex(MODEL_ID_PATTERN, 'model id: M or P and 11 uppercase letters or digits')
  .meta({ examples: ['M7K2Q9D1XZ0A', 'P0A1B2C3D4E5'] });

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });

/** A model's name: 1–MODEL_NAME_MAX_CHARS characters, not only spaces. */
export const ModelName = z
  .string()
  .trim()
  .min(1, 'name is required')
  .max(MODEL_NAME_MAX_CHARS)
  .meta({ examples: ['yolov8n-people', 'llava-1.5-7b-q4'] });
export const ModelClasses = z
  .array(z.string().trim().min(1).max(MODEL_CLASS_MAX_CHARS))
  .max(MODEL_CLASSES_MAX);
/** Input size in pixels (1–16,384). */
export const InputSide = z.number().int().min(1).max(16_384);

/** One version of a model. size: bytes; sha256: 64 lowercase hex; created_at: ISO 8601; uploaded_by: name. */
export const ModelVersion = z.object({
  id: z.string(),
  model_id: z.string(),
  version: z.number().int().min(1),
  file_name: z.string(),
  size: z.number().int().min(0),
  sha256: z.string(),
  notes: z.string(),
  /** Username of the uploader (null when that account was deleted). */
  uploaded_by: z.string().nullable(),
  created_at: z.string(),
});
export type ModelVersion = z.infer<typeof ModelVersion>;

/**
 * A model as lists show it. latest: its newest version (null while it has none); versions: how many;
 * size: bytes of the newest version's file (0 without one); updated_at: ISO 8601 (last new version).
 */
export const Model = z.object({
  id: z.string(),
  name: z.string(),
  task: ModelTask,
  format: ModelFormat,
  classes: z.array(z.string()),
  input_width: z.number().int().nullable(),
  input_height: z.number().int().nullable(),
  description: z.string(),
  versions: z.number().int().min(0),
  latest: ModelVersion.nullable(),
  size: z.number().int().min(0),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Model = z.infer<typeof Model>;

/** States of a model download on a device. */
export const DeployState = z.enum(['queued', 'downloading', 'verifying', 'installed', 'failed', 'canceled']);
export type DeployState = z.infer<typeof DeployState>;
/** States after which a deployment moves no more. */
export const DEPLOY_FINAL_STATES: readonly DeployState[] = ['installed', 'failed', 'canceled'];

/** Error codes of a failed deployment. */
export const DEPLOY_ERROR_CODES = {
  /** The file could not be fetched from the server. */
  downloadError: 'downloadError',
  /** The downloaded file's sha256 (or size) differs from the version's. */
  checksumMismatch: 'checksumMismatch',
  /** The device has not the room for the file. */
  notEnoughStorage: 'notEnoughStorage',
  /** Anything else (unknown deployment, a write failure). */
  other: 'other',
} as const;

/**
 * A model version deployed to a device, as the server knows it from the device's reports (/remote-downloads).
 * device_id: the device's §3 device_id; bytes in bytes; error of a failed one; times ISO 8601.
 */
export const ModelDeployment = z.object({
  id: z.string(),
  device_id: z.string(),
  device_label: z.string(),
  model_id: z.string(),
  model_name: z.string(),
  version_id: z.string(),
  version: z.number().int(),
  file_name: z.string(),
  state: DeployState,
  bytes_done: z.number().int().min(0),
  bytes_total: z.number().int().min(0),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type ModelDeployment = z.infer<typeof ModelDeployment>;

/** A model with its versions (newest first) and its deployments (newest first): the detail page. */
export const ModelDetail = Model.extend({
  version_list: z.array(ModelVersion),
  deployments: z.array(ModelDeployment),
});
export type ModelDetail = z.infer<typeof ModelDetail>;

/**
 * What a device fetches for a deployment (models.deviceDeployment): the version's file with its size (bytes)
 * and sha256, and the path of models.file to GET with the device token.
 */
export const DeployDescriptor = z.object({
  deployment_id: z.string(),
  model_id: z.string(),
  model_name: z.string(),
  task: ModelTask,
  format: ModelFormat,
  classes: z.array(z.string()),
  version_id: z.string(),
  version: z.number().int().min(1),
  file_name: z.string(),
  size: z.number().int().min(0),
  sha256: z.string(),
  file_path: z.string(),
});
export type DeployDescriptor = z.infer<typeof DeployDescriptor>;

/**
 * A model download on a device (get-download-upload-status `downloads`, models-deploy progress): bytes in
 * bytes (bytes_total 0 until known); updated_at ms since the epoch.
 */
export const ModelDownload = z.object({
  deployment_id: z.string(),
  model_id: z.string(),
  model_name: z.string(),
  version: z.number().int(),
  state: DeployState,
  bytes_done: z.number().int().min(0),
  bytes_total: z.number().int().min(0),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  updated_at: z.number().int().min(0),
});
export type ModelDownload = z.infer<typeof ModelDownload>;

/** A model installed on a device (models-installed). installed_at: ms since the epoch; size bytes. */
export const InstalledModel = z.object({
  model_id: z.string(),
  model_name: z.string(),
  task: z.string(),
  format: z.string(),
  version: z.number().int(),
  version_id: z.string(),
  file_name: z.string(),
  size: z.number().int().min(0),
  sha256: z.string(),
  installed_at: z.number().int().min(0),
});
export type InstalledModel = z.infer<typeof InstalledModel>;

/**
 * Meta of an upload with purpose 'model': a new model (name, task, format, classes, input size, description)
 * or a new version of `model_id` (then only notes). The file's extension must be one of the format's.
 */
export const ModelUploadMeta = z.union([
  z
    .object({
      kind: z.literal('new-model'),
      name: ModelName,
      task: ModelTask,
      format: ModelFormat,
      classes: ModelClasses.default([]),
      input_width: InputSide.nullable().default(null),
      input_height: InputSide.nullable().default(null),
      description: z.string().max(MODEL_DESCRIPTION_MAX_CHARS).default(''),
      notes: z.string().max(500).default(''),
    })
    .strict(),
  z
    .object({
      kind: z.literal('new-version'),
      model_id: ModelId,
      notes: z.string().max(500).default(''),
    })
    .strict(),
]);
export type ModelUploadMeta = z.input<typeof ModelUploadMeta>;

/**
 * The tus Upload-Metadata keys of a 'model' upload (every value a string; src/protocol/uploads.ts): `modelId`
 * for a new version of that model (with optional `notes`); otherwise a new model from `name`, `task`, `format`,
 * `classes` (a JSON array of strings, or comma-separated), `inputSize` ('640x640', optional), `description`,
 * `notes`. Parsed into ModelUploadMeta.
 */
export const ModelUploadTusMeta = z.preprocess((raw) => {
  if (!raw || typeof raw !== 'object') return raw;
  const r = raw as Record<string, unknown>;
  const str = (k: string) => (typeof r[k] === 'string' ? r[k] : undefined);
  if (str('modelId')) return { kind: 'new-version', model_id: str('modelId'), notes: str('notes') };
  const classesText = str('classes')?.trim() ?? '';
  let classes: unknown = [];
  if (classesText.startsWith('[')) {
    try {
      classes = JSON.parse(classesText);
    } catch {
      classes = classesText; // not an array: refused by the schema
    }
  } else if (classesText) {
    classes = classesText
      .split(',')
      .map((c) => c.trim())
      .filter(Boolean);
  }
  const size = /^\s*(\d{1,5})\s*[x×]\s*(\d{1,5})\s*$/i.exec(str('inputSize') ?? '');
  if (str('inputSize')?.trim() && !size)
    return { kind: 'new-model', input_width: 'inputSize: width x height' };
  return {
    kind: 'new-model',
    name: str('name'),
    task: str('task'),
    format: str('format'),
    classes,
    input_width: size ? Number(size[1]) : null,
    input_height: size ? Number(size[2]) : null,
    description: str('description'),
    notes: str('notes'),
  };
}, ModelUploadMeta);

/** The answer of a finished 'model' upload: the model and the version made. */
export const ModelUploadResult = z.object({ model: Model, version: ModelVersion });
export type ModelUploadResult = z.infer<typeof ModelUploadResult>;

export const ModelSort = z.enum(['updated_at', 'name', 'size', 'created_at']);
/** Which models a list shows: all, or only language / vision-language models (/llm-models). */
export const ModelKind = z.enum(['all', 'llm']);

/** models.list query (§3 page_info). search: name, task or format contains it (case-insensitive). */
export const ModelListQuery = z.object({
  search: z.string().max(200).default(''),
  sort: ModelSort.default('updated_at'),
  order: z.enum(['asc', 'desc']).default('desc'),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(10),
  kind: ModelKind.default('all'),
});
export type ModelListQuery = z.input<typeof ModelListQuery>;

/** §3 page_info of a list. */
export const PageInfo = z.object({
  page: z.number().int(),
  per_page: z.number().int(),
  total_items: z.number().int(),
});

/** A device's report of its download (models.deviceReport). */
export const DeployReport = z
  .object({
    state: DeployState,
    bytes_done: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    bytes_total: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
    error: z
      .object({ code: z.string().max(64), message: z.string().max(1000) })
      .nullable()
      .default(null),
  })
  .strict();

const ModelParams = z.object({ id: ModelId });
const Ok = z.object({ ok: z.literal(true) });

export const modelRoutes = defineRoutes({
  'models.list': {
    method: 'GET',
    path: '/api/models',
    auth: 'user',
    summary: 'The caller’s models, one page, searched and sorted (§3 data + page_info).',
    query: ModelListQuery,
    answer: z.object({ data: z.array(Model), page_info: PageInfo }),
  },
  'models.get': {
    method: 'GET',
    path: '/api/models/:id',
    auth: 'user',
    summary: 'One model with its versions and deployments. 404 when not the caller’s.',
    params: ModelParams,
    answer: ModelDetail,
    errors: [404],
  },
  'models.update': {
    method: 'PUT',
    path: '/api/models/:id',
    auth: 'user',
    summary: 'Changes a model’s name, task or description (the model card). 409 on a taken name.',
    params: ModelParams,
    body: z
      .object({
        name: ModelName.optional(),
        task: ModelTask.optional(),
        description: z.string().max(MODEL_DESCRIPTION_MAX_CHARS).optional(),
      })
      .strict(),
    answer: Model,
    errors: [404, 409],
  },
  'models.delete': {
    method: 'DELETE',
    path: '/api/models/:id',
    auth: 'user',
    summary: 'Deletes a model, its versions’ files and its deployments’ records (devices keep their copies).',
    params: ModelParams,
    answer: Ok,
    errors: [404],
  },
  'models.deleteVersion': {
    method: 'DELETE',
    path: '/api/models/:id/versions/:version',
    auth: 'user',
    summary: 'Deletes one version of a model and its file.',
    params: z.object({ id: ModelId, version: z.coerce.number().int().min(1).max(1_000_000) }),
    answer: Ok,
    errors: [404],
  },
  'models.file': {
    method: 'GET',
    path: '/api/models/:id/versions/:version/file',
    auth: 'userOrDevice',
    summary:
      'A version’s file (application/octet-stream; Range requests answered 206; X-Content-SHA256). A device reads files of its owner’s models only.',
    params: z.object({ id: ModelId, version: z.coerce.number().int().min(1).max(1_000_000) }),
    answer: z.unknown(),
    errors: [404],
  },
  'models.deploy': {
    method: 'POST',
    path: '/api/models/:id/deploy',
    auth: 'user',
    summary:
      'Queues a version for a device of the caller (a new deployment, or the same one reset). The console then sends the device models-deploy.',
    params: ModelParams,
    body: z.object({ version: z.number().int().min(1).max(1_000_000), device_id: Id }).strict(),
    answer: ModelDeployment,
    errors: [404],
  },
  'models.deployments': {
    method: 'GET',
    path: '/api/model-deployments',
    auth: 'user',
    summary: 'The caller’s model deployments on every device, newest first (at most 200; /remote-downloads).',
    query: z.object({ device_id: Id.optional() }),
    answer: z.object({ deployments: z.array(ModelDeployment) }),
  },
  'models.deleteDeployment': {
    method: 'DELETE',
    path: '/api/model-deployments/:id',
    auth: 'user',
    summary: 'Forgets a finished deployment (the list entry; the device keeps what it installed).',
    params: z.object({ id: Uuid }),
    answer: Ok,
    errors: [404],
  },
  'models.deviceDeployment': {
    method: 'GET',
    path: '/api/device/model-deployments/:id',
    auth: 'device',
    summary: 'What this device is to download for one of its deployments. 404 for another device’s.',
    params: z.object({ id: Uuid }),
    answer: DeployDescriptor,
    errors: [404],
  },
  'models.deviceReport': {
    method: 'POST',
    path: '/api/device/model-deployments/:id/status',
    auth: 'device',
    summary: 'This device reports a deployment’s progress, installation or failure.',
    params: z.object({ id: Uuid }),
    body: DeployReport,
    answer: Ok,
    errors: [404],
  },
});

export const modelCommands = defineCommands({
  /**
   * Deploys a model version: the device fetches the deployment's descriptor from the server, downloads the
   * file with its device token (resuming a partial download with HTTP Range), checks size and sha256, and
   * installs it in its state directory. Progress: link `progress` messages (ModelDownload). CommandError codes:
   * DEPLOY_ERROR_CODES.
   */
  'models-deploy': {
    request: z.object({ deployment_id: Uuid }).strict(),
    reply: z.object({
      deployment_id: z.string(),
      model_id: z.string(),
      version: z.number().int(),
      sha256: z.string(),
      installed: z.literal(true),
    }),
  },
  /** Cancels a download in flight (canceled false when there was none). */
  'models-cancel-download': {
    request: z.object({ deployment_id: Uuid }).strict(),
    reply: z.object({ canceled: z.boolean() }),
  },
  /** The models installed on the device, newest first. */
  'models-installed': { request: Empty, reply: z.object({ models: z.array(InstalledModel) }) },
  /** Removes an installed model version from the device (removed false when it was not there). */
  'models-remove': {
    request: z.object({ model_id: ModelId, version: z.number().int().min(1).max(1_000_000) }).strict(),
    reply: z.object({ removed: z.boolean() }),
  },
});
