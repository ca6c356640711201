/**
 * The start stages of §4 step 5 as the console shows them, and the start options of §4 step 3 — pure helpers
 * of inferenceStart.machine.ts.
 */
import type { Application } from '../../src/protocol/applications';
import { START_STEPS, type Job, type StartOptions, type StartStep } from '../../src/protocol/inference';

/** One stage: its step, state, times (ms since the epoch / ms), progress 0–1 and what the device said. */
export interface Stage {
  step: StartStep;
  state: 'pending' | 'running' | 'done' | 'failed';
  startedAt: number | null;
  /** Time from asking to the result, seen by the console, ms. */
  elapsedMs: number | null;
  /** The device's own time for the stage, ms. */
  deviceMs: number | null;
  progress: number | null;
  detail: string | null;
  stalled: boolean;
  lastBeatAt: number | null;
}

/** §4 step 5 names: what the console asks and the device's "done" answer for each stage. */
export const STAGE_OF_STEP: Record<StartStep, { asked: string; done: string }> = {
  'file-check': { asked: 'file check', done: 'file check done' },
  'build-model': { asked: 'build model', done: 'model built' },
  'prepare-model': { asked: 'prepare model', done: 'model prepared' },
  'warm-up': { asked: 'warm-up plus prepare recording', done: 'warm-up done' },
  'start-inference': { asked: 'start inference plus request metadata', done: 'inference started' },
};

export const initialStages = (): Stage[] =>
  START_STEPS.map(({ request }) => ({
    step: request,
    state: 'pending',
    startedAt: null,
    elapsedMs: null,
    deviceMs: null,
    progress: null,
    detail: null,
    stalled: false,
    lastBeatAt: null,
  }));

/** §4 step 3: the start options of a job (application, model version, camera, resolution, threshold, recording). */
export function buildStartOptions(job: Job, app: Application): StartOptions {
  return {
    job_id: job.id,
    job_name: job.job_name,
    application: {
      id: app.id,
      name: app.name,
      task: app.task,
      format: app.format,
      classes: app.classes,
      model_classes: app.model_classes,
      tracker: app.tracker,
      fps: app.input.fps,
    },
    model: { model_id: app.model_id, name: app.model_name, version: app.version },
    camera_id: job.cameras[0] ?? '',
    resolution: job.options.resolution,
    threshold: job.options.threshold,
    recording: job.options.recording,
    engine: job.options.engine,
  };
}
