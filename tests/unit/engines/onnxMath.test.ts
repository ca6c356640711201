/**
 * The host detector's pure math (issue 10 "letterbox, decode YOLO-family outputs, non-maximum suppression,
 * threshold"): letterbox geometry and pixels, YOLOv5/YOLOv8 layouts and decoding, NMS, the ONNX writer/reader.
 */
import { describe, expect, it } from 'vitest';
import { decodeYolo, outputLayout, UnsupportedOutputError } from '../../../src/agent/inference/onnx/decode';
import { encodeModel, parseClassNames, readOnnxMetadata } from '../../../src/agent/inference/onnx/graph';
import {
  LETTERBOX_PAD,
  frameBytes,
  letterboxGeometry,
  letterboxToTensor,
  toFrameBox,
} from '../../../src/agent/inference/onnx/letterbox';
import { iou, nonMaxSuppression } from '../../../src/agent/inference/onnx/nms';
import { readFields, varint } from '../../../src/agent/inference/onnx/protobuf';
import { rgbToYuv } from '../../../src/agent/backends/sim/scene';

function rgbaFrame(w: number, h: number, rgb: [number, number, number]) {
  const data = new Uint8Array(w * h * 4);
  for (let i = 0; i < w * h; i++) data.set([...rgb, 255], i * 4);
  return { data, width: w, height: h, format: 'rgba' as const };
}

function i420Frame(w: number, h: number, rgb: [number, number, number]) {
  const [y, u, v] = rgbToYuv(...rgb);
  const data = new Uint8Array(frameBytes(w, h, 'i420'));
  data.fill(y, 0, w * h);
  data.fill(u, w * h, w * h + (w * h) / 4);
  data.fill(v, w * h + (w * h) / 4);
  return { data, width: w, height: h, format: 'i420' as const };
}

describe('letterbox', () => {
  it('fits a 16:9 frame into 640×640 with equal grey bands above and below', () => {
    expect(letterboxGeometry(1280, 720, 640, 640)).toEqual({
      frameWidth: 1280,
      frameHeight: 720,
      inputWidth: 640,
      inputHeight: 640,
      width: 640,
      height: 360,
      padX: 0,
      padY: 140,
    });
    const portrait = letterboxGeometry(480, 640, 640, 640);
    expect([portrait.width, portrait.height, portrait.padX, portrait.padY]).toEqual([480, 640, 80, 0]);
    expect(() => letterboxGeometry(0, 10, 640, 640)).toThrow(RangeError);
  });

  it('writes RGB 0..1 in the content and grey 114 in the padding (NCHW)', () => {
    const g = letterboxGeometry(32, 16, 16, 16); // content 16×8 at rows 4..11
    const t = letterboxToTensor(rgbaFrame(32, 16, [255, 51, 0]), g);
    const plane = 256;
    const at = (ch: number, x: number, y: number) => t[ch * plane + y * 16 + x]!;
    expect(at(0, 5, 2)).toBeCloseTo(LETTERBOX_PAD / 255, 6);
    expect(at(2, 5, 13)).toBeCloseTo(LETTERBOX_PAD / 255, 6);
    expect(at(0, 5, 6)).toBeCloseTo(1, 6);
    expect(at(1, 5, 6)).toBeCloseTo(0.2, 6);
    expect(at(2, 5, 6)).toBeCloseTo(0, 6);
  });

  it('samples bilinearly: a two-colour frame keeps its edge where the scale puts it', () => {
    const frame = rgbaFrame(8, 8, [0, 0, 0]);
    for (let y = 0; y < 8; y++) for (let x = 4; x < 8; x++) frame.data[(y * 8 + x) * 4] = 255;
    const t = letterboxToTensor(frame, letterboxGeometry(8, 8, 4, 4));
    // 8 → 4: each output pixel averages a 2-pixel pair; columns 0,1 black, 2,3 red.
    expect([t[0], t[1], t[2], t[3]].map((v) => Math.round(v! * 255))).toEqual([0, 0, 255, 255]);
  });

  it('converts I420 (BT.601 limited range) back to the RGB it was made from', () => {
    for (const rgb of [
      [200, 30, 60],
      [20, 180, 90],
      [128, 128, 128],
    ] as [number, number, number][]) {
      const t = letterboxToTensor(i420Frame(16, 16, rgb), letterboxGeometry(16, 16, 8, 8));
      for (let ch = 0; ch < 3; ch++) expect(Math.abs(t[ch * 64 + 27]! * 255 - rgb[ch]!)).toBeLessThan(3);
    }
  });

  it('refuses a frame shorter than its size says', () => {
    const g = letterboxGeometry(16, 16, 8, 8);
    expect(() =>
      letterboxToTensor({ data: new Uint8Array(10), width: 16, height: 16, format: 'rgba' }, g),
    ).toThrow(/needs 1024 bytes/);
  });

  it('maps input boxes back to 0..1 of the frame, removing padding and clipping', () => {
    const g = letterboxGeometry(1280, 720, 640, 640);
    expect(toFrameBox(0, 140, 640, 500, g)).toEqual({ x: 0, y: 0, w: 1, h: 1 });
    const b = toFrameBox(160, 230, 320, 410, g);
    expect(b.x).toBeCloseTo(0.25, 9);
    expect(b.y).toBeCloseTo(0.25, 9);
    expect(b.w).toBeCloseTo(0.25, 9);
    expect(b.h).toBeCloseTo(0.5, 9);
    expect(toFrameBox(-50, 0, 10, 100, g)).toEqual({ x: 0, y: 0, w: 10 / 640, h: 0 });
  });
});

