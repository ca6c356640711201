/**
 * The inference feature's contract (issue 10): jobs (spec §3 Job: id, job_name, application_name, cameras;
 * runtime jobId, childJobId, port, scriptPath, inferenceUrl, containerName, inferenceEngineError, message),
 * §4 "Job events" (started, error, deploying; stop, delete, multiple deletion), §4 "Starting an inference
 * connection" (the start handshake's device commands and its data-channel messages), §7 alarm-new and
 * get-stream-engine-port, §8 inference texts, §9 default threshold 0.3 and stream engine wait 60 s / 500 ms.
 *
 * A job runs one application (a model version with its pipeline settings) on one camera of one device. The
 * server keeps the job and its last reported state; the device runs it. Detections reach the console as
 * metadata over a data channel of their own (InferenceMetadata), stamped with the frame's capture time.
 */
import { z } from 'zod';
import { DEFAULT_DETECTION_THRESHOLD } from './applications';
import { ResolutionOption } from './cameras';
import { defineCommands, Empty } from './command';
import { defineRoutes, Id } from './route';

export { DEFAULT_DETECTION_THRESHOLD };

/** §8 texts of the inference start, verbatim. `{device label}` is filled in by the caller. */
export const INFERENCE_TEXTS = {
  warningTitle: (deviceLabel: string) => `Warning: ${deviceLabel}`,
  warning:
    'could not start the Inference Engine. Please try again. If the problem persists, please report it to us.',
  startFailed: 'Inference engine could not be started. Please check logs for detailed information',
  issueReported: 'Inference engine issue reported',
  canceled: 'Process has been canceled',
  noAnswer: 'Could not get an answer from the device',
} as const;

/** §4 Job events: the start stages (started, error, deploying) and the states a job ends in. */
export const JOB_STATES = ['created', 'deploying', 'started', 'error', 'stopped'] as const;
export const JobState = z.enum(JOB_STATES);
export type JobState = z.infer<typeof JobState>;

/** Longest job name, characters. */
export const JOB_NAME_MAX_CHARS = 120;
/** Most jobs one multiple deletion removes. */
export const JOBS_DELETE_MAX = 200;

const Uuid = z.uuid().meta({ examples: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] });
const Runtime = z.string().max(1000).nullable();

/**
 * §3 Job runtime fields (what the device reports while it runs the job): jobId (the device's id of the
 * running job), childJobId (the engine's own process or pipeline id), port (the stream engine's port of the
 * job's output, §3 "running stream-engine map"), scriptPath (the pipeline the engine runs), inferenceUrl (the
 * engine image or address), containerName (the engine's container), inferenceEngineError (§4 step 2), message.
 */
export const JobRuntime = z.object({
  jobId: Runtime,
  childJobId: Runtime,
  port: z.number().int().min(0).max(65_535).nullable(),
  scriptPath: Runtime,
  inferenceUrl: Runtime,
  containerName: Runtime,
  inferenceEngineError: Runtime,
  message: Runtime,
});
export type JobRuntime = z.infer<typeof JobRuntime>;

export const EMPTY_RUNTIME: JobRuntime = {
  jobId: null,
  childJobId: null,
  port: null,
  scriptPath: null,
  inferenceUrl: null,
  containerName: null,
  inferenceEngineError: null,
  message: null,
};

/** Start options a job keeps (§4 step 3): camera resolution (null: the camera's default), threshold, recording. */
export const JobOptions = z.object({
  resolution: ResolutionOption.nullable(),
  threshold: z.number().min(0).max(1),
  recording: z.boolean(),
  /** Inference engine id on the device ('sim', 'sim-deepstream', 'host', …); null: the device's default. */
  engine: z.string().max(64).nullable(),
});
export type JobOptions = z.infer<typeof JobOptions>;

/**
 * §3 Job. cameras: the camera ids it runs on (one today); device_id / device_label: where; application_id
 * null when the application was deleted since (application_name keeps its name). Times ISO 8601.
 */
