/**
 * The start handshake's context, events and pure updates (spec §4 "Starting an inference connection", §8
 * texts) — the data half of inferenceStart.machine.ts.
 *
 * Before any stage runs, five preparation steps are shown, each with its elapsed time and each time-limited
 * (§4 heartbeat: never a silent spinner): `link` (the device link open), `alarms` (§4 step 1 alarm-new),
 * `calendars` (§4 step 1 calendars assigned to alarms; `skipped` when there are no alarms), `engine-check`
 * (§4 step 2, the engine's error) and `connect` (§4 step 5's peer connection and data channel open; limited by
 * START_SILENCE_FAIL_MS, begun again for the deep-stream attempt). A step with no answer after START_STALL_MS is flagged stalled (shown); one
 * with no answer after START_PREP_LIMIT_MS fails the start with §8 "Could not get an answer from the device".
 */
import type { Application } from '../../src/protocol/applications';
import {
  INFERENCE_TEXTS,
  type Alarm,
  type ControlMessage,
  type Job,
  type JobRuntime,
  type JobState,
  type StartOptions,
  type StartStep,
} from '../../src/protocol/inference';
import { buildStartOptions, initialStages, type Stage } from './stages';

/**
 * Longest wait of one preparation step (device link, alarm-new, calendar assignment, engine check) and of each
 * report of the job's state; past it the start fails with §8 "Could not get an answer from the device", ms.
 * Above the device call time-out (10 s) and the link wait (15 s) so those fail first with their own reason.
 */
export const START_PREP_LIMIT_MS = 20_000;

/** The preparation steps before the stages, in order. */
export const PREP_STEPS = ['link', 'alarms', 'calendars', 'engine-check', 'connect'] as const;
export type PrepStepName = (typeof PREP_STEPS)[number];

/** One preparation step as shown: state, times (ms since the epoch / ms), stalled. */
export interface PrepStep {
  step: PrepStepName;
  state: 'pending' | 'running' | 'done' | 'skipped' | 'failed';
  startedAt: number | null;
  elapsedMs: number | null;
  stalled: boolean;
}

export interface InferenceStartInput {
  job: Job;
  application: Application;
  /** §8 title "Warning: {device label}". */
  deviceLabel: string;
  /** Started from a stream page (§4 step 7: a failed peer connection returns to /control-panel/cameras). */
  onStreamPage?: boolean;
  /** Who hears `start.finished` (the jobs actor); null when run alone. */
  reportTo?: {
    send(
      event:
        | { type: 'start.finished'; jobId: string; ok: boolean }
        | { type: 'start.reported'; job: Job }
        | { type: 'start.navigate'; jobId: string; to: string },
    ): void;
  } | null;
}

export interface InferenceStartContext {
  job: Job;
  application: Application;
  deviceLabel: string;
  onStreamPage: boolean;
  reportTo: InferenceStartInput['reportTo'];
  alarms: Alarm[];
  options: StartOptions;
  /** Engines the device offers (inference-check). */
  engines: { default: string; deepStream: string } | null;
  /** The negotiation's call id (§3 Stream.callId); a new one per attempt. */
  callId: string;
  attempt: number;
  prep: PrepStep[];
  stages: Stage[];
  runtime: Partial<JobRuntime>;
  error: string | null;
  startedAt: number;
  finishedAt: number | null;
}

/** What the channel actor reports. */
export type ChannelEvent =
  | { type: 'channel.open' }
  | { type: 'channel.message'; message: ControlMessage }
  | { type: 'channel.failed'; error: string }
  | { type: 'channel.closed' };

export type InferenceStartEvent = ChannelEvent | { type: 'start.cancel' };

/** What the channel actor obeys: ask a step (with its companion request). */
export interface ChannelCommand {
  type: 'channel.request';
  step: StartStep;
  with?: 'prepare-recording' | 'request-metadata';
  options: StartOptions;
  callId: string;
}

/** The report a state sends to the server (PUT /api/jobs/:id/state). */
export interface StateReport {
  jobId: string;
  state: JobState;
  runtime: Partial<JobRuntime>;
  engine?: string;
}

export const newCallId = (jobId: string, attempt: number) =>
  `${jobId.slice(0, 8)}-${attempt}-${Math.random().toString(36).slice(2, 8)}`;

export const initialPrep = (): PrepStep[] =>
  PREP_STEPS.map((step) => ({ step, state: 'pending', startedAt: null, elapsedMs: null, stalled: false }));

