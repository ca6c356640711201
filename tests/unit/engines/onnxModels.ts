/**
 * Real ONNX models the engine tests and the ONNX bench build (src/agent/inference/onnx/graph.ts):
 * - gridDetector: a tiny YOLO-shaped detector whose output is known from the image: the input is cut into
 *   `stride`-pixel cells (AveragePool), each cell is one candidate whose box is the cell's centre with a fixed
 *   size and whose three class scores are the cell's mean red, green and blue (0..1); YOLOv8 layout
 *   `[1, 7, N]` or YOLOv5 layout `[1, N, 8]` (objectness 1).
 * - yoloLike: a YOLOv8n-sized graph at 640×640 (see its comment) with random weights, for speed only.
 */
import { encodeModel, type OnnxInitializer, type OnnxNode } from '../../../src/agent/inference/onnx/graph';

export interface GridDetectorOptions {
  /** Input side, pixels (square). */
  size: number;
  /** Cell side, pixels; divides size. */
  stride: number;
  /** Box side of every candidate, input pixels (default stride: cells do not overlap). */
  boxSide?: number;
  layout: 'yolov8' | 'yolov5';
  /** Metadata `names` (an Ultralytics dict literal); absent: no metadata. */
  names?: string;
}

const int64 = (values: number[]) => BigInt64Array.from(values.map((v) => BigInt(v)));

export function gridDetector(o: GridDetectorOptions): Uint8Array {
  const g = o.size / o.stride;
  const n = g * g;
  const side = o.boxSide ?? o.stride;
  const boxes = new Float32Array(4 * n);
  for (let row = 0; row < g; row++) {
    for (let col = 0; col < g; col++) {
      const i = row * g + col;
      boxes[i] = (col + 0.5) * o.stride;
      boxes[n + i] = (row + 0.5) * o.stride;
      boxes[2 * n + i] = side;
      boxes[3 * n + i] = side;
    }
  }
  const initializers: OnnxInitializer[] = [
    { name: 'boxes', dims: [1, 4, n], data: boxes },
    { name: 'score_shape', dims: [3], data: int64([1, 3, n]) },
  ];
  const nodes: OnnxNode[] = [
    {
      op: 'AveragePool',
      inputs: ['images'],
      outputs: ['pooled'],
      attrs: { kernel_shape: [o.stride, o.stride], strides: [o.stride, o.stride] },
    },
    { op: 'Reshape', inputs: ['pooled', 'score_shape'], outputs: ['scores'] },
  ];
  if (o.layout === 'yolov8') {
    nodes.push({ op: 'Concat', inputs: ['boxes', 'scores'], outputs: ['output0'], attrs: { axis: 1 } });
  } else {
    initializers.push({ name: 'objectness', dims: [1, 1, n], data: new Float32Array(n).fill(1) });
    nodes.push(
      { op: 'Concat', inputs: ['boxes', 'objectness', 'scores'], outputs: ['rows'], attrs: { axis: 1 } },
      { op: 'Transpose', inputs: ['rows'], outputs: ['output0'], attrs: { perm: [0, 2, 1] } },
    );
  }
  return encodeModel({
    name: `grid_detector_${o.layout}`,
    nodes,
    initializers,
    inputs: [{ name: 'images', type: 'float', shape: [1, 3, o.size, o.size] }],
    outputs: [{ name: 'output0', type: 'float', shape: o.layout === 'yolov8' ? [1, 7, n] : [1, n, 8] }],
    metadata: o.names ? { names: o.names } : undefined,
  });
}