export const Job = z.object({
  id: z.string(),
  job_name: z.string(),
  application_id: z.string().nullable(),
  application_name: z.string(),
  device_id: z.string(),
  device_label: z.string(),
  cameras: z.array(z.string()),
  camera_label: z.string(),
  state: JobState,
  options: JobOptions,
  runtime: JobRuntime,
  created_at: z.string(),
  updated_at: z.string(),
});
export type Job = z.infer<typeof Job>;

export const JobCreateBody = z
  .object({
    job_name: z.string().trim().min(1, 'job_name is required').max(JOB_NAME_MAX_CHARS),
    application_id: Uuid,
    device_id: Id,
    camera_id: Id,
    camera_label: z.string().max(200).default(''),
    resolution: ResolutionOption.nullable().default(null),
    /** Default: the application's threshold (itself §9 0.3 by default). */
    threshold: z.number().min(0).max(1).optional(),
    recording: z.boolean().default(false),
    engine: z.string().trim().min(1).max(64).nullable().default(null),
  })
  .strict();
export type JobCreateBody = z.input<typeof JobCreateBody>;

/** A §4 job event reported by the console (from the device's answers): the new state and runtime fields. */
export const JobStateBody = z
  .object({
    state: JobState,
    runtime: JobRuntime.partial().default({}),
    /** The engine that runs it now (a restart with the deep-stream engine changes it). */
    engine: z.string().trim().min(1).max(64).optional(),
  })
  .strict();
export type JobStateBody = z.input<typeof JobStateBody>;

const Ok = z.object({ ok: z.literal(true) });
const Params = z.object({ id: Uuid });

export const inferenceRoutes = defineRoutes({
  'inference.jobs': {
    method: 'GET',
    path: '/api/jobs',
    auth: 'user',
    summary: '§3 Job list of the caller (newest first), with each job’s last reported state.',
    answer: z.object({ jobs: z.array(Job) }),
  },
  'inference.createJob': {
    method: 'POST',
    path: '/api/jobs',
    auth: 'user',
    summary:
      'Creates a job (state created) for one of the caller’s applications on a camera of one of the caller’s devices. 404 unknown application or device.',
    body: JobCreateBody,
    answer: Job,
    errors: [404],
  },
  'inference.jobState': {
    method: 'PUT',
    path: '/api/jobs/:id/state',
    auth: 'user',
    summary:
      '§4 job event: records a job’s new state (deploying, started, error, stopped) and runtime fields.',
    params: Params,
    body: JobStateBody,
    answer: Job,
    errors: [404],
  },
  'inference.deleteJob': {
    method: 'DELETE',
    path: '/api/jobs/:id',
    auth: 'user',
    summary: '§4 job event delete: forgets a job of the caller (the console stops it on the device first).',
    params: Params,
    answer: Ok,
    errors: [404],
  },
  'inference.deleteJobs': {
    method: 'POST',
    path: '/api/jobs/delete',
    auth: 'user',
    summary: '§4 multiple deletion: forgets several jobs of the caller; ids not the caller’s are skipped.',
    body: z.object({ ids: z.array(Uuid).min(1).max(JOBS_DELETE_MAX) }).strict(),
    answer: z.object({ deleted: z.array(z.string()) }),
  },
});

// ---- device side ----

/** §3 Alarm (alarms are a later issue): id, sources (type IP or PHYSICAL, text, value), calendars. */
export const Alarm = z.object({
  id: Id,
  sources: z
    .array(z.object({ type: z.enum(['IP', 'PHYSICAL']), text: z.string().max(200), value: Id }))
    .max(100),
  calendars: z.array(z.object({ id: Id })).max(100),
});
export type Alarm = z.infer<typeof Alarm>;

