/**
 * The `host` engine's detector (issue 10 "host engine: real inference with ONNX Runtime (onnxruntime-node)
 * on the model version deployed to the device: letterbox, run, decode YOLO-family outputs, non-maximum
 * suppression, threshold; the execution provider reported"; §9 "Default detection threshold 0.3").
 *
 * createOnnxDetector(modelPath, { executionProviders?, cacheDir? }) loads an .onnx file whose first input is an
 * image batch float32 `[1, 3, H, W]` (RGB 0..1; symbolic H/W are taken as 640) and whose first output is a
 * YOLOv5 or YOLOv8 detection head (decode.ts). Class names come from the model's metadata `names` (Ultralytics
 * exports), else from a `model.json` beside the file holding `classes: string[]`, else `class_<i>`.
 * `detect(frame, threshold)` letterboxes the frame (letterbox.ts), runs the model, keeps candidates whose score
 * is ≥ threshold, applies per-class NMS (IoU 0.45, nms.ts) and answers boxes in 0..1 of the frame (clipped;
 * a box wholly in the padding is dropped), highest score first. Calls run one at a time (a call waits for the one before). Errors: a missing or unreadable file, an
 * input that is not an image batch or an unsupported output reject createOnnxDetector; a frame whose bytes do not
 * match its size rejects detect (RangeError); detect after close rejects.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { decodeYolo, outputLayout, UnsupportedOutputError, type OutputLayout } from './decode';
import { parseClassNames, readOnnxMetadata } from './graph';
import {
  letterboxGeometry,
  letterboxToTensor,
  toFrameBox,
  type Frame,
  type LetterboxGeometry,
} from './letterbox';
import { nonMaxSuppression } from './nms';
import { createSession, defaultExecutionProviders } from './providers';

export { UnsupportedOutputError } from './decode';
export { ORT_VERSION, defaultExecutionProviders, probeExecutionProviders } from './providers';
export type { ProviderProbe } from './providers';
export type { Frame } from './letterbox';

/** Input side used when the model's is symbolic (Ultralytics' default image size). */
export const DEFAULT_INPUT_SIDE = 640;

export interface OnnxDetectorInfo {
  /** The provider the session runs on: 'tensorrt', 'cuda' or 'cpu'. */
  executionProvider: string;
  /** Model input size, pixels. */
  inputWidth: number;
  inputHeight: number;
  /** Class names, index = classId. */
  classes: string[];
}

export interface Detection {
  classId: number;
  className: string;
  /** 0..1 (objectness × class score for YOLOv5). */
  score: number;
  /** Top-left corner and size, each 0..1 of the frame's width or height. */
  box: { x: number; y: number; w: number; h: number };
}

export interface OnnxDetector {
  info: OnnxDetectorInfo;
  /** Detections with score ≥ `threshold` (0..1) after NMS, highest score first. */
  detect(frame: Frame, threshold: number): Promise<Detection[]>;
  /** Releases the session. Idempotent. */
  close(): Promise<void>;
}

export interface OnnxDetectorOptions {
  /** Providers to try in order (default defaultExecutionProviders(): tensorrt, cuda, cpu on linux/x64). */
  executionProviders?: string[];
  /** Where a provider that builds engines keeps them between runs (TensorRT); created when needed. */
  cacheDir?: string;
}

/** The image side from a dimension of the input shape: a positive number, else DEFAULT_INPUT_SIDE. */
const side = (d: number | string | undefined) => (typeof d === 'number' && d > 0 ? d : DEFAULT_INPUT_SIDE);

async function sidecarClasses(modelPath: string): Promise<string[] | null> {
  try {
    const raw: unknown = JSON.parse(await readFile(path.join(path.dirname(modelPath), 'model.json'), 'utf8'));
    const classes = (raw as { classes?: unknown }).classes;
    return Array.isArray(classes) && classes.length > 0 && classes.every((c) => typeof c === 'string')
      ? (classes as string[])
      : null;
  } catch {
    return null;
  }
}

