/**
 * The simulated inference engines (issue 10 "sim engine: reports the synthetic scene's true boxes (class,
 * score, track id) with realistic stage timings and load; deterministic under a seed"). No GPU, TensorRT or
 * DeepStream exists on a demo machine; these stand behind the same InferenceEngine interface as `host`.
 *
 * - `sim`: an ONNX-Runtime-like engine: build ≈ 250–450 ms the first time a model version is built on this
 *   device, ≈ 40 ms afterwards (the engine cache is kept between runs, as TensorRT's is).
 * - `sim-deepstream`: the deep-stream engine of §4 step 7 (used after a failed start): slower to build
 *   (≈ 600–900 ms, first time).
 *
 * Detections are the camera's true boxes for the frame that was sent (SimCamera.lastObjects(): the boxes drawn
 * in it), in 0..1 of the frame, for the scene objects whose label is one of the application's classes (its
 * chosen classes, else the model's; a model sharing no class with the scene detects nothing). Scores are a
 * seeded function of (seed, job, track, frame) in 0.55–0.98, filtered by the job's threshold; track ids are
 * the object's index + 1; the scene's attributes (a person's identity, age band, gender; a car's plate) go with
 * them (issue 11). A camera without known boxes (not synthetic) gives no detections.
 * check(): task must be one of detection's family and the format one a detector runs (onnx, tensorrt, pytorch,
 * tflite); otherwise the inferenceEngineError says why.
 */
import type { Detection, StartOptions } from '../../protocol/inference';
import type { CameraDevice } from '../backends/types';
import { hashSeed } from '../backends/sim/scene';
import { mulberry32 } from '../backends/sim/random';
import type { DeviceModels } from '../models';
import {
  pacedStage,
  type FrameRunner,
  type InferenceEngine,
  type PreparedJob,
  type StageOutcome,
} from './engine';

/** Tasks whose models give boxes; formats a detector runs. */
export const DETECTION_TASKS = ['object-detection', 'pose-estimation', 'face-recognition', 'segmentation'];
export const DETECTOR_FORMATS = ['onnx', 'tensorrt', 'pytorch', 'tflite'];

interface SimBox {
  label: string;
  x: number;
  y: number;
  width: number;
  height: number;
  attributes?: Record<string, string>;
}
/** A camera whose drawn boxes are known (SimCamera). */
interface TruthCamera extends CameraDevice {
  lastObjects(): SimBox[];
}
const hasTruth = (c: CameraDevice): c is TruthCamera =>
  typeof (c as Partial<TruthCamera>).lastObjects === 'function';

export interface SimEngineOptions {
  id: 'sim' | 'sim-deepstream';
  /** Seed of the stage timings and scores (default: from the device id). */
  seed: number;
  models: Pick<DeviceModels, 'installed'>;
  /** Multiplies every stage's time (tests: 0). Default 1. */
  timeScale?: number;
}

/** Classes the job reports: the application's chosen ones, else the model's. */
export const effectiveClasses = (o: StartOptions): string[] =>
  o.application.classes.length ? o.application.classes : o.application.model_classes;

/** A seeded score in 0.55–0.98 for (job, track, frame). */
export function simScore(seed: number, jobId: string, track: number, seq: number): number {
  const r = mulberry32(
    (seed ^ hashSeed(jobId) ^ Math.imul(track, 0x9e3779b1) ^ Math.imul(seq, 0x85ebca6b)) >>> 0,
  );
  return Math.round((0.55 + r() * 0.43) * 1000) / 1000;
}

export function createSimEngine(o: SimEngineOptions): InferenceEngine {
  const built = new Set<string>();
  const scale = o.timeScale ?? 1;
  const deep = o.id === 'sim-deepstream';
  const jitter = (key: string, lo: number, hi: number) => {
    const r = mulberry32((o.seed ^ hashSeed(key)) >>> 0);
    return Math.round((lo + r() * (hi - lo)) * scale);
  };
  const modelKey = (j: PreparedJob) => `${j.options.model.model_id}@${j.options.model.version}`;

  return {
    id: o.id,
    async check(options) {
      if (!DETECTION_TASKS.includes(options.application.task))
        return `The ${o.id} engine runs detection models; ${options.model.name} is a ${options.application.task} model.`;
      if (!DETECTOR_FORMATS.includes(options.application.format))
        return `The ${o.id} engine cannot run ${options.application.format} models.`;
      return null;
    },
    async fileCheck(job, progress, signal): Promise<StageOutcome> {
      await pacedStage(
        jitter(`${job.options.job_id}:file`, 40, 80),
        'reading the model list',
        progress,
        signal,
      );
      const installed = (await o.models.installed()).find(
        (m) => m.model_id === job.options.model.model_id && m.version === job.options.model.version,
      );
      job.state.file = installed?.file_name ?? null;
      return {
        detail: installed
          ? `${installed.file_name} (${installed.size} bytes, sha256 ${installed.sha256.slice(0, 12)}…)`
          : `${job.options.model.name} v${job.options.model.version} is not on this device; the simulated engine runs without its file`,
        runtime: { scriptPath: `/opt/edge/pipelines/${o.id}/${job.options.application.id}.yaml` },
      };
    },
    async buildModel(job, progress, signal) {
      const key = modelKey(job);
      const cached = built.has(key);
      const ms = cached
        ? jitter(`${key}:cached`, 30, 50)
        : deep
          ? jitter(key, 600, 900)
          : jitter(key, 250, 450);
      await pacedStage(ms, cached ? 'engine cache found' : 'optimising layers', progress, signal);
      built.add(key);
      return { detail: cached ? 'engine cache reused' : `engine built in ${ms} ms` };
    },
    async prepareModel(job, progress, signal) {
      await pacedStage(
        jitter(`${job.options.job_id}:prep`, 100, 180),
        'loading the engine',
        progress,
        signal,
      );
      return {
        detail: `${effectiveClasses(job.options).length} classes, threshold ${job.options.threshold}`,
        runtime: {
          inferenceUrl: deep ? 'edge/deepstream-sim:7.0' : 'edge/onnx-sim:1.20',
          containerName: `${o.id}-${job.options.job_id.slice(0, 8)}`,
        },
      };
    },
    async warmUp(job, progress, signal) {
      await pacedStage(jitter(`${job.options.job_id}:warm`, 120, 200), 'warming up', progress, signal);
      return { detail: job.options.recording ? 'warm; recording prepared' : 'warm' };
    },
    async open(job): Promise<FrameRunner> {
      const classes = effectiveClasses(job.options);
      const camera = job.camera;
      const jobId = job.options.job_id;
      const threshold = job.options.threshold;
      return {
        needsPixels: false,
        detect({ frame, seq }) {
          if (!hasTruth(camera)) return [];
          const out: Detection[] = [];
          camera.lastObjects().forEach((b, i) => {
            const classId = classes.indexOf(b.label);
            if (classId < 0) return;
            const score = simScore(o.seed, jobId, i + 1, seq);
            if (score < threshold) return;
            out.push({
              class_id: classId,
              class_name: b.label,
              score,
              track_id: i + 1,
              box: [b.x / frame.width, b.y / frame.height, b.width / frame.width, b.height / frame.height],
              ...(b.attributes ? { attributes: { ...b.attributes } } : {}),
            });
          });
          return out;
        },
        close() {},
      };
    },
  };
}
