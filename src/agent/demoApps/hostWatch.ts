/**
 * The demo apps that run on the `host` engine (issue 14: "Speed application … IBB … on host where a model for it
 * is deployed"): a detector deployed to the device (an ONNX model, run by onnx/index.ts `createOnnxDetector`)
 * infers a camera's live frames, sampled every WATCH_SAMPLE_MS (a frame that arrives while one is inferred is
 * skipped); an IoU tracker with a constant-velocity prediction (`createIouTracker`) gives each vehicle and person
 * a track id across samples; the recorded tracks (kept DEMO_WINDOW_MAX_MS) are read through
 * `recordedObjectsAt` (a track's box interpolated linearly between two samples) by the sim engine's own code:
 * speed.ts `measurePasses` (speed) and city.ts `observeCity` (IBB: people and vehicles with first and last
 * seen; no age band, gender, plate or colour without a model for them).
 *
 * A camera is watched (`CameraWatch`) from the first ask until WATCH_IDLE_MS pass with no ask: what happened
 * before the watch started is not known, and says so by its absence. Boxes are in 0..1 of the frame; times are
 * wall ms.
 */
import { DEMO_WINDOW_MAX_MS } from '../../protocol/demoApps';
import type { InstalledModel } from '../../protocol/models';
import type { CameraDevice, CaptureHandle, I420Frame } from '../backends/types';
import type { Detection } from '../inference/onnx';
import { VEHICLE_LABELS } from './speed';
import type { TruthObject } from './truth';

/** Interval between two inferred frames, ms (10 per second: a car at 100 km/h moves 2.8 m between two). */
export const WATCH_SAMPLE_MS = 100;
/** A watch with no speed-measure for this long stops its capture and releases its model, ms. */
export const WATCH_IDLE_MS = 60_000;
/** Detections below this score are not tracked (0..1). */
export const WATCH_SCORE_THRESHOLD = 0.4;

type Box = [number, number, number, number];

/** One tracked vehicle or person in one sample. */
export interface TrackedBox {
  trackId: number;
  label: string;
  box: Box;
}

/** The detector a watch runs: onnx/index.ts OnnxDetector's detect and close. */
export interface WatchDetector {
  detect(frame: I420Frame & { format: 'i420' }, threshold: number): Promise<Detection[]>;
  close(): Promise<void>;
}

/** Intersection over union of two x, y, w, h boxes. */
export function iou(a: Box, b: Box): number {
  const w = Math.min(a[0] + a[2], b[0] + b[2]) - Math.max(a[0], b[0]);
  const h = Math.min(a[1] + a[3], b[1] + b[3]) - Math.max(a[1], b[1]);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a[2] * a[3] + b[2] * b[3] - inter);
}

interface LiveTrack {
  id: number;
  label: string;
  box: Box;
  /** Box centre velocity, fractions of the frame per ms. */
  vx: number;
  vy: number;
  seen: number;
}

/** Centre-distance gate of the tracker's fallback match, in box sides. */
const GATE = 1.5;
const centre = (b: Box, axis: 0 | 1) => b[axis] + b[axis + 2]! / 2;

/**
 * A greedy IoU tracker: each detection joins the live track of its label whose box, moved by the track's
 * velocity to the detection's time, overlaps it most (IoU ≥ minIou), else whose predicted centre is nearest
 * within GATE box sides; the others start new tracks; a track not seen for maxAgeMs ends. `update(t, detections)` answers the tracked boxes at time t (ms).
 */
