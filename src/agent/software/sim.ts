/**
 * The `sim` software part's knobs and simulated components (issue 16 §1 "Software": `sim` simulates the
 * download and the install step only).
 *
 * Knobs, read at every update from `<stateDir>/software-sim.json` (a test or an operator writes it; absent →
 * defaults), else the environment:
 *   { "free_bytes": number }     simulated free disk, bytes (env EDGE_SIM_FREE_DISK_BYTES; default 25 GiB);
 *                                under UPDATE_MIN_FREE_BYTES an update is refused with notEnoughStorage
 *   { "fail_download": true }    the simulated download fails (downloadError)
 *   { "download_ms": number }    how long the simulated download takes (env EDGE_SIM_UPDATE_MS; default 4000)
 * The sim's running and installed versions live in `<stateDir>/software-state.json` (kept across restarts).
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { ComponentCheck } from '../../protocol/software';

export const SIM_KNOBS_FILE = 'software-sim.json';
export const SIM_FREE_DISK_ENV = 'EDGE_SIM_FREE_DISK_BYTES';
export const SIM_UPDATE_MS_ENV = 'EDGE_SIM_UPDATE_MS';
export const SIM_DEFAULT_FREE_BYTES = 25 * 1024 ** 3;
export const SIM_DEFAULT_DOWNLOAD_MS = 4_000;
/** The size of the client package a sim device pretends to download, bytes (48 MiB). */
export const SIM_BUNDLE_BYTES = 48 * 1024 ** 2;
/** Progress steps of the simulated download. */
export const SIM_DOWNLOAD_STEPS = 16;

export interface SimKnobs {
  freeBytes: number;
  failDownload: boolean;
  downloadMs: number;
}

const num = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isFinite(n) && n >= 0 ? n : null;
};

/** The knobs now (file, then environment, then defaults). */
export async function readSimKnobs(stateDir: string, env: NodeJS.ProcessEnv): Promise<SimKnobs> {
  let file: Record<string, unknown> = {};
  try {
    const raw = JSON.parse(await readFile(path.join(stateDir, SIM_KNOBS_FILE), 'utf8')) as unknown;
    if (raw && typeof raw === 'object' && !Array.isArray(raw)) file = raw as Record<string, unknown>;
  } catch {
    // no knobs file: defaults
  }
  return {
    freeBytes: num(file.free_bytes) ?? num(env[SIM_FREE_DISK_ENV]) ?? SIM_DEFAULT_FREE_BYTES,
    failDownload: file.fail_download === true,
    downloadMs: num(file.download_ms) ?? num(env[SIM_UPDATE_MS_ENV]) ?? SIM_DEFAULT_DOWNLOAD_MS,
  };
}

/** The sim device's stream engine and companion service (its Storage tab shows the same images). */
export function simComponentCheck(
  component: ComponentCheck['component'] | 'companion-restart',
  kind: 'jetson' | 'x86',
): ComponentCheck {
  if (component === 'stream-engine') {
    const tag =
      kind === 'jetson'
        ? 'nvcr.io/nvidia/deepstream-l4t:6.3-triton-multiarch'
        : 'nvcr.io/nvidia/tritonserver:24.01-py3';
    return {
      component,
      installed: tag,
      latest: tag,
      update_available: false,
      running: true,
      restart_needed: false,
      detail: 'The stream engine is up to date.',
    };
  }
  return {
    component: 'companion-service',
    installed: 'eclipse-mosquitto:2.0',
    latest: 'eclipse-mosquitto:2.0',
    update_available: false,
    running: true,
    restart_needed: false,
    detail:
      component === 'companion-restart'
        ? 'The companion service runs its newest image; no restart is needed.'
        : 'The companion service is up to date.',
  };
}
