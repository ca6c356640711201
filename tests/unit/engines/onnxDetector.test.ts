/**
 * The host detector through real ONNX Runtime (onnxruntime-node) on real ONNX models the test builds
 * (onnxModels.ts gridDetector: each 8-pixel cell of the 64×64 input is a candidate whose class scores are the
 * cell's mean red, green and blue), so letterbox, run, decode, threshold and NMS are checked against values
 * computed by hand.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createOnnxDetector, probeExecutionProviders } from '../../../src/agent/inference/onnx';
import { identityModel } from '../../../src/agent/inference/onnx/graph';
import { frameBytes } from '../../../src/agent/inference/onnx/letterbox';
import { rgbToYuv } from '../../../src/agent/backends/sim/scene';
import { gridDetector, type GridDetectorOptions } from './onnxModels';

const dir = mkdtempSync(path.join(os.tmpdir(), 'onnx-detector-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const NAMES = "{0: 'red', 1: 'green', 2: 'blue'}";
let files = 0;
function modelFile(o: GridDetectorOptions, sub = `m${files++}`): string {
  const folder = path.join(dir, sub);
  const file = path.join(folder, 'model.onnx');
  mkdirSync(folder, { recursive: true });
  writeFileSync(file, gridDetector(o));
  return file;
}

/** A 128×96 RGBA frame (letterboxed into 64×64 at scale 0.5 with 8 rows of padding above and below). */
function frame(background: [number, number, number]) {
  const width = 128;
  const height = 96;
  const data = new Uint8Array(width * height * 4);
  for (let i = 0; i < width * height; i++) data.set([...background, 255], i * 4);
  const paint = (x: number, y: number, w: number, h: number, rgb: [number, number, number]) => {
    for (let r = y; r < y + h; r++)
      for (let c = x; c < x + w; c++) data.set([...rgb, 255], (r * width + c) * 4);
  };
  return { frame: { data, width, height, format: 'rgba' as const }, paint };
}

const round = (v: number) => Math.round(v * 1e4) / 1e4;