/** What the device needs to run a job (§4 step 3 "start options"). */
export const StartOptions = z
  .object({
    job_id: Uuid,
    job_name: z.string().max(JOB_NAME_MAX_CHARS),
    application: z
      .object({
        id: Uuid,
        name: z.string().max(200),
        task: z.string().max(64),
        format: z.string().max(64),
        classes: z.array(z.string().max(100)).max(1000),
        model_classes: z.array(z.string().max(100)).max(1000),
        tracker: z.string().max(64),
        fps: z.number().int().min(1).max(120),
      })
      .strict(),
    model: z
      .object({ model_id: Id, name: z.string().max(200), version: z.number().int().min(1).max(1_000_000) })
      .strict(),
    camera_id: Id,
    resolution: ResolutionOption.nullable(),
    threshold: z.number().min(0).max(1),
    recording: z.boolean(),
    engine: z.string().max(64).nullable(),
  })
  .strict();
export type StartOptions = z.infer<typeof StartOptions>;

const SdpOffer = z.object({ type: z.literal('offer'), sdp: z.string().min(1).max(200_000) });
const SdpAnswer = z.object({ type: z.literal('answer'), sdp: z.string() });

/** A job running on the device (inference-jobs). */
export const RunningJob = z.object({
  job_id: z.string(),
  camera_id: z.string(),
  engine: z.string(),
  /** The running stream-engine map entry of the job's output (§3), null before it runs. */
  port: z.number().int().nullable(),
  started_at: z.number().int(),
  /** Frames inferred and the last inference time, ms (per-camera stats, as Frigate shows). */
  frames: z.number().int(),
  inference_ms: z.number().nullable(),
  detections_per_s: z.number().nullable(),
});
export type RunningJob = z.infer<typeof RunningJob>;

/** Inference engines a device offers: the default one and the deep-stream one used after a failure (§4 step 7). */
export const EngineChoice = z.object({ default: z.string(), deepStream: z.string() });

export const inferenceCommands = defineCommands({
  // §7 alarm-new is the alarms feature's command (src/protocol/alarms.ts: the full alarm the device matches).
  /**
   * §4 step 2, ours: can the device's engine run these options? inferenceEngineError is the engine's report
   * (null: it can); engines names the default and the deep-stream engine.
   */
  'inference-check': {
    request: StartOptions,
    reply: z.object({ inferenceEngineError: z.string().nullable(), engines: EngineChoice }),
  },
  /**
   * §4 step 5, ours: the start negotiation. The browser's offer has one data channel ('inference-start');
   * the stages then run over it (InferenceControlMessage). callId names this negotiation (§3 Stream.callId).
   * engine: the engine the stages will run on (absent: the device's default; §4 step 7's restart names the
   * deep-stream engine).
   */
  'inference-negotiate': {
    request: z
      .object({
        callId: z.string().min(1).max(100),
        sdp: SdpOffer,
        engine: z.string().min(1).max(64).optional(),
      })
      .strict(),
    reply: z.object({ callId: z.string(), sdp: SdpAnswer }),
  },
  /**
   * Ours: a metadata connection for a running job's detections: the browser's offer has one data channel
   * ('inference-metadata'); the device sends InferenceMetadata on it for every inferred frame.
   */
  'inference-metadata': {
    request: z.object({ callId: z.string().min(1).max(100), job_id: Uuid, sdp: SdpOffer }).strict(),
    reply: z.object({ callId: z.string(), sdp: SdpAnswer }),
  },
  /** Ours (§4 job event stop): stops a running job; stopped false when it was not running. */
  'inference-stop': {
    request: z.object({ job_id: Uuid }).strict(),
    reply: z.object({ stopped: z.boolean() }),
  },
  /** Ours: the jobs running on the device now. */
  'inference-jobs': { request: Empty, reply: z.object({ jobs: z.array(RunningJob) }) },
  /**
   * §7 get-stream-engine-port: the port of a running stream (§3 "running stream-engine map links streamId to
   * port"); null while the stream engine has not reported it (the console polls, §9 500 ms up to 60 s).
   */
  'get-stream-engine-port': {
    request: z.object({ streamId: z.string().min(1).max(200) }).strict(),
    reply: z.object({ streamId: z.string(), port: z.number().int().nullable() }),
  },
});

