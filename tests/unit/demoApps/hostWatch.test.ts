/**
 * The speed application on the `host` engine (src/agent/demoApps/hostWatch.ts) on real ONNX Runtime: a grid
 * detector built by the test (tests/unit/engines/onnxModels.ts; class 0 'car' scores a cell's mean red) sees a
 * red square drive across a 128×128 I420 frame at a known speed; the IoU tracker keeps one track id, and the
 * speed measured between two lines matches the square's true speed. Also: the tracker on its own, the
 * interpolation between samples, and the wiring through createDemoApps (info says available, speed-measure
 * answers from the host engine, a camera that fails ends in not_available).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allocI420, type CameraDevice, type FrameListener } from '../../../src/agent/backends/types';
import { rgbToYuv } from '../../../src/agent/backends/sim/scene';
import { createDemoApps } from '../../../src/agent/demoApps';
import { createIouTracker, recordedObjectsAt, CameraWatch } from '../../../src/agent/demoApps/hostWatch';
import { createOnnxDetector } from '../../../src/agent/inference/onnx';
import type { InstalledModel } from '../../../src/protocol/models';
import { gridDetector } from '../engines/onnxModels';

const dir = mkdtempSync(path.join(os.tmpdir(), 'host-speed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const modelFile = path.join(dir, 'vehicles.onnx');
writeFileSync(
  modelFile,
  gridDetector({
    size: 64,
    stride: 8,
    boxSide: 32,
    layout: 'yolov8',
    names: "{0: 'car', 1: 'person', 2: 'dog'}",
  }),
);

const W = 128;
const H = 128;
/** The red box: SIDE wide, HEIGHT tall (one row of the detector's 8-pixel input cells), frame pixels. */
const SIDE = 32;
const HEIGHT = 16;
/** Top of the box, frame pixels (input row 24: on the detector's cell grid). */
const TOP = 48;
/** Square speed, frame pixels per second. */
const PX_PER_S = 64;

/** A 128×128 dark grey I420 frame with a red SIDE×HEIGHT box whose left edge is at x, top at TOP. */
function frameAt(x: number, person = false) {
  const f = allocI420(W, H);
  const ySize = W * H;
  const [gy, gu, gv] = rgbToYuv(30, 30, 30);
  f.data.fill(gy, 0, ySize);
  f.data.fill(gu, ySize, ySize + ySize / 4);
  f.data.fill(gv, ySize + ySize / 4);
  /** Paints a w×h box of colour rgb at (left, top), both even, in the Y plane and the half-size U and V planes. */
  const paint = (left: number, top: number, w: number, h: number, rgb: [number, number, number]) => {
    const [y, u, v] = rgbToYuv(...rgb);
    for (let r = top; r < top + h; r++)
      for (let c = Math.max(0, left); c < Math.min(W, left + w); c++) f.data[r * W + c] = y;
    for (let r = top / 2; r < (top + h) / 2; r++)
      for (let c = Math.max(0, left >> 1); c < Math.min(W / 2, (left + w) >> 1); c++) {
        f.data[ySize + r * (W / 2) + c] = u;
        f.data[ySize + ySize / 4 + r * (W / 2) + c] = v;
      }
  };
  paint(Math.round(x), TOP, SIDE, HEIGHT, [255, 0, 0]);
  // A person standing still (class 1 scores green), on input row 48, well away from the car's row.
  if (person) paint(64, 96, 16, 16, [0, 255, 0]);
  return f;
}

/** Line A at x = 0.25 and line B at x = 0.75 of the frame, top to bottom; 20 m apart. */
const LINE_A: [[number, number], [number, number]] = [
  [0.25, 0],
  [0.25, 1],
];
const LINE_B: [[number, number], [number, number]] = [
  [0.75, 0],
  [0.75, 1],
];
const DISTANCE_M = 20;
/** The square's centre goes from x = 32 to x = 96 (64 px) in 1 s: 20 m/s = 72 km/h. */
const TRUE_KMH = (DISTANCE_M / ((0.5 * W) / PX_PER_S)) * 3.6;

