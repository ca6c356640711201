/**
 * Issue 10's host engine measure (BENCH_ONLY=onnx; no server, no browser): frames per second of the `host`
 * ONNX detector (src/agent/inference/onnx) on this machine's CPU for a 640×640 YOLO-sized model.
 *
 * The model is built here (tests/unit/engines/onnxModels.ts yoloLike): a YOLOv8-style graph at 640×640 — five
 * 3×3 stride-2 Conv+SiLU stages (16, 32, 64, 128, 256 channels) each followed by two 3×3 stride-1 Conv+SiLU,
 * heads at strides 8/16/32 giving YOLOv8's [1, 84, 8400] (80 classes), Sigmoid, boxes in pixels; seeded
 * random weights. Its GFLOPs per frame are printed (YOLOv8n: 8.7). Frames are 1280×720 I420 (what the
 * agent's cameras hand over), so every frame pays the letterbox to 640×640 as in production.
 *
 *   execution_provider     the provider the session runs on (default order: tensorrt, cuda, cpu)
 *   session_create_ms      loading the model into ONNX Runtime
 *   detect_ms              one detect() (letterbox + run + decode + NMS), p50/p95, sequential frames
 *   letterbox_ms           the letterbox alone (1280×720 I420 → 640×640 float NCHW), p50/p95
 *   fps                    frames per second over the measured frames, one at a time
 *
 * BENCH_ONNX_FRAMES (default 40) frames after 5 warm-up frames. Reports; never asserts.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ORT_VERSION, createOnnxDetector, probeExecutionProviders } from '../../src/agent/inference/onnx';
import { frameBytes, letterboxGeometry, letterboxToTensor } from '../../src/agent/inference/onnx/letterbox';
import { yoloLike } from '../unit/engines/onnxModels';
import { stats, type Stats } from './stats';

const FRAMES = Number(process.env.BENCH_ONNX_FRAMES ?? 40);
const WARM_UP = 5;

export interface OnnxBench {
  onnxruntime: string;
  model: string;
  model_gflops: number;
  model_parameters: number;
  model_mb: number;
  frame: string;
  providers: { name: string; available: boolean }[];
  execution_provider: string;
  session_create_ms: number;
  letterbox_ms: Stats;
  detect_ms: Stats;
  fps: number;
  cpu: string;
}

/** A 1280×720 I420 frame with moving content (a gradient and blocks that shift with `i`). */
function frameAt(i: number, data: Uint8Array, width: number, height: number): void {
  for (let y = 0; y < height; y++) {
    const row = y * width;
    for (let x = 0; x < width; x++) data[row + x] = 16 + ((x + y + i * 7) & 0xff) * 0.85;
  }
  const uv = width * height;
  for (let j = uv; j < data.length; j++) data[j] = 128 + (((j + i * 13) >> 6) & 0x3f) - 32;
}

export async function benchOnnx(): Promise<OnnxBench> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-bench-onnx-'));
  try {
    const graph = yoloLike(640, 80);
    const file = path.join(dir, 'yolo-like.onnx');
    writeFileSync(file, graph.model);
    const providers = (await probeExecutionProviders()).map(({ name, available }) => ({ name, available }));
    const t0 = performance.now();
    const detector = await createOnnxDetector(file, { cacheDir: path.join(dir, 'cache') });
    const sessionMs = performance.now() - t0;
    const width = 1280;
    const height = 720;
    const data = new Uint8Array(frameBytes(width, height, 'i420'));
    const frame = { data, width, height, format: 'i420' as const };

    const g = letterboxGeometry(width, height, 640, 640);
    const tensor = new Float32Array(3 * 640 * 640);
    const letterbox: number[] = [];
    for (let i = 0; i < 20; i++) {
      frameAt(i, data, width, height);
      const s = performance.now();
      letterboxToTensor(frame, g, tensor);
      letterbox.push(performance.now() - s);
    }

    for (let i = 0; i < WARM_UP; i++) {
      frameAt(i, data, width, height);
      await detector.detect(frame, 0.3);
    }
    const detect: number[] = [];
    let total = 0;
    for (let i = 0; i < FRAMES; i++) {
      frameAt(WARM_UP + i, data, width, height);
      const s = performance.now();
      await detector.detect(frame, 0.3);
      const ms = performance.now() - s;
      detect.push(ms);
      total += ms;
    }
    await detector.close();
    return {
      onnxruntime: ORT_VERSION,
      model: graph.description,
      model_gflops: graph.gflops,
      model_parameters: graph.parameters,
      model_mb: Math.round((graph.model.length / 1_048_576) * 10) / 10,
      frame: `${width}x${height} i420, letterboxed to 640x640`,
      providers,
      execution_provider: detector.info.executionProvider,
      session_create_ms: Math.round(sessionMs),
      letterbox_ms: stats(letterbox),
      detect_ms: stats(detect),
      fps: Math.round((FRAMES / (total / 1000)) * 10) / 10,
      cpu: `${os.cpus()[0]?.model ?? 'unknown'} × ${os.cpus().length}`,
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
