/**
 * The jobs actor's context, events and pure helpers (spec §2 /jobs, §3 Job, §4 "Job events", §9 device score)
 * — the data half of jobs.machine.ts.
 */
import type { ActorRefFrom } from 'xstate';
import type { Application } from '../../src/protocol/applications';
import type { DeviceCamera } from '../../src/protocol/cameras';
import type { Job } from '../../src/protocol/inference';
import { chooseDevice } from '../engines/engineView';
import type { inferenceStartMachine } from './inferenceStart.machine';

/** A device the form offers; `online`: the server last saw it connected (only those are scored). */
export interface JobDevice {
  device_id: string;
  label: string;
  online?: boolean;
}

/** The device select's value for "the device chosen by score" (§9). */
export const BEST_DEVICE = '__best__';

/** One device's §9 score as read for a "best device" pick (null: it did not answer with its load). */
export interface DeviceScoreRow {
  device_id: string;
  label: string;
  score: number | null;
}

export interface JobDraft {
  job_name: string;
  application_id: string;
  device_id: string;
  camera_id: string;
  threshold: number | null;
  recording: boolean;
}

export type JobOp = { kind: 'delete' | 'deleteMany' | 'stop'; ids: string[] };

export interface JobsContext {
  jobs: Job[];
  lastUpdate: number | null;
  error: string | null;
  /** Start actors by job id (the running and the finished ones of this session). */
  starts: Record<string, ActorRefFrom<typeof inferenceStartMachine>>;
  /** Ids ticked for multiple deletion. */
  selected: string[];
  applications: Application[];
  devices: JobDevice[];
  cameras: DeviceCamera[];
  draft: JobDraft;
  formError: string | null;
  /** Where the open form came from; its start is a stream page start when 'streamPage'. */
  formOrigin: FormOrigin;
  /** The §9 scores read for the last "best device" pick (shown in the form), and the device they chose. */
  scores: DeviceScoreRow[];
  chosen: string | null;
  op: JobOp | null;
  /** A job whose start waits for the form options (a restart after a reload). */
  restartId: string | null;
  /** Jobs created since the last load ended (mergeLoaded). */
  fresh: string[];
}

export type JobsEvent =
  | { type: 'jobs.load' }
  | { type: 'jobs.refresh' }
  | { type: 'jobs.reset' }
  /**
   * Opens the start form; `preset` picks the device and camera (the stream page's "Run an application"),
   * `origin` 'streamPage' makes its start a stream page start (§4 step 7).
   */
  | { type: 'form.open'; preset?: { device_id: string; camera_id: string }; origin?: FormOrigin }
  | { type: 'form.close' }
  | { type: 'form.set'; patch: Partial<JobDraft> }
  | { type: 'form.submit' }
  | { type: 'job.select'; id: string; selected: boolean }
  | { type: 'job.stop'; id: string }
  | { type: 'job.restart'; id: string }
  | { type: 'job.delete'; id: string }
  | { type: 'jobs.deleteSelected' }
  | { type: 'op.confirm' }
  | { type: 'op.cancel' }
  | { type: 'start.cancel'; id: string }
  | { type: 'start.reported'; job: Job }
  | { type: 'start.finished'; jobId: string; ok: boolean }
  | { type: 'start.navigate'; jobId: string; to: string };

/** Where the start form was opened: /jobs, or a stream page (§4 step 7). */
export type FormOrigin = 'jobs' | 'streamPage';

export const EMPTY_DRAFT: JobDraft = {
  job_name: '',
  application_id: '',
  device_id: '',
  camera_id: '',
  threshold: null,
  recording: false,
};

export const INITIAL: JobsContext = {
  jobs: [],
  lastUpdate: null,
  error: null,
  starts: {},
  selected: [],
  applications: [],
  devices: [],
  cameras: [],
  draft: EMPTY_DRAFT,
  formError: null,
  formOrigin: 'jobs',
  scores: [],
  chosen: null,
  op: null,
  restartId: null,
  fresh: [],
};

/** Why the draft cannot be submitted (null: it can). */
export function draftProblem(d: JobDraft): string | null {
  if (!d.job_name.trim()) return 'job_name';
  if (!d.application_id) return 'application_id';
  if (!d.device_id || d.device_id === BEST_DEVICE) return 'device_id';
  if (!d.camera_id) return 'camera_id';
  return null;
}

/** §9: the device the scores choose — the lowest score (ties: the first listed); null when none answered. */
export const chosenByScore = (rows: readonly DeviceScoreRow[]): string | null =>
  chooseDevice(rows.map((r) => ({ deviceId: r.device_id, score: r.score })));

/** A job the server answered replaces the listed one (a start's reported state shows at once). */
export const withJob = (jobs: Job[], job: Job): Job[] =>
  jobs.some((j) => j.id === job.id) ? jobs.map((j) => (j.id === job.id ? job : j)) : [job, ...jobs];

/**
 * The list the server answered, keeping the jobs this session created since the last load ended (`fresh`): a
 * load asked before a job existed answers without it, and the row must not vanish while its start runs.
 */
export function mergeLoaded(loaded: Job[], current: Job[], fresh: readonly string[]): Job[] {
  const missing = current.filter((j) => fresh.includes(j.id) && !loaded.some((l) => l.id === j.id));
  return [...missing, ...loaded];
}