export function createIouTracker(o: { minIou?: number; maxAgeMs?: number } = {}) {
  const minIou = o.minIou ?? 0.2;
  const maxAgeMs = o.maxAgeMs ?? 1_000;
  let next = 1;
  let live: LiveTrack[] = [];
  return {
    update(t: number, detections: readonly { label: string; box: Box }[]): TrackedBox[] {
      live = live.filter((k) => t - k.seen <= maxAgeMs);
      const pairs: { k: LiveTrack; d: number; score: number }[] = [];
      for (const k of live) {
        const dt = t - k.seen;
        const predicted: Box = [k.box[0] + k.vx * dt, k.box[1] + k.vy * dt, k.box[2], k.box[3]];
        detections.forEach((det, d) => {
          if (det.label !== k.label) return;
          const overlap = iou(predicted, det.box);
          if (overlap >= minIou) return void pairs.push({ k, d, score: overlap });
          // No overlap worth the name (a fast vehicle, or a track whose velocity is not known yet): a detection
          // whose centre is within GATE box sides of the prediction's still joins, after every overlap match.
          const gate = GATE * Math.max(predicted[2], predicted[3]);
          const dist = Math.hypot(
            centre(det.box, 0) - centre(predicted, 0),
            centre(det.box, 1) - centre(predicted, 1),
          );
          if (dist < gate) pairs.push({ k, d, score: (minIou / 2) * (1 - dist / gate) });
        });
      }
      pairs.sort((x, y) => y.score - x.score);
      const taken = new Set<LiveTrack>();
      const owner = new Map<number, LiveTrack>();
      for (const p of pairs) {
        if (taken.has(p.k) || owner.has(p.d)) continue;
        taken.add(p.k);
        owner.set(p.d, p.k);
      }
      return detections.map((det, d) => {
        let k = owner.get(d);
        if (k) {
          const dt = Math.max(1, t - k.seen);
          k.vx = (centre(det.box, 0) - centre(k.box, 0)) / dt;
          k.vy = (centre(det.box, 1) - centre(k.box, 1)) / dt;
          k.box = det.box;
          k.seen = t;
        } else {
          k = { id: next++, label: det.label, box: det.box, vx: 0, vy: 0, seen: t };
          live.push(k);
        }
        return { trackId: k.id, label: k.label, box: det.box };
      });
    },
  };
}

/** One inferred frame: its wall time and the vehicles and people tracked in it. */
export interface WatchSample {
  t: number;
  objects: TrackedBox[];
}

const asObject = (o: TrackedBox, box: Box): TruthObject => {
  const cx = centre(box, 0);
  const cy = centre(box, 1);
  return {
    trackId: o.trackId,
    pass: 0,
    label: o.label,
    colour: '',
    box,
    column: cx < 1 / 3 ? 'left' : cx < 2 / 3 ? 'centre' : 'right',
    row: cy < 1 / 3 ? 'top' : cy < 2 / 3 ? 'middle' : 'bottom',
    attributes: {},
  };
};

/**
 * The vehicles and people at time t from recorded samples (sorted by t): a track in both samples around t has its box
 * interpolated linearly; at a sample's own time, that sample's boxes; outside the samples, none.
 */
export function recordedObjectsAt(samples: readonly WatchSample[], t: number): TruthObject[] {
  let hi = samples.findIndex((s) => s.t > t);
  if (hi === -1) hi = samples.length;
  const before = samples[hi - 1];
  if (!before) return [];
  if (before.t === t || hi === samples.length)
    return before.t === t ? before.objects.map((o) => asObject(o, o.box)) : [];
  const after = samples[hi]!;
  const f = (t - before.t) / (after.t - before.t);
  const out: TruthObject[] = [];
  for (const o of before.objects) {
    const n = after.objects.find((x) => x.trackId === o.trackId);
    if (!n) continue;
    const box = o.box.map((v, i) => v + f * (n.box[i]! - v)) as Box;
    out.push(asObject(o, box));
  }
  return out;
}

/**
 * One camera watched by a deployed detector: `start()` begins the capture at the camera's default resolution,
 * `ingest` infers one frame (the capture calls it; a frame that comes while one is inferred is dropped),
 * `samples` are the recorded tracks of the last DEMO_WINDOW_MAX_MS, `stop()` ends the capture and releases the
 * model. `error` holds the capture's or the model's failure, when one happened.
 */
export class CameraWatch {
  readonly samples: WatchSample[] = [];
  startedAt = 0;
  lastAsk = 0;
  error: string | null = null;
  private readonly tracker = createIouTracker();
  private busy = false;
  private lastSample = -Infinity;
  private capture: CaptureHandle | null = null;