// ---- the start channel (§4 step 5) ----

/** The start stages in order (§4 step 5): what the console asks and what the device answers when done. */
export const START_STEPS = [
  { request: 'file-check', done: 'file-check-done' },
  { request: 'build-model', done: 'model-built' },
  { request: 'prepare-model', done: 'model-prepared' },
  { request: 'warm-up', done: 'warm-up-done' },
  { request: 'start-inference', done: 'inference-started' },
] as const;
export type StartStep = (typeof START_STEPS)[number]['request'];
export const StartStepName = z.enum(START_STEPS.map((s) => s.request) as [StartStep, ...StartStep[]]);

/** Console → device on the start channel. `with` adds a companion request (prepare-recording, request-metadata). */
export const ControlRequest = z
  .object({
    type: z.literal('request'),
    callId: z.string().max(100),
    step: StartStepName,
    with: z.enum(['prepare-recording', 'request-metadata']).optional(),
    options: StartOptions,
  })
  .strict();
export type ControlRequest = z.infer<typeof ControlRequest>;

/**
 * Device → console on the start channel: a heartbeat while a step runs (every START_HEARTBEAT_MS, with its
 * progress 0–1 when known) and its result (ok with elapsed ms, or the error). Results carry the call id (§4
 * step 6 "result messages are forwarded with the call id").
 */
export const ControlMessage = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('heartbeat'),
    callId: z.string(),
    step: StartStepName,
    elapsed_ms: z.number(),
    progress: z.number().min(0).max(1).nullable(),
    detail: z.string().nullable(),
  }),
  z.object({
    type: z.literal('result'),
    callId: z.string(),
    step: StartStepName,
    ok: z.boolean(),
    elapsed_ms: z.number(),
    detail: z.string().nullable(),
    error: z.string().nullable(),
    runtime: JobRuntime.partial().optional(),
  }),
]);
export type ControlMessage = z.infer<typeof ControlMessage>;

/** The device sends a heartbeat this often while a start step runs, ms. */
export const START_HEARTBEAT_MS = 250;
/** A step without a heartbeat for this long is shown as stalled, ms. */
export const START_STALL_MS = 3_000;
/** A step without any message for this long fails the start (§8 "Could not get an answer from the device"), ms. */
export const START_SILENCE_FAIL_MS = 30_000;

// ---- detections (metadata channel) ----

/** One detection: box in 0..1 of the frame (x, y top-left; w, h), class, score 0–1, track id (0: untracked). */
export const Detection = z.object({
  class_id: z.number().int(),
  class_name: z.string(),
  score: z.number(),
  track_id: z.number().int(),
  box: z.tuple([z.number(), z.number(), z.number(), z.number()]),
  /**
   * What the engine knows of the object beyond its class (issue 11 use cases), when it knows it: a person's
   * `identity`, `age_band`, `gender`; a vehicle's `plate`. The sim engines report the scene's truth.
   */
  attributes: z.record(z.string().max(64), z.string().max(64)).optional(),
});
export type Detection = z.infer<typeof Detection>;

/**
 * One inferred frame's detections. t: the frame's capture time on the device's monotonic clock, ms (the clock
 * libwebrtc stamps the frame with, so the frame's RTP timestamp is 90 × t plus a per-stream constant); wall:
 * its wall-clock capture time, ms since the epoch; seq: frame number of the job; sent: device monotonic ms
 * when sent; inference_ms: the engine's time for this frame.
 */
export const InferenceMetadata = z.object({
  type: z.literal('frame'),
  job_id: z.string(),
  seq: z.number().int(),
  t: z.number(),
  wall: z.number(),
  width: z.number().int(),
  height: z.number().int(),
  inference_ms: z.number(),
  detections: z.array(Detection),
});
export type InferenceMetadata = z.infer<typeof InferenceMetadata>;
