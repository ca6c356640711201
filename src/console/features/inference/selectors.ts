/**
 * Pure views of the inference feature (§2 /jobs; §3 Job; §4 start stages) and their hooks: the jobs actor's
 * snapshot as rows with each row's start progress (every stage with its elapsed time, stalled or not), and
 * the running jobs of a camera (application streams: a cell whose device and camera run a started job).
 */
import { useSelector } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { inferenceStartMachine } from '../../../../machines/inference/inferenceStart.machine';
import type {
  DeviceScoreRow,
  JobDraft,
  JobDevice,
  JobOp,
  jobsMachine,
} from '../../../../machines/inference/jobs.machine';
import type { PrepStep, PrepStepName } from '../../../../machines/inference/startContext';
import { STAGE_OF_STEP, type Stage } from '../../../../machines/inference/stages';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Application } from '../../../protocol/applications';
import type { DeviceCamera } from '../../../protocol/cameras';
import type { Job, JobState, StartStep } from '../../../protocol/inference';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type JobsSnapshot = SnapshotFrom<typeof jobsMachine>;
export type StartSnapshot = SnapshotFrom<typeof inferenceStartMachine>;

/** One stage as shown: §4 name (asked / done), state, elapsed ms (running: until `now`), stalled. */
export interface StageView {
  step: StartStep;
  label: string;
  state: Stage['state'];
  elapsedMs: number | null;
  deviceMs: number | null;
  progress: number | null;
  detail: string | null;
  stalled: boolean;
}

/** One preparation step as shown (device link, alarm-new, calendars, engine check): elapsed ms, stalled. */
export interface PrepView {
  step: PrepStepName;
  state: PrepStep['state'];
  elapsedMs: number | null;
  stalled: boolean;
}

export interface StartView {
  /** 'starting' while the handshake runs; 'started' | 'failed' | 'rejected' | 'canceled' after. */
  phase: 'preparing' | 'starting' | 'started' | 'failed' | 'canceled';
  /** The engine used (a restart with the deep-stream engine changes it). */
  engine: string | null;
  attempt: number;
  /** The steps before the stages, each time-limited. */
  prep: PrepView[];
  stages: StageView[];
  error: string | null;
  /** ms from the click to started (or to now). */
  totalMs: number;
}

export interface JobRow {
  id: string;
  name: string;
  application: string;
  device: string;
  deviceId: string;
  camera: string;
  cameraId: string;
  state: JobState;
  engine: string | null;
  port: number | null;
  message: string | null;
  inferenceEngineError: string | null;
  selected: boolean;
  /** A start of this session exists (its progress: useStartView). */
  starting: boolean;
}

export interface JobsView {
  state: 'idle' | 'loading' | 'ready' | 'failed';
  busy: boolean;
  rows: JobRow[];
  error: string | null;
  lastUpdate: number | null;
  selectedCount: number;
  form: {
    state: 'closed' | 'loadingOptions' | 'editing' | 'scoring' | 'loadingCameras' | 'creating';
    draft: JobDraft;
    applications: Pick<Application, 'id' | 'name' | 'model_name' | 'version' | 'threshold'>[];
    devices: JobDevice[];
    cameras: DeviceCamera[];
    error: string | null;
    /** §9 scores of the last "best device" pick and the device chosen (null: none). */
    scores: DeviceScoreRow[];
    chosen: string | null;
  };
  op: (JobOp & { names: string[] }) | null;
  confirming: boolean;
}

export function stageView(s: Stage, now: number): StageView {
  const names = STAGE_OF_STEP[s.step];
  return {
    step: s.step,
    label: s.state === 'done' ? names.done : names.asked,
    state: s.state,
    elapsedMs:
      s.elapsedMs ?? (s.state === 'running' && s.startedAt !== null ? Math.max(0, now - s.startedAt) : null),
    deviceMs: s.deviceMs,
    progress: s.progress,
    detail: s.detail,
    stalled: s.stalled,
  };
}

export function startToView(s: StartSnapshot, now: number): StartView {
  const c = s.context;
  const phase: StartView['phase'] = s.matches('started')
    ? 'started'
    : s.matches('canceled') || c.error === 'Process has been canceled'
      ? 'canceled'
      : s.matches('failed') || s.matches('rejected') || s.matches('engineError') || s.matches('over')
        ? 'failed'
        : s.matches('negotiating') || s.matches('waitingPort') || s.matches('reporting')
          ? 'starting'
          : 'preparing';
  return {
    phase,
    engine: c.options.engine,
    attempt: c.attempt,
    prep: c.prep.map((p) => ({
      step: p.step,
      state: p.state,
      elapsedMs:
        p.elapsedMs ??
        (p.state === 'running' && p.startedAt !== null ? Math.max(0, now - p.startedAt) : null),
      stalled: p.stalled,
    })),
    stages: c.stages.map((st) => stageView(st, now)),
    error: c.error,
    totalMs: (c.finishedAt ?? now) - c.startedAt,
  };
}

