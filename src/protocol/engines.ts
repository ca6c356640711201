/**
 * Inference engines of a device (spec §3 "Live data per device: inferenceEngines, deepStream"; §7 "Engine and
 * images": check-inference-engine-exist; issue 10 "Engines"). The engine images themselves move with the
 * container feature's commands (§7 check-docker-image, docker-image, download-docker-image: containers.ts),
 * the GPU driver with get-gpu-driver-version (health.ts, §5 x86 only). Shapes are ours (§7 "Response shapes
 * of most device commands: not shown").
 *
 * Engines a device may have:
 * - `sim`: the simulated engine of a `sim` device (reports the synthetic scene's true boxes); always ready there.
 * - `onnxruntime`: ONNX Runtime inside the agent (`host` devices), with its execution providers (cpu; cuda and
 *   tensorrt where their libraries and a GPU are present).
 * - `deepstream`: NVIDIA DeepStream, from its engine image (DEEPSTREAM_IMAGE) or a native install
 *   (/opt/nvidia/deepstream); listed only on devices with an NVIDIA GPU (every Jetson; an x86 box where
 *   nvidia-smi answers; every simulated device, whose GPU is simulated).
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';
import { ImageRef } from './containers';

/** The DeepStream engine image (NGC, one multi-architecture tag for Jetson and x86). */
export const DEEPSTREAM_IMAGE = 'nvcr.io/nvidia/deepstream:7.1-triton-multiarch';

export const EngineName = z.enum(['sim', 'onnxruntime', 'deepstream']);
export type EngineName = z.infer<typeof EngineName>;

/**
 * - ready: the engine can run jobs now;
 * - not_installed: its image is not on the device (it can be downloaded: download-docker-image `image`);
 * - downloading: its image is being downloaded (download_percent);
 * - unavailable: it cannot run here now (`message` says why, e.g. no Docker engine answers).
 */
export const EngineState = z.enum(['ready', 'not_installed', 'downloading', 'unavailable']);
export type EngineState = z.infer<typeof EngineState>;

/** An ONNX Runtime execution provider ('cpu', 'cuda', 'tensorrt') and whether it loads on the device. */
export const ExecutionProviderProbe = z.object({
  name: z.string().max(40),
  available: z.boolean(),
  /** Why it does not load (the runtime's words), else null. */
  error: z.string().max(400).nullable(),
});
export type ExecutionProviderProbe = z.infer<typeof ExecutionProviderProbe>;

export const InferenceEngine = z.object({
  name: EngineName,
  state: EngineState,
  /** The engine's version when known (ONNX Runtime's, DeepStream's), else null. */
  version: z.string().max(100).nullable(),
  /** native: inside the agent or installed on the device; container: from an engine image; simulated. */
  runs_in: z.enum(['native', 'container', 'simulated']),
  /** The engine image for this device (container engines), else null. */
  image: ImageRef.nullable(),
  /** The image's download size in MB when known (the sim registry knows it), else null. */
  image_size_mb: z.number().min(0).nullable(),
  /** Percent of a running image download (state downloading), else null. */
  download_percent: z.number().min(0).max(100).nullable(),
  /** onnxruntime: every provider tried, in order of preference; [] for other engines. */
  execution_providers: z.array(ExecutionProviderProbe).max(8),
  /** The provider sessions run on (the first available), onnxruntime only; else null. */
  execution_provider: z.string().max(40).nullable(),
  /** Why the engine is unavailable, or a note; else null. */
  message: z.string().max(400).nullable(),
});
export type InferenceEngine = z.infer<typeof InferenceEngine>;

export const CheckInferenceEnginesReply = z.object({
  backend: z.enum(['host', 'sim']),
  /** Device kind (§9 chipset id 0 = x86). */
  kind: z.enum(['jetson', 'x86']),
  /** The device has an NVIDIA GPU (real or simulated). */
  gpu: z.boolean(),
  engines: z.array(InferenceEngine).max(8),
});
export type CheckInferenceEnginesReply = z.infer<typeof CheckInferenceEnginesReply>;

export const engineCommands = defineCommands({
  /** §7 check-inference-engine-exist: the device's inference engines and their state (§3 inferenceEngines). */
  'check-inference-engine-exist': { request: Empty, reply: CheckInferenceEnginesReply },
});
