/**
 * The inference engine interface of the agent (issue 10; spec §3 Job runtime fields, §4 "Starting an
 * inference connection" step 5 stages). An engine checks whether it can run a job's start options (§4 step 2,
 * `inferenceEngineError`), runs the start stages (file check → build model → prepare model → warm-up), and
 * opens a runner that infers camera frames. Engines: `sim` and `sim-deepstream` (simulated, report the
 * synthetic scene's true boxes; sim.ts) and `host` (ONNX Runtime; host.ts).
 */
import type { Detection, JobRuntime, StartOptions } from '../../protocol/inference';
import type { CameraDevice, I420Frame } from '../backends/types';

/** Reports a running stage's progress (0–1, null when unknown) and what it is doing. */
export type StageProgress = (progress: number | null, detail: string | null) => void;

/** What a stage tells when it is done: a line for the operator and runtime fields it learnt. */
export interface StageOutcome {
  detail: string | null;
  runtime?: Partial<JobRuntime>;
}

/** A preparing job: what the stages share (the model path found by the file check, the engine's handle). */
export interface PreparedJob {
  options: StartOptions;
  camera: CameraDevice;
  /** Engine-private state between stages. */
  state: Record<string, unknown>;
}

/** One frame to infer: the I420 frame (a copy the runner may keep) and its capture wall-clock time, ms. */
export interface FrameInput {
  frame: I420Frame;
  wall: number;
  seq: number;
}

/** Infers a job's frames. `detect` may be slow (the caller skips frames while it runs). */
export interface FrameRunner {
  /** Detections of the frame, boxes in 0..1 of the frame, above the job's threshold. */
  detect(input: FrameInput): Promise<Detection[]> | Detection[];
  /** True when detect needs a copy of the frame's pixels (a real model); false when it reads the scene. */
  readonly needsPixels: boolean;
  close(): void;
}

export interface InferenceEngine {
  /** Engine id ('sim', 'sim-deepstream', 'host'). */
  readonly id: string;
  /** §4 step 2: why this engine cannot run `options` (the inferenceEngineError), or null. */
  check(options: StartOptions): Promise<string | null>;
  fileCheck(job: PreparedJob, progress: StageProgress, signal: AbortSignal): Promise<StageOutcome>;
  buildModel(job: PreparedJob, progress: StageProgress, signal: AbortSignal): Promise<StageOutcome>;
  prepareModel(job: PreparedJob, progress: StageProgress, signal: AbortSignal): Promise<StageOutcome>;
  /** Warm-up; `recording` also prepares the recording (§4 "warm-up plus prepare recording"). */
  warmUp(job: PreparedJob, progress: StageProgress, signal: AbortSignal): Promise<StageOutcome>;
  /** Opens the runner of a prepared job. */
  open(job: PreparedJob): Promise<FrameRunner>;
}

/** Resolves after `ms`, or rejects with the signal's reason when it aborts first. */
export function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(new Error('Process has been canceled'));
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(new Error('Process has been canceled'));
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Runs a stage of `ms` in steps, reporting its progress about every `stepMs` (a simulated build has
 * something to show, like a real one's layer count).
 */
export async function pacedStage(
  ms: number,
  label: string,
  progress: StageProgress,
  signal: AbortSignal,
  stepMs = 100,
): Promise<void> {
  const steps = Math.max(1, Math.round(ms / stepMs));
  for (let i = 0; i < steps; i++) {
    await sleep(ms / steps, signal);
    progress((i + 1) / steps, label);
  }
}