const rowOf = (j: Job, selected: boolean, starting: boolean): JobRow => ({
  id: j.id,
  name: j.job_name,
  application: j.application_name,
  device: j.device_label,
  deviceId: j.device_id,
  camera: j.camera_label || (j.cameras[0] ?? ''),
  cameraId: j.cameras[0] ?? '',
  state: j.state,
  engine: j.options.engine,
  port: j.runtime.port,
  message: j.runtime.message,
  inferenceEngineError: j.runtime.inferenceEngineError,
  selected,
  starting,
});

export function jobsToView(s: JobsSnapshot): JobsView {
  const c = s.context;
  const list =
    (['idle', 'loading', 'ready', 'failed'] as const).find((k) => s.matches({ list: k })) ?? 'idle';
  const form =
    (['closed', 'loadingOptions', 'editing', 'scoring', 'loadingCameras', 'creating'] as const).find((k) =>
      s.matches({ form: k }),
    ) ?? 'closed';
  return {
    state: list,
    busy: s.hasTag('busy'),
    rows: c.jobs.map((j) => rowOf(j, c.selected.includes(j.id), !!c.starts[j.id])),
    error: c.error,
    lastUpdate: c.lastUpdate,
    selectedCount: c.selected.length,
    form: {
      state: form,
      draft: c.draft,
      applications: c.applications.map((a) => ({
        id: a.id,
        name: a.name,
        model_name: a.model_name,
        version: a.version,
        threshold: a.threshold,
      })),
      devices: c.devices,
      cameras: c.cameras,
      error: c.formError,
      scores: c.scores,
      chosen: c.chosen,
    },
    op: c.op
      ? { ...c.op, names: c.jobs.filter((j) => c.op!.ids.includes(j.id)).map((j) => j.job_name) }
      : null,
    confirming: s.matches({ op: 'confirming' }),
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The jobs actor (throws before the feature's actors have started). */
export function useJobsRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.inferenceJobs);
}

export function useJobsView(): JobsView {
  return useSelector(useJobsRef(), (s: JobsSnapshot) => jobsToView(s), sameJson);
}

/** A job's start actor of this session, or null. */
export function useStartRef(jobId: string): AnyActorRef | null {
  return useSelector(
    useJobsRef(),
    (s: JobsSnapshot) => (s.context.starts[jobId] as AnyActorRef | undefined) ?? null,
  );
}

/** A start's progress, recomputed every `tickMs` while it runs (elapsed times move). */
export function useStartView(ref: AnyActorRef, tickMs = 200): StartView {
  const [now, setNow] = useState(() => Date.now());
  const view = useSelector(ref, (s: StartSnapshot) => startToView(s, now), sameJson);
  const running = view.phase === 'preparing' || view.phase === 'starting';
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(timer);
  }, [running, tickMs]);
  return view;
}

/** The jobs actor, or undefined before the feature's actors have started. */
export function useJobsRefMaybe(): AnyActorRef | undefined {
  return useSystem().system.get(SYSTEM_IDS.inferenceJobs) as AnyActorRef | undefined;
}

/** Started jobs on a device's camera (an application stream): [{ id, name }]. */
export function startedJobsOf(s: JobsSnapshot, deviceId: string, cameraId: string) {
  return s.context.jobs
    .filter((j) => j.state === 'started' && j.device_id === deviceId && j.cameras.includes(cameraId))
    .map((j) => ({ id: j.id, name: j.job_name, application: j.application_name }));
}

const NONE: AnyActorRef = {
  getSnapshot: () => ({ context: { jobs: [] } }),
  subscribe: () => ({ unsubscribe: () => undefined }),
} as unknown as AnyActorRef;

/** Hook: the started jobs of a camera ([] when the feature has not started). */
export function useStartedJobs(deviceId: string, cameraId: string) {
  const ref = useJobsRefMaybe() ?? NONE;
  return useSelector(ref, (s: JobsSnapshot) => startedJobsOf(s, deviceId, cameraId), sameJson);
}