describe('YOLO output layouts', () => {
  it('reads YOLOv8 [1, 4+C, N], its transpose, and YOLOv5 [1, N, 5+C]', () => {
    expect(outputLayout([1, 84, 8400], 80)).toEqual({
      kind: 'yolov8',
      attributeMajor: true,
      attributes: 84,
      candidates: 8400,
      classes: 80,
    });
    expect(outputLayout([1, 8400, 84], 80)).toMatchObject({ kind: 'yolov8', attributeMajor: false });
    expect(outputLayout([1, 25200, 85], 80)).toMatchObject({
      kind: 'yolov5',
      attributeMajor: false,
      classes: 80,
    });
    expect(outputLayout([1, 25200, 85], null)).toMatchObject({ kind: 'yolov5', classes: 80 });
    expect(outputLayout([1, 84, 8400], null)).toMatchObject({ kind: 'yolov8', classes: 80 });
  });

  it('refuses shapes that are not a YOLO head', () => {
    expect(() => outputLayout([1, 300, 6], 80)).toThrow(UnsupportedOutputError);
    expect(() => outputLayout([1, 3, 640, 640], 80)).toThrow(/Expected a YOLO output/);
    expect(() => outputLayout([1, 8400, 5], null)).toThrow(/no class scores/);
  });

  it('decodes YOLOv8 attribute-major candidates: best class, threshold, corners', () => {
    // 3 candidates, 2 classes: rows cx, cy, w, h, class0, class1.
    const data = Float32Array.from([
      ...[100, 200, 300],
      ...[50, 60, 70],
      ...[20, 40, 10],
      ...[10, 20, 10],
      ...[0.9, 0.1, 0.2],
      ...[0.2, 0.8, 0.25],
    ]);
    const out = decodeYolo(data, outputLayout([1, 6, 3], 2), 0.3);
    expect(out).toHaveLength(2);
    expect(out[0]).toMatchObject({ classId: 0, x1: 90, y1: 45, x2: 110, y2: 55 });
    expect(out[0]!.score).toBeCloseTo(0.9, 6);
    expect(out[1]).toMatchObject({ classId: 1, x1: 180, y1: 50, x2: 220, y2: 70 });
  });

  it('decodes YOLOv5 rows with objectness × class score', () => {
    const data = Float32Array.from([
      ...[10, 10, 4, 4, 0.5, 0.9, 0.1], // 0.45
      ...[20, 20, 4, 4, 0.2, 1.0, 0.0], // objectness under the threshold
      ...[30, 30, 4, 2, 1.0, 0.3, 0.6], // 0.6 class 1
    ]);
    const out = decodeYolo(data, outputLayout([1, 3, 7], 2), 0.4);
    expect(out.map((c) => [c.classId, Math.round(c.score * 100)])).toEqual([
      [0, 45],
      [1, 60],
    ]);
    expect(out[1]).toMatchObject({ x1: 28, y1: 29, x2: 32, y2: 31 });
  });
});