describe('the IoU tracker', () => {
  it('keeps a moving box on one track, also when it moves further than its width between samples', () => {
    const tracker = createIouTracker();
    const ids = [0, 1, 2, 3, 4].map(
      (i) => tracker.update(i * 100, [{ label: 'car', box: [0.1 + i * 0.08, 0.4, 0.06, 0.1] }])[0]!.trackId,
    );
    expect(new Set(ids).size).toBe(1);
  });

  it('gives a second vehicle its own track, never matches across labels, and ends a track after maxAgeMs', () => {
    const tracker = createIouTracker({ maxAgeMs: 500 });
    const [car] = tracker.update(0, [{ label: 'car', box: [0.1, 0.1, 0.2, 0.2] }]);
    const next = tracker.update(100, [
      { label: 'truck', box: [0.1, 0.1, 0.2, 0.2] },
      { label: 'car', box: [0.12, 0.1, 0.2, 0.2] },
    ]);
    expect(next[1]!.trackId).toBe(car!.trackId);
    expect(next[0]!.trackId).not.toBe(car!.trackId);
    const later = tracker.update(700, [{ label: 'car', box: [0.12, 0.1, 0.2, 0.2] }]);
    expect(later[0]!.trackId).not.toBe(car!.trackId);
  });

  it('interpolates a track between two samples and knows nothing outside them', () => {
    const samples = [
      {
        t: 1000,
        objects: [{ trackId: 7, label: 'car', box: [0, 0.5, 0.1, 0.1] as [number, number, number, number] }],
      },
      {
        t: 1100,
        objects: [
          { trackId: 7, label: 'car', box: [0.2, 0.5, 0.1, 0.1] as [number, number, number, number] },
        ],
      },
    ];
    expect(recordedObjectsAt(samples, 1050)[0]!.box[0]).toBeCloseTo(0.1, 9);
    expect(recordedObjectsAt(samples, 1000)[0]!.box[0]).toBe(0);
    expect(recordedObjectsAt(samples, 999)).toEqual([]);
    expect(recordedObjectsAt(samples, 1101)).toEqual([]);
  });
});

describe('speed on a real ONNX detector', () => {
  it('times a red square crossing both lines at its true speed, on one track', async () => {
    const detector = await createOnnxDetector(modelFile);
    const camera = { name: 'test camera' } as CameraDevice;
    const watch = new CameraWatch(camera, detector, () => 0);
    // 10 samples per second (WATCH_SAMPLE_MS), the square's left edge from x = 0 to x = 96.
    for (let t = 0; t <= 1500; t += 100) await watch.ingest(frameAt((PX_PER_S * t) / 1000), t);
    await detector.close();
    const { measurePasses } = await import('../../../src/agent/demoApps/speed');
    const passes = measurePasses(
      (t) => recordedObjectsAt(watch.samples, t),
      0,
      1500,
      LINE_A,
      LINE_B,
      DISTANCE_M,
    );
    expect(watch.samples.filter((s) => s.objects.length === 1).length).toBeGreaterThanOrEqual(14);
    expect(new Set(watch.samples.flatMap((s) => s.objects.map((o) => o.trackId))).size).toBe(1);
    expect(passes).toHaveLength(1);
    expect(passes[0]).toMatchObject({ label: 'car', direction: 'a→b' });
    expect(passes[0]!.speed_kmh).toBeGreaterThan(TRUE_KMH * 0.9);
    expect(passes[0]!.speed_kmh).toBeLessThan(TRUE_KMH * 1.1);
  });
});