describe('createOnnxDetector on real ONNX Runtime', () => {
  it('reports the provider it runs on, the input size and the class names from the metadata', async () => {
    const probes = await probeExecutionProviders();
    expect(probes.at(-1)).toEqual({ name: 'cpu', available: true, error: null });
    const d = await createOnnxDetector(modelFile({ size: 64, stride: 8, layout: 'yolov8', names: NAMES }));
    expect(d.info).toEqual({
      executionProvider: probes.find((p) => p.available)!.name,
      inputWidth: 64,
      inputHeight: 64,
      classes: ['red', 'green', 'blue'],
    });
    await d.close();
  });

  it('finds the red square where it is in the frame, and applies the threshold (YOLOv8 layout)', async () => {
    const d = await createOnnxDetector(modelFile({ size: 64, stride: 8, layout: 'yolov8', names: NAMES }), {
      executionProviders: ['cpu'],
    });
    expect(d.info.executionProvider).toBe('cpu');
    const { frame: f, paint } = frame([0, 100, 0]);
    paint(32, 16, 32, 32, [255, 0, 0]); // input x 16..31, y 16..31: cells (2..3, 2..3)
    const hits = await d.detect(f, 0.5);
    expect(
      hits.map((h) => [h.className, round(h.score), round(h.box.x), round(h.box.y), h.box.w, round(h.box.h)]),
    ).toEqual([
      ['red', 1, 0.25, round(16 / 96), 0.125, round(16 / 96)],
      ['red', 1, 0.375, round(16 / 96), 0.125, round(16 / 96)],
      ['red', 1, 0.25, round(32 / 96), 0.125, round(16 / 96)],
      ['red', 1, 0.375, round(32 / 96), 0.125, round(16 / 96)],
    ]);
    // 0.3: the green background cells (100/255 = 0.392) too; cells wholly in the padding (grey 114 = 0.447)
    // pass the threshold but lie outside the frame, so they are dropped.
    const low = await d.detect(f, 0.3);
    expect(low).toHaveLength(48);
    expect(low.filter((h) => h.className === 'green').every((h) => round(h.score) === round(100 / 255))).toBe(
      true,
    );
    expect(await d.detect(f, 0.4)).toHaveLength(4);
    await d.close();
    await expect(d.detect(f, 0.5)).rejects.toThrow(/closed/);
  });

  it('suppresses overlapping boxes of one class (NMS at IoU 0.45), keeping the higher score', async () => {
    // Boxes of 24 px on an 8 px grid: side neighbours overlap with IoU 0.5 (dropped), diagonal ones 0.29 (kept).
    const d = await createOnnxDetector(
      modelFile({ size: 64, stride: 8, boxSide: 24, layout: 'yolov8', names: NAMES }),
      { executionProviders: ['cpu'] },
    );
    const { frame: f, paint } = frame([0, 0, 0]);
    paint(32, 16, 16, 16, [250, 0, 0]);
    paint(48, 16, 16, 16, [220, 0, 0]);
    paint(32, 32, 16, 16, [190, 0, 0]);
    paint(48, 32, 16, 16, [160, 0, 0]);
    // Above the padding's grey (0.447), whose cells' 24 px boxes now reach into the frame.
    const hits = await d.detect(f, 0.5);
    expect(
      hits.map((h) => [round(h.score), round(h.box.x), round(h.box.y), round(h.box.w), round(h.box.h)]),
    ).toEqual([
      [round(250 / 255), 0.125, 0, 0.375, 0.5],
      [round(160 / 255), 0.25, round(16 / 96), 0.375, 0.5],
    ]);
    await d.close();
  });

  it('reads the YOLOv5 layout (objectness × class) the same way, from an I420 frame', async () => {
    const d = await createOnnxDetector(modelFile({ size: 64, stride: 8, layout: 'yolov5', names: NAMES }), {
      executionProviders: ['cpu'],
    });
    const width = 128;
    const height = 96;
    const data = new Uint8Array(frameBytes(width, height, 'i420'));
    const [y0, u0, v0] = rgbToYuv(0, 0, 0);
    data.fill(y0, 0, width * height);
    data.fill(u0, width * height, width * height * 1.25);
    data.fill(v0, width * height * 1.25);
    const [y, u, v] = rgbToYuv(20, 40, 230);
    for (let r = 16; r < 48; r++) data.fill(y, r * width + 32, r * width + 64);
    for (let r = 8; r < 24; r++) {
      data.fill(u, width * height + r * 64 + 16, width * height + r * 64 + 32);
      data.fill(v, width * height * 1.25 + r * 64 + 16, width * height * 1.25 + r * 64 + 32);
    }
    const hits = await d.detect({ data, width, height, format: 'i420' }, 0.5);
    expect(hits).toHaveLength(4);
    for (const h of hits) {
      expect(h.className).toBe('blue');
      expect(Math.abs(h.score - 230 / 255)).toBeLessThan(0.02);
    }
    expect(hits.map((h) => [round(h.box.x), round(h.box.y)]).sort()).toEqual([
      [0.25, round(16 / 96)],
      [0.25, round(32 / 96)],
      [0.375, round(16 / 96)],
      [0.375, round(32 / 96)],
    ]);
    await d.close();
  });

  it('takes class names from model.json beside the file when the model has none, else class_<i>', async () => {
    const file = modelFile({ size: 64, stride: 8, layout: 'yolov8' }, 'sidecar');
    writeFileSync(path.join(path.dirname(file), 'model.json'), JSON.stringify({ classes: ['r', 'g', 'b'] }));
    const named = await createOnnxDetector(file, { executionProviders: ['cpu'] });
    expect(named.info.classes).toEqual(['r', 'g', 'b']);
    await named.close();
    const bare = await createOnnxDetector(modelFile({ size: 64, stride: 8, layout: 'yolov8' }), {
      executionProviders: ['cpu'],
    });
    expect(bare.info.classes).toEqual(['class_0', 'class_1', 'class_2']);
    await bare.close();
  });

  it('refuses a model that is not an image detector, a missing file and a bad frame', async () => {
    const file = path.join(dir, 'identity.onnx');
    writeFileSync(file, identityModel());
    await expect(createOnnxDetector(file, { executionProviders: ['cpu'] })).rejects.toThrow(/image batch/);
    await expect(createOnnxDetector(path.join(dir, 'missing.onnx'))).rejects.toThrow(/ENOENT/);
    const garbage = path.join(dir, 'garbage.onnx');
    writeFileSync(garbage, Buffer.from('not an onnx file'));
    await expect(createOnnxDetector(garbage, { executionProviders: ['cpu'] })).rejects.toThrow();
    const d = await createOnnxDetector(modelFile({ size: 64, stride: 8, layout: 'yolov8', names: NAMES }), {
      executionProviders: ['cpu'],
    });
    await expect(
      d.detect({ data: new Uint8Array(5), width: 128, height: 96, format: 'rgba' }, 0.3),
    ).rejects.toThrow(RangeError);
    await expect(d.detect(frame([0, 0, 0]).frame, 1.5)).rejects.toThrow(/threshold/);
    // The detector still works after a refused call.
    expect(await d.detect(frame([255, 0, 0]).frame, 0.9)).toHaveLength(48);
    await d.close();
  });
});
