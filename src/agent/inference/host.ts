/**
 * The `host` inference engine (issue 10 "host engine: real inference with ONNX Runtime on the model version
 * deployed to the device"): the stages act for real — the file check finds the installed model version
 * (models-deploy put it in `<stateDir>/models/…`), build creates the ONNX Runtime session, prepare reads its
 * input size and classes, warm-up runs one frame — and the runner infers each frame it is given (frames that
 * arrive while one runs are skipped). The detector is `src/agent/inference/onnx/index.ts`
 * (`createOnnxDetector(modelPath, { cacheDir })`, the TensorRT engine cache kept in `<models>/.engine-cache`),
 * loaded on first use; when onnxruntime-node cannot load, check() says so.
 */
import path from 'node:path';
import type { Detection } from '../../protocol/inference';
import { allocI420 } from '../backends/types';
import { installedModelFile, type DeviceModels } from '../models';
import type { FrameRunner, InferenceEngine, PreparedJob } from './engine';
import type { OnnxDetector } from './onnx';
import { DETECTOR_FORMATS, effectiveClasses } from './sim';

type OnnxModule = typeof import('./onnx');

let onnxModule: Promise<OnnxModule | null> | null = null;
/** The detector module (onnxruntime-node is loaded only when a host job starts), or null when it cannot load. */
export function loadOnnx(): Promise<OnnxModule | null> {
  onnxModule ??= import('./onnx').then(
    (m) => (typeof m.createOnnxDetector === 'function' ? m : null),
    () => null,
  );
  return onnxModule;
}

const detectorOf = (job: PreparedJob) => job.state.detector as OnnxDetector | undefined;

export function createHostEngine(o: { models: Pick<DeviceModels, 'installed' | 'dir'> }): InferenceEngine {
  return {
    id: 'host',
    async check(options) {
      if (options.application.format !== 'onnx')
        return `The host engine runs ONNX models; ${options.model.name} is ${options.application.format}${DETECTOR_FORMATS.includes(options.application.format) ? ' (convert it to ONNX)' : ''}.`;
      if (!(await loadOnnx())) return 'ONNX Runtime is not available on this device.';
      return null;
    },
    async fileCheck(job) {
      const m = (await o.models.installed()).find(
        (i) => i.model_id === job.options.model.model_id && i.version === job.options.model.version,
      );
      if (!m)
        throw new Error(
          `${job.options.model.name} v${job.options.model.version} is not on this device: deploy it from /models first.`,
        );
      job.state.file = installedModelFile(o.models.dir, m);
      return {
        detail: `${m.file_name} (${m.size} bytes)`,
        runtime: { scriptPath: job.state.file as string },
      };
    },
    async buildModel(job, progress) {
      const onnx = await loadOnnx();
      if (!onnx) throw new Error('ONNX Runtime is not available on this device.');
      progress(null, 'creating the ONNX Runtime session');
      job.state.detector = await onnx.createOnnxDetector(job.state.file as string, {
        cacheDir: path.join(o.models.dir, '.engine-cache'),
      });
      return { detail: `session on ${detectorOf(job)!.info.executionProvider}` };
    },
    async prepareModel(job) {
      const d = detectorOf(job)!;
      return {
        detail: `input ${d.info.inputWidth}×${d.info.inputHeight}, ${d.info.classes.length} classes`,
        runtime: { inferenceUrl: `onnxruntime-node (${d.info.executionProvider})`, containerName: null },
      };
    },
    async warmUp(job, progress) {
      const d = detectorOf(job)!;
      progress(null, 'one frame through the model');
      const frame = allocI420(
        d.info.inputWidth - (d.info.inputWidth % 2),
        d.info.inputHeight - (d.info.inputHeight % 2),
      );
      frame.data.fill(128);
      const started = performance.now();
      await d.detect({ ...frame, format: 'i420' }, job.options.threshold);
      return { detail: `first inference ${Math.round(performance.now() - started)} ms` };
    },
    async open(job): Promise<FrameRunner> {
      const d = detectorOf(job);
      if (!d) throw new Error('The model was not built.');
      const wanted = new Set(effectiveClasses(job.options));
      return {
        needsPixels: true,
        async detect({ frame }) {
          const found = await d.detect({ ...frame, format: 'i420' }, job.options.threshold);
          return found
            .filter((f) => wanted.size === 0 || wanted.has(f.className))
            .map((f): Detection => ({
              class_id: f.classId,
              class_name: f.className,
              score: f.score,
              track_id: 0,
              box: [f.box.x, f.box.y, f.box.w, f.box.h],
            }));
        },
        close: () => void d.close().catch(() => undefined),
      };
    },
  };
}