describe('non-maximum suppression', () => {
  const box = (classId: number, score: number, x1: number, y1: number, x2: number, y2: number) => ({
    classId,
    score,
    x1,
    y1,
    x2,
    y2,
  });

  it('computes IoU', () => {
    expect(iou(box(0, 1, 0, 0, 10, 10), box(0, 1, 5, 0, 15, 10))).toBeCloseTo(50 / 150, 9);
    expect(iou(box(0, 1, 0, 0, 10, 10), box(0, 1, 10, 0, 20, 10))).toBe(0);
  });

  it('drops a lower box of the same class above IoU 0.45, keeps other classes and lower overlaps', () => {
    const kept = nonMaxSuppression([
      box(0, 0.6, 1, 0, 11, 10), // IoU 0.82 with the best: dropped
      box(0, 0.9, 0, 0, 10, 10),
      box(1, 0.5, 0, 0, 10, 10), // other class: kept
      box(0, 0.4, 6, 0, 16, 10), // IoU 0.25: kept
    ]);
    expect(kept.map((k) => [k.classId, k.score])).toEqual([
      [0, 0.9],
      [1, 0.5],
      [0, 0.4],
    ]);
    expect(
      nonMaxSuppression([box(0, 0.9, 0, 0, 10, 10), box(1, 0.5, 0, 0, 10, 10)], { classAgnostic: true }),
    ).toHaveLength(1);
    expect(
      nonMaxSuppression([box(0, 0.9, 0, 0, 1, 1), box(0, 0.8, 5, 5, 6, 6)], { maxDetections: 1 }),
    ).toHaveLength(1);
  });

  it('keeps equal scores in input order', () => {
    const a = box(0, 0.5, 0, 0, 10, 10);
    const b = box(0, 0.5, 2, 0, 12, 10);
    expect(nonMaxSuppression([a, b])).toEqual([a]);
    expect(nonMaxSuppression([b, a])).toEqual([b]);
  });
});

describe('ONNX writer and reader', () => {
  it('writes varints, negatives as 64-bit two’s complement, and reads fields back', () => {
    expect([...varint(300)]).toEqual([0xac, 0x02]);
    expect(varint(-1)).toHaveLength(10);
    const model = encodeModel({
      name: 'm',
      nodes: [{ op: 'Identity', inputs: ['x'], outputs: ['y'] }],
      inputs: [{ name: 'x', type: 'float', shape: [1, 'n'] }],
      outputs: [{ name: 'y', type: 'float', shape: [1, 'n'] }],
      metadata: { names: "{0: 'person', 1: 'car'}", stride: '32' },
    });
    expect(readFields(model)[0]).toEqual({ field: 1, wire: 0, value: 8n });
    expect(readOnnxMetadata(model)).toEqual({ names: "{0: 'person', 1: 'car'}", stride: '32' });
    expect(() => readFields(Uint8Array.from([0x0a, 0x05, 1]))).toThrow(RangeError);
  });

  it('reads class names from Ultralytics dicts and JSON', () => {
    expect(parseClassNames("{0: 'person', 1: 'traffic light', 2: \"dog's toy\"}")).toEqual([
      'person',
      'traffic light',
      "dog's toy",
    ]);
    expect(parseClassNames('["a","b"]')).toEqual(['a', 'b']);
    expect(parseClassNames('{"0": "a", "2": "c"}')).toEqual(['a', 'class_1', 'c']);
    expect(parseClassNames('nothing here')).toBeNull();
    expect(parseClassNames(undefined)).toBeNull();
  });
});