/** A seeded uniform generator (mulberry32). */
function random(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

export interface YoloLikeGraph {
  model: Uint8Array;
  /** Multiply-accumulates × 2 per frame, in billions. */
  gflops: number;
  parameters: number;
  description: string;
}

/**
 * A YOLOv8n-sized detector graph at `size` (640) with `classes` (80) classes and seeded random weights:
 * backbone of five 3×3 stride-2 Conv+SiLU (16, 32, 64, 128, 256 channels) each followed by two 3×3 stride-1
 * Conv+SiLU of the same width; heads at strides 8, 16 and 32 (1×1 Conv to 4 + classes channels), reshaped and
 * concatenated to YOLOv8's `[1, 4 + classes, 8400]`, Sigmoid, boxes scaled to pixels. Its arithmetic is about
 * YOLOv8n's (8.7 GFLOPs); it detects nothing meaningful — it measures speed.
 */
export function yoloLike(size = 640, classes = 80, seed = 7): YoloLikeGraph {
  const rand = random(seed);
  const nodes: OnnxNode[] = [];
  const initializers: OnnxInitializer[] = [];
  let flops = 0;
  let parameters = 0;
  let id = 0;
  const conv = (
    input: string,
    cin: number,
    cout: number,
    k: number,
    stride: number,
    hw: number,
    act: boolean,
  ) => {
    const name = `c${id++}`;
    const w = new Float32Array(cout * cin * k * k);
    const std = Math.sqrt(2 / (cin * k * k));
    for (let i = 0; i < w.length; i++) w[i] = (rand() * 2 - 1) * std * 1.7;
    const b = new Float32Array(cout);
    initializers.push(
      { name: `${name}.w`, dims: [cout, cin, k, k], data: w },
      { name: `${name}.b`, dims: [cout], data: b },
    );
    parameters += w.length + b.length;
    const pad = (k - 1) / 2;
    nodes.push({
      op: 'Conv',
      inputs: [input, `${name}.w`, `${name}.b`],
      outputs: [`${name}.y`],
      attrs: { kernel_shape: [k, k], strides: [stride, stride], pads: [pad, pad, pad, pad] },
    });
    const out = hw / stride;
    flops += 2 * out * out * cout * cin * k * k;
    if (!act) return `${name}.y`;
    nodes.push(
      { op: 'Sigmoid', inputs: [`${name}.y`], outputs: [`${name}.s`] },
      { op: 'Mul', inputs: [`${name}.y`, `${name}.s`], outputs: [`${name}.a`] },
    );
    return `${name}.a`;
  };
  const widths = [16, 32, 64, 128, 256];
  let x = 'images';
  let cin = 3;
  let hw = size;
  const taps: { name: string; c: number; hw: number }[] = [];
  for (const [i, c] of widths.entries()) {
    x = conv(x, cin, c, 3, 2, hw, true);
    hw /= 2;
    x = conv(x, c, c, 3, 1, hw, true);
    x = conv(x, c, c, 3, 1, hw, true);
    cin = c;
    if (i >= 2) taps.push({ name: x, c, hw });
  }
  const k = 4 + classes;
  const heads = taps.map((t) => {
    const y = conv(t.name, t.c, k, 1, 1, t.hw, false);
    const shape = `${y}.shape`;
    initializers.push({
      name: shape,
      dims: [3],
      data: BigInt64Array.from([1n, BigInt(k), BigInt(t.hw * t.hw)]),
    });
    nodes.push({ op: 'Reshape', inputs: [y, shape], outputs: [`${y}.r`] });
    return `${y}.r`;
  });
  const n = taps.reduce((s, t) => s + t.hw * t.hw, 0);
  const scale = new Float32Array(k).fill(1);
  scale.fill(size, 0, 4);
  initializers.push({ name: 'pixel_scale', dims: [1, k, 1], data: scale });
  nodes.push(
    { op: 'Concat', inputs: heads, outputs: ['raw'], attrs: { axis: 2 } },
    { op: 'Sigmoid', inputs: ['raw'], outputs: ['prob'] },
    { op: 'Mul', inputs: ['prob', 'pixel_scale'], outputs: ['output0'] },
  );
  const names = `{${Array.from({ length: classes }, (_, i) => `${i}: 'class${i}'`).join(', ')}}`;
  return {
    model: encodeModel({
      name: 'yolo_like',
      nodes,
      initializers,
      inputs: [{ name: 'images', type: 'float', shape: [1, 3, size, size] }],
      outputs: [{ name: 'output0', type: 'float', shape: [1, k, n] }],
      metadata: { names },
    }),
    gflops: Math.round(flops / 1e7) / 100,
    parameters,
    description: `YOLOv8-style graph ${size}x${size}: 15 Conv3x3+SiLU (16-256 ch), 3 heads (strides 8/16/32) -> [1, ${k}, ${n}]`,
  };
}