export function initialStartContext(input: InferenceStartInput, now: number): InferenceStartContext {
  return {
    job: input.job,
    application: input.application,
    deviceLabel: input.deviceLabel,
    onStreamPage: input.onStreamPage ?? false,
    reportTo: input.reportTo ?? null,
    alarms: [],
    options: buildStartOptions(input.job, input.application),
    engines: null,
    callId: newCallId(input.job.id, 1),
    attempt: 1,
    prep: initialPrep(),
    stages: initialStages(),
    runtime: {},
    error: null,
    startedAt: now,
    finishedAt: null,
  };
}

/** The preparation step `step` begins (running, timed from `now`). */
export const prepBegin = (prep: PrepStep[], step: PrepStepName, now: number): PrepStep[] =>
  prep.map((p) => (p.step === step ? { ...p, state: 'running', startedAt: now, stalled: false } : p));

/** The running preparation step ends as `state` with its elapsed time. */
export const prepEnd = (prep: PrepStep[], state: 'done' | 'failed', now: number): PrepStep[] =>
  prep.map((p) =>
    p.state === 'running' ? { ...p, state, elapsedMs: now - (p.startedAt ?? now), stalled: false } : p,
  );

/** `step` was not needed (calendars without alarms). */
export const prepSkip = (prep: PrepStep[], step: PrepStepName): PrepStep[] =>
  prep.map((p) => (p.step === step ? { ...p, state: 'skipped' } : p));

/** The running preparation step has had no answer for START_STALL_MS. */
export const prepStall = (prep: PrepStep[]): PrepStep[] =>
  prep.map((p) => (p.state === 'running' ? { ...p, stalled: true } : p));

/** A heartbeat: the running stage's progress and detail; not stalled any more. */
export function beat(stages: Stage[], m: ControlMessage, now: number): Stage[] {
  if (m.type !== 'heartbeat') return stages;
  return stages.map((s) =>
    s.step === m.step && s.state === 'running'
      ? { ...s, progress: m.progress, detail: m.detail ?? s.detail, stalled: false, lastBeatAt: now }
      : s,
  );
}

/** A stage's result ok: done with its elapsed time; the next one runs. */
export function advance(stages: Stage[], m: ControlMessage & { type: 'result' }, now: number): Stage[] {
  const i = stages.findIndex((s) => s.step === m.step);
  return stages.map((s, k) => {
    if (k === i)
      return {
        ...s,
        state: 'done' as const,
        elapsedMs: now - (s.startedAt ?? now),
        deviceMs: m.elapsed_ms,
        detail: m.detail,
        stalled: false,
      };
    if (k === i + 1) return { ...s, state: 'running' as const, startedAt: now };
    return s;
  });
}

/** The running stage failed (elapsed time kept). */
export const failRunning = (stages: Stage[], now: number): Stage[] =>
  stages.map((s) =>
    s.state === 'running' ? { ...s, state: 'failed' as const, elapsedMs: now - (s.startedAt ?? now) } : s,
  );

/** Why a stage failed, from the event that failed it. */
export function failureText(
  event: { type: string; message?: ControlMessage; error?: unknown } | undefined,
): string {
  if (event?.type === 'channel.message' && event.message?.type === 'result')
    return event.message.error ?? INFERENCE_TEXTS.startFailed;
  if (event?.type === 'channel.failed' && typeof event.error === 'string') return event.error;
  return INFERENCE_TEXTS.noAnswer;
}

/** Device-call failures that mean the device gave no answer (deviceRpc's codes), not a refusal. */
const NO_ANSWER_CODES = ['timeout', 'link_closed'];

/**
 * Why a preparation step failed: §8 "Could not get an answer from the device" when the device gave none (a
 * time-out, a link that closed or went silent; the transport's reason follows it), else the error's own text.
 */
export function prepFailureText(error: unknown): string {
  const noAnswer: string = INFERENCE_TEXTS.noAnswer;
  if (error === undefined) return noAnswer;
  const message =
    error instanceof Error ? error.message : typeof error === 'string' ? error : String(error ?? '');
  const code = (error as { code?: unknown } | null)?.code;
  if (!message || message.replace(/\.$/, '') === noAnswer) return noAnswer;
  if (typeof code === 'string' && NO_ANSWER_CODES.includes(code)) return `${noAnswer}: ${message}`;
  return message;
}