  constructor(
    private readonly camera: CameraDevice,
    private readonly detector: WatchDetector,
    private readonly now: () => number,
  ) {}

  start(): void {
    this.startedAt = this.now();
    this.lastAsk = this.startedAt;
    this.capture = this.camera.startCapture(
      this.camera.defaultResolution,
      (frame) => {
        const t = this.now();
        if (this.busy || t - this.lastSample < WATCH_SAMPLE_MS) return;
        void this.ingest({ width: frame.width, height: frame.height, data: frame.data.slice() }, t);
      },
      (err) => {
        this.error = `${this.camera.name}: ${err.message}`;
      },
    );
  }

  /** Infers `frame` (its own copy), taken at wall time `t`, and records the tracked vehicles and people. */
  async ingest(frame: I420Frame, t: number): Promise<void> {
    this.busy = true;
    this.lastSample = t;
    try {
      const found = await this.detector.detect({ ...frame, format: 'i420' }, WATCH_SCORE_THRESHOLD);
      const vehicles = found
        .filter((d) => d.className === 'person' || VEHICLE_LABELS.has(d.className))
        .map((d) => ({ label: d.className, box: [d.box.x, d.box.y, d.box.w, d.box.h] as Box }));
      this.samples.push({ t, objects: this.tracker.update(t, vehicles) });
      const oldest = t - DEMO_WINDOW_MAX_MS;
      while (this.samples.length && this.samples[0]!.t < oldest) this.samples.shift();
    } catch (err) {
      this.error = `${this.camera.name}: ${err instanceof Error ? err.message : String(err)}`;
    } finally {
      this.busy = false;
    }
  }

  stop(): void {
    this.capture?.stop();
    this.capture = null;
    void this.detector.close().catch(() => undefined);
  }
}

/**
 * The device's camera watches, one per camera, each on the deployed detector it was opened with: `watch` answers
 * the running one, or opens `model` (openDetector) and starts a new one — also when the deployed version changed
 * or the last one failed (its error is thrown once, and the next ask starts again). A watch with no ask for
 * WATCH_IDLE_MS is stopped. Errors: an Error whose message says what failed (model, ONNX Runtime, camera).
 */
export function createWatchRegistry(o: {
  now: () => number;
  openDetector?: (model: InstalledModel) => Promise<WatchDetector | null>;
}) {
  const watches = new Map<string, { watch: CameraWatch; versionId: string }>();
  let idleTimer: ReturnType<typeof setInterval> | null = null;
  const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
  function stopIdle() {
    for (const [id, w] of watches)
      if (o.now() - w.watch.lastAsk > WATCH_IDLE_MS) {
        w.watch.stop();
        watches.delete(id);
      }
    if (!watches.size && idleTimer) {
      clearInterval(idleTimer);
      idleTimer = null;
    }
  }
  return {
    async watch(camera: CameraDevice, model: InstalledModel): Promise<CameraWatch> {
      const held = watches.get(camera.cameraId);
      if (held && held.versionId === model.version_id && !held.watch.error) return held.watch;
      held?.watch.stop();
      watches.delete(camera.cameraId);
      if (held?.watch.error) throw new Error(held.watch.error);
      if (!o.openDetector) throw new Error('This device cannot run models.');
      const detector = await o.openDetector(model).catch((err: unknown) => {
        throw new Error(`${model.model_name} could not be opened: ${message(err)}`);
      });
      if (!detector) throw new Error('ONNX Runtime is not available on this device.');
      const watch = new CameraWatch(camera, detector, o.now);
      try {
        watch.start();
      } catch (err) {
        watch.stop();
        throw new Error(`${camera.name}: ${message(err)}`);
      }
      watches.set(camera.cameraId, { watch, versionId: model.version_id });
      idleTimer ??= setInterval(stopIdle, 5_000);
      idleTimer.unref?.();
      return watch;
    },
  };
}
