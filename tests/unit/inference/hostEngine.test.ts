/**
 * The `host` inference engine (src/agent/inference/host.ts) on real ONNX Runtime with a real ONNX detector the
 * test builds (tests/unit/engines/onnxModels.ts gridDetector: class scores are each cell's mean red, green,
 * blue): the file check finds the deployed model file, build/prepare/warm-up run the session, the runner
 * infers an I420 frame and keeps the application's classes only; a model of another format or one not deployed
 * is refused with a reason.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { allocI420 } from '../../../src/agent/backends/types';
import { createHostEngine } from '../../../src/agent/inference/host';
import type { StartOptions } from '../../../src/protocol/inference';
import { gridDetector } from '../engines/onnxModels';

const dir = mkdtempSync(path.join(os.tmpdir(), 'host-engine-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
mkdirSync(path.join(dir, 'M1', 'v1'), { recursive: true });
writeFileSync(
  path.join(dir, 'M1', 'v1', 'grid.onnx'),
  gridDetector({ size: 64, stride: 8, layout: 'yolov8', names: "{0: 'red', 1: 'green', 2: 'blue'}" }),
);
const installed = {
  model_id: 'M1',
  model_name: 'grid',
  task: 'object-detection',
  format: 'onnx',
  version: 1,
  version_id: 'v',
  file_name: 'grid.onnx',
  size: 1,
  sha256: 'x',
  installed_at: 0,
};
const engine = createHostEngine({ models: { dir, installed: async () => [installed] } });

const options = (classes: string[], over: Partial<StartOptions> = {}): StartOptions => ({
  job_id: '6f1e2b0c-8f0e-4c43-9c77-0d7b0a3b1c11',
  job_name: 'grid',
  application: {
    id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
    name: 'grid',
    task: 'object-detection',
    format: 'onnx',
    classes,
    model_classes: ['red', 'green', 'blue'],
    tracker: 'none',
    fps: 30,
  },
  model: { model_id: 'M1', name: 'grid', version: 1 },
  camera_id: 'cam-1',
  resolution: null,
  threshold: 0.5,
  recording: false,
  engine: 'host',
  ...over,
});

/** A 128×96 I420 frame, all red (BT.601 limited range). */
function redFrame() {
  const f = allocI420(128, 96);
  const y = 128 * 96;
  f.data.fill(81, 0, y);
  f.data.fill(90, y, y + y / 4);
  f.data.fill(240, y + y / 4);
  return f;
}

async function prepared(classes: string[]) {
  const job = { options: options(classes), camera: {} as never, state: {} };
  const signal = new AbortController().signal;
  const noop = () => undefined;
  const file = await engine.fileCheck(job, noop, signal);
  const built = await engine.buildModel(job, noop, signal);
  const prep = await engine.prepareModel(job, noop, signal);
  const warm = await engine.warmUp(job, noop, signal);
  return { job, file, built, prep, warm, runner: await engine.open(job) };
}

describe('host inference engine (real ONNX Runtime)', () => {
  it('runs the stages on the deployed model and infers I420 frames', async () => {
    const p = await prepared([]);
    expect(p.file.runtime?.scriptPath).toBe(path.join(dir, 'M1', 'v1', 'grid.onnx'));
    expect(p.built.detail).toMatch(/session on (cpu|cuda|tensorrt)/);
    expect(p.prep.detail).toBe('input 64×64, 3 classes');
    expect(p.warm.detail).toMatch(/first inference \d+ ms/);
    const found = await p.runner.detect({ frame: redFrame(), wall: 0, seq: 1 });
    expect(found.length).toBeGreaterThan(0);
    expect(found.every((d) => d.class_name === 'red' && d.score >= 0.5)).toBe(true);
    for (const d of found) for (const v of d.box) expect(v >= 0 && v <= 1).toBe(true);
    p.runner.close();
  });

  it('keeps the application’s classes only', async () => {
    const p = await prepared(['green']);
    expect(await p.runner.detect({ frame: redFrame(), wall: 0, seq: 1 })).toEqual([]);
    p.runner.close();
  });

  it('refuses another format, and a model that is not deployed', async () => {
    const gguf = options([]);
    gguf.application.format = 'gguf';
    expect(await engine.check(gguf)).toMatch(/runs ONNX models/);
    expect(await engine.check(options([]))).toBeNull();
    const missing = {
      options: options([], { model: { model_id: 'M2', name: 'other', version: 3 } }),
      camera: {} as never,
      state: {},
    };
    await expect(engine.fileCheck(missing, () => undefined, new AbortController().signal)).rejects.toThrow(
      /other v3 is not on this device: deploy it from \/models first/,
    );
  });
});