describe('createDemoApps on host with a deployed vehicle detector', () => {
  const model: InstalledModel = {
    model_id: 'm1',
    model_name: 'YOLO vehicles',
    task: 'detection',
    format: 'onnx',
    version: 3,
    version_id: 'v3',
    file_name: 'vehicles.onnx',
    size: 1,
    sha256: 'x',
    installed_at: 0,
  };
  /** A camera whose frames the test pushes (the capture's listener), at the clock the test sets. */
  function pushCamera(opts: { failStart?: boolean } = {}) {
    let listener: FrameListener | null = null;
    let stopped = 0;
    const camera = {
      cameraId: 'cam1',
      name: 'Gate',
      uniqueId: 'u1',
      cameraType: 'physical',
      resolutions: [],
      defaultResolution: { width: W, height: H, label: '128x128' },
      startCapture(_r: unknown, onFrame: FrameListener) {
        if (opts.failStart) throw new Error('ffmpeg is not installed');
        listener = onFrame;
        return { stop: () => void stopped++ };
      },
      grabFrame: () => Promise.reject(new Error('unused')),
    } as unknown as CameraDevice;
    return {
      camera,
      push: (x: number, person = false) => listener?.(frameAt(x, person)),
      stopped: () => stopped,
    };
  }

  it('says speed is available on host, answers from the watched camera and names the deployed model', async () => {
    let now = 1_000_000;
    const cam = pushCamera();
    const apps = createDemoApps({
      mode: 'host',
      findCamera: (id) => (id === 'cam1' ? cam.camera : undefined),
      installed: async () => [model],
      now: () => now,
      openDetector: () => createOnnxDetector(modelFile),
    });
    const info = await apps.info();
    expect(info.find((i) => i.app === 'speed')).toMatchObject({
      engine: 'host',
      available: true,
      model: 'YOLO vehicles v3 (ONNX Runtime)',
    });
    expect(info.find((i) => i.app === 'nanoowl')).toMatchObject({ available: false });
    const first = await apps.speed('cam1', now - 20_000, LINE_A, LINE_B, DISTANCE_M);
    expect(first.passes).toEqual([]);
    const started = now;
    for (let t = 0; t <= 1500; t += 100) {
      now = started + 1 + t;
      cam.push((PX_PER_S * t) / 1000);
      // The listener infers asynchronously and skips frames while busy: wait for this one to be recorded.
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await apps.speed('cam1', now - 20_000, LINE_A, LINE_B, DISTANCE_M);
    expect(r.model).toBe('YOLO vehicles v3 (ONNX Runtime)');
    expect(r.passes).toHaveLength(1);
    expect(r.passes[0]!.colour).toBeNull();
    expect(r.passes[0]!.speed_kmh).toBeGreaterThan(TRUE_KMH * 0.9);
    expect(r.passes[0]!.speed_kmh).toBeLessThan(TRUE_KMH * 1.1);
  });

  it('IBB on host: the car and a person seen, first and last time in view, with no attributes', async () => {
    let now = 2_000_000;
    const cam = pushCamera();
    const apps = createDemoApps({
      mode: 'host',
      findCamera: () => cam.camera,
      installed: async () => [model],
      now: () => now,
      openDetector: () => createOnnxDetector(modelFile),
    });
    expect((await apps.info()).find((i) => i.app === 'ibb')).toMatchObject({
      engine: 'host',
      available: true,
    });
    const started = now;
    expect((await apps.city('cam1', now - 60_000)).sightings).toEqual([]);
    for (let t = 0; t <= 1500; t += 100) {
      now = started + 1 + t;
      cam.push((PX_PER_S * t) / 1000, t >= 500);
      await new Promise((r) => setTimeout(r, 20));
    }
    const r = await apps.city('cam1', now - 60_000);
    expect(r.model).toContain('no age, gender or plate model');
    const byKind = Object.fromEntries(r.sightings.map((x) => [x.kind, x]));
    expect(r.sightings).toHaveLength(2);
    expect(byKind.vehicle).toMatchObject({ age_band: null, gender: null, plate: null, colour: null });
    expect(byKind.vehicle!.last_seen - byKind.vehicle!.first_seen).toBeGreaterThanOrEqual(1300);
    expect(byKind.person!.first_seen - started).toBeGreaterThanOrEqual(500);
    expect(byKind.person!.first_seen - started).toBeLessThanOrEqual(700);
  });

  it('answers not_available when the camera cannot be captured, and for a model that is not ONNX', async () => {
    const cam = pushCamera({ failStart: true });
    const apps = createDemoApps({
      mode: 'host',
      findCamera: () => cam.camera,
      installed: async () => [model],
      openDetector: () => createOnnxDetector(modelFile),
    });
    await expect(apps.speed('cam1', Date.now() - 1000, LINE_A, LINE_B, DISTANCE_M)).rejects.toMatchObject({
      code: 'not_available',
      message: expect.stringContaining('ffmpeg is not installed'),
    });
    const engine = createDemoApps({
      mode: 'host',
      findCamera: () => cam.camera,
      installed: async () => [{ ...model, format: 'tensorrt' }],
      openDetector: () => createOnnxDetector(modelFile),
    });
    const speed = (await engine.info()).find((i) => i.app === 'speed');
    expect(speed).toMatchObject({ available: false, reason: expect.stringContaining('ONNX') });
  });
});