/** Loads `modelPath` into ONNX Runtime and answers a detector (see the module comment). */
export async function createOnnxDetector(
  modelPath: string,
  options: OnnxDetectorOptions = {},
): Promise<OnnxDetector> {
  const bytes = new Uint8Array(await readFile(modelPath));
  let metadata: Record<string, string> = {};
  try {
    metadata = readOnnxMetadata(bytes);
  } catch {
    // not a readable protobuf: ONNX Runtime says why below
  }
  let names = parseClassNames(metadata.names) ?? (await sidecarClasses(modelPath));
  const { session, executionProvider } = await createSession(
    bytes,
    options.executionProviders?.length ? options.executionProviders : defaultExecutionProviders(),
    { cacheDir: options.cacheDir },
  );
  try {
    const input = session.inputMetadata[0];
    if (!input || !input.isTensor || input.type !== 'float32' || input.shape.length !== 4) {
      throw new UnsupportedOutputError(
        `The model's first input must be a float32 image batch [1, 3, H, W]${input?.isTensor ? `, got ${input.type} [${input.shape.join(', ')}]` : ''}`,
      );
    }
    if (typeof input.shape[1] === 'number' && input.shape[1] !== 3) {
      throw new UnsupportedOutputError(`The model's input has ${input.shape[1]} channels; RGB needs 3`);
    }
    const inputWidth = side(input.shape[3]);
    const inputHeight = side(input.shape[2]);
    const output = session.outputMetadata[0];
    if (!output?.isTensor) throw new UnsupportedOutputError("The model's first output is not a tensor");
    // The layout from the declared shape when it is fixed, else from the first run's tensor.
    let layout: OutputLayout | null = output.shape.every((d) => typeof d === 'number' && d > 0)
      ? outputLayout(output.shape as number[], names?.length ?? null)
      : null;
    const classesOf = (l: OutputLayout) =>
      names && names.length === l.classes
        ? names
        : Array.from({ length: l.classes }, (_, i) => names?.[i] ?? `class_${i}`);
    if (layout) names = classesOf(layout);

    const inputName = session.inputNames[0]!;
    const outputName = session.outputNames[0]!;
    const buffer = new Float32Array(3 * inputWidth * inputHeight);
    let geometry: LetterboxGeometry | null = null;
    let chain: Promise<unknown> = Promise.resolve();
    let closed = false;

    const info: OnnxDetectorInfo = { executionProvider, inputWidth, inputHeight, classes: names ?? [] };

    const run = async (frame: Frame, threshold: number): Promise<Detection[]> => {
      if (closed) throw new Error('The detector is closed');
      if (!(threshold >= 0 && threshold <= 1))
        throw new RangeError(`threshold must be 0..1, got ${threshold}`);
      if (!geometry || geometry.frameWidth !== frame.width || geometry.frameHeight !== frame.height) {
        geometry = letterboxGeometry(frame.width, frame.height, inputWidth, inputHeight);
      }
      const g = geometry;
      letterboxToTensor(frame, g, buffer);
      const feeds = { [inputName]: new ort.Tensor('float32', buffer, [1, 3, inputHeight, inputWidth]) };
      const results = await session.run(feeds);
      const out = results[outputName] as ort.Tensor;
      try {
        if (!layout) {
          layout = outputLayout(out.dims, names?.length ?? null);
          names = classesOf(layout);
          info.classes = names;
        }
        const kept = nonMaxSuppression(decodeYolo(out.data as Float32Array, layout, threshold));
        // A box that lies wholly in the padding is not in the frame: dropped.
        return kept
          .map((c) => ({
            classId: c.classId,
            className: info.classes[c.classId] ?? `class_${c.classId}`,
            score: c.score,
            box: toFrameBox(c.x1, c.y1, c.x2, c.y2, g),
          }))
          .filter((d) => d.box.w > 0 && d.box.h > 0);
      } finally {
        for (const t of Object.values(results)) (t as ort.Tensor).dispose?.();
      }
    };

    return {
      info,
      detect(frame, threshold) {
        const next = chain.then(() => run(frame, threshold));
        chain = next.catch(() => undefined);
        return next;
      },
      async close() {
        if (closed) return;
        closed = true;
        await chain;
        await session.release();
      },
    };
  } catch (err) {
    await session.release().catch(() => undefined);
    throw err;
  }
}
