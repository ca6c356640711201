/**
 * The device's inference engines (spec §3 inferenceEngines / deepStream; §7 check-inference-engine-exist;
 * issue 10 "Engines"): which engines this device has and their state, read from what is really there:
 * - `sim` backend: the simulated engine (always ready) and DeepStream from the sim container engine's images;
 * - `host` backend: ONNX Runtime inside the agent with the execution providers that really load here
 *   (src/agent/inference/onnx/providers.ts, probed once per process), and DeepStream where the device has an
 *   NVIDIA GPU — native (/opt/nvidia/deepstream/deepstream/version) or its image in the Docker engine.
 * Engine images are pulled with the container feature's download-docker-image (the same engine and process
 * tracker: a download shows as `downloading` here with its percent, also after a console reload).
 */
import { readFile } from 'node:fs/promises';
import { DEEPSTREAM_IMAGE } from '../../protocol/engines';
import type { CheckInferenceEnginesReply, InferenceEngine } from '../../protocol/engines';
import type { Backend } from '../backends/types';
import type { ContainerEngine } from '../containers/engine';
import { ContainerEngineError } from '../containers/engine';
import type { ProcessTracker } from '../containers/processes';
import { findSimImage } from '../containers/simRegistry';
import { errorMessage } from '../log';

/** Where a native DeepStream install writes its version ("Version: 7.1"). */
export const DEEPSTREAM_VERSION_FILE = '/opt/nvidia/deepstream/deepstream/version';

export interface EngineCheckDeps {
  backend: Pick<Backend, 'name' | 'kind' | 'systemInformation'>;
  containers: ContainerEngine;
  dockerProcesses: Pick<ProcessTracker, 'list'>;
  /** The agent's version (the sim engine's version). */
  version: string;
  /** Reads DeepStream's native version file; tests replace it. Default: DEEPSTREAM_VERSION_FILE. */
  readDeepStreamVersion?: () => Promise<string | null>;
  /** Probes ONNX Runtime's providers; tests replace it. Default: the real probe (host only). */
  probeOnnx?: () => Promise<{
    version: string;
    providers: { name: string; available: boolean; error: string | null }[];
  }>;
}

const cut = (s: string) => s.slice(0, 400);

async function nativeDeepStreamVersion(): Promise<string | null> {
  try {
    const text = await readFile(DEEPSTREAM_VERSION_FILE, 'utf8');
    return /Version:\s*([\w.-]+)/.exec(text)?.[1] ?? (text.trim().slice(0, 100) || null);
  } catch {
    return null;
  }
}

async function realOnnxProbe() {
  // Loaded only on `host`: a simulated device does not load ONNX Runtime.
  const { ORT_VERSION, probeExecutionProviders } = await import('../inference/onnx/providers');
  return { version: ORT_VERSION, providers: await probeExecutionProviders() };
}

const base = {
  version: null,
  image: null,
  image_size_mb: null,
  download_percent: null,
  execution_providers: [],
  execution_provider: null,
  message: null,
} satisfies Partial<InferenceEngine>;

/** The DeepStream entry: native install, else its image in the container engine (present, downloading, missing). */
async function deepStream(deps: EngineCheckDeps, simulated: boolean): Promise<InferenceEngine> {
  const entry: InferenceEngine = {
    ...base,
    name: 'deepstream',
    state: 'not_installed',
    runs_in: 'container',
    image: DEEPSTREAM_IMAGE,
    image_size_mb: simulated ? (findSimImage(DEEPSTREAM_IMAGE)?.tag.size_mb ?? null) : null,
  };
  if (!simulated) {
    const native = await (deps.readDeepStreamVersion ?? nativeDeepStreamVersion)();
    if (native) return { ...entry, state: 'ready', runs_in: 'native', image: null, version: native };
  }
  const running = deps.dockerProcesses
    .list()
    .find((p) => p.action === 'download' && p.docker === DEEPSTREAM_IMAGE && p.ended === null);
  if (running) return { ...entry, state: 'downloading', download_percent: running.percent ?? 0 };
  try {
    const image = await deps.containers.inspectImage(DEEPSTREAM_IMAGE);
    if (image) return { ...entry, state: 'ready', version: DEEPSTREAM_IMAGE.split(':')[1]!.split('-')[0]! };
    return entry;
  } catch (err) {
    const message = err instanceof ContainerEngineError ? err.message : errorMessage(err);
    return { ...entry, state: 'unavailable', message: cut(message) };
  }
}

/** §7 check-inference-engine-exist: this device's engines (see the module comment). Never rejects. */
export async function checkInferenceEngines(deps: EngineCheckDeps): Promise<CheckInferenceEnginesReply> {
  const { backend } = deps;
  const simulated = backend.name === 'sim';
  let gpu = simulated || backend.kind === 'jetson';
  if (!gpu) {
    gpu = await backend
      .systemInformation()
      .then((s) => s.gpus.length > 0)
      .catch(() => false);
  }
  const engines: InferenceEngine[] = [];
  if (simulated) {
    engines.push({ ...base, name: 'sim', state: 'ready', runs_in: 'simulated', version: deps.version });
  } else {
    try {
      const { version, providers } = await (deps.probeOnnx ?? realOnnxProbe)();
      const first = providers.find((p) => p.available)?.name ?? null;
      engines.push({
        ...base,
        name: 'onnxruntime',
        state: first ? 'ready' : 'unavailable',
        runs_in: 'native',
        version,
        execution_providers: providers.map((p) => ({ ...p, error: p.error ? cut(p.error) : null })),
        execution_provider: first,
        message: first ? null : 'No execution provider loads on this device',
      });
    } catch (err) {
      engines.push({
        ...base,
        name: 'onnxruntime',
        state: 'unavailable',
        runs_in: 'native',
        message: cut(`ONNX Runtime could not be loaded: ${errorMessage(err)}`),
      });
    }
  }
  if (gpu) engines.push(await deepStream(deps, simulated));
  return { backend: backend.name, kind: backend.kind, gpu, engines };
}
