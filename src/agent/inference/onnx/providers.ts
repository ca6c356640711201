/**
 * ONNX Runtime execution providers (issue 10 "the execution provider reported (CPU here; CUDA/TensorRT where
 * present; an engine cache kept between runs)"). onnxruntime-node ships the CPU provider for every platform;
 * on linux/x64 its binding can load the CUDA and TensorRT providers when their libraries are installed beside
 * it (`ONNXRUNTIME_NODE_INSTALL=cuda12 npm rebuild onnxruntime-node`, which downloads them from NuGet — this
 * repository's .npmrc skips that download by default) and a GPU with its driver is present. Whether a provider
 * works is found out the only reliable way: by creating a session of a one-node model with it.
 */
import { existsSync, mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { identityModel } from './graph';

/** The version of ONNX Runtime the agent runs. */
export const ORT_VERSION: string = ort.env.versions.node ?? ort.env.versions.common;

/** Providers in order of preference (fastest first); 'cpu' is always last and always works. */
export function defaultExecutionProviders(): string[] {
  return process.platform === 'linux' && process.arch === 'x64' ? ['tensorrt', 'cuda', 'cpu'] : ['cpu'];
}

/** A provider and whether it loads here; `error`: why not (the runtime's words). */
export interface ProviderProbe {
  name: string;
  available: boolean;
  error: string | null;
}

/**
 * Points TensorRT's engine cache at `cacheDir` (created): ONNX Runtime's TensorRT provider reads
 * ORT_TENSORRT_ENGINE_CACHE_ENABLE / ORT_TENSORRT_CACHE_PATH when no TensorRT options are given, which is how
 * the Node binding creates it (it passes only the device id). Built engines then survive restarts instead of
 * being rebuilt (minutes on a Jetson). No effect on other providers: CPU and CUDA keep no engine cache.
 */
export function enableTensorRtCache(cacheDir: string): void {
  mkdirSync(cacheDir, { recursive: true });
  process.env.ORT_TENSORRT_ENGINE_CACHE_ENABLE = '1';
  process.env.ORT_TENSORRT_CACHE_PATH = cacheDir;
}

/**
 * Why `name` cannot load here without trying (ONNX Runtime logs a load failure as an error on stderr): a GPU
 * provider whose shared library is not installed beside the binding. null: worth trying.
 */
export function providerLibraryMissing(name: string): string | null {
  if (name !== 'cuda' && name !== 'tensorrt') return null;
  let dir: string;
  try {
    const entry = createRequire(import.meta.url).resolve('onnxruntime-node');
    dir = path.join(path.dirname(entry), '..', 'bin', 'napi-v6', process.platform, process.arch);
  } catch {
    return null;
  }
  const lib = `libonnxruntime_providers_${name}.so`;
  return existsSync(path.join(dir, lib))
    ? null
    : `${lib} is not installed (ONNXRUNTIME_NODE_INSTALL=cuda12 npm rebuild onnxruntime-node installs it)`;
}

const errorText = (err: unknown) =>
  (err instanceof Error ? err.message : String(err)).split('\n')[0]!.slice(0, 300);

let probed: Promise<ProviderProbe[]> | null = null;

/**
 * Which of `defaultExecutionProviders()` load on this machine (probed once per process: a session of a
 * one-node model per provider). Never rejects.
 */
export function probeExecutionProviders(): Promise<ProviderProbe[]> {
  probed ??= (async () => {
    const model = identityModel();
    const out: ProviderProbe[] = [];
    for (const name of defaultExecutionProviders()) {
      const missing = providerLibraryMissing(name);
      if (missing) {
        out.push({ name, available: false, error: missing });
        continue;
      }
      try {
        const session = await ort.InferenceSession.create(model, {
          executionProviders: [name],
          logSeverityLevel: 4,
        });
        await session.release();
        out.push({ name, available: true, error: null });
      } catch (err) {
        out.push({ name, available: false, error: errorText(err) });
      }
    }
    return out;
  })();
  return probed;
}

/**
 * A session of `model` on the first of `providers` that loads, with the provider's name. Rejects with the last
 * provider's error when none does (a broken model fails on 'cpu' too).
 */
export async function createSession(
  model: Uint8Array,
  providers: readonly string[],
  options: { cacheDir?: string } = {},
): Promise<{ session: ort.InferenceSession; executionProvider: string }> {
  if (providers.length === 0) throw new Error('No execution provider to try');
  let last: unknown = null;
  for (const name of providers) {
    const missing = providerLibraryMissing(name);
    if (missing) {
      last = new Error(missing);
      continue;
    }
    if (name === 'tensorrt' && options.cacheDir) enableTensorRtCache(options.cacheDir);
    try {
      const session = await ort.InferenceSession.create(model, {
        executionProviders: [name],
        graphOptimizationLevel: 'all',
        logSeverityLevel: name === providers[providers.length - 1] ? 2 : 4,
      });
      return { session, executionProvider: name };
    } catch (err) {
      last = err;
    }
  }
  throw last instanceof Error ? last : new Error(String(last));
}
