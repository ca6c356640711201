/**
 * The device's software part (issue 16 §1 "Software"; §7 check-version-update, check-stream-engine-update,
 * the companion checks check-companion-update / check-companion-restart, get-download-upload-status; §4
 * client update with its error types; §9 update disk threshold 1GB): `host` does it for real on this machine
 * (host.ts), `sim` simulates the download and the install step (sim.ts) behind the same interface.
 *
 * Versions: `host` runs the release its `<stateDir>/current` pointer names (else package.json's version);
 * `sim` keeps its version in `<stateDir>/software-state.json`. An installed release waits for
 * `restart()`; the device then comes back running it.
 * Errors are CommandErrors with UPDATE_ERROR_CODES: notEnoughStorage (free disk < UPDATE_MIN_FREE_BYTES,
 * checked before downloading), downloadError (fetch failed, sha256 mismatch), other (no server, no release,
 * an update already running, an install failure, nothing to restart).
 */
import { agentVersion } from '../version';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import {
  AgentRelease,
  compareVersions,
  UPDATE_ERROR_CODES,
  UPDATE_MIN_FREE_BYTES,
  type ComponentCheck,
  type UpdateStatus,
  type VersionCheck,
} from '../../protocol/software';
import { CommandError } from '../commands/errors';
import { errorMessage } from '../log';
import type { AgentPartDeps } from '../parts';
import { SIM_DEFAULT_TIMINGS, SIM_POWER_DRY_RUN_ENV } from '../power';
import {
  currentLink,
  currentRelease,
  dockerComponentCheck,
  download,
  DownloadError,
  freeBytes,
  installBundle,
  InstallError,
  releasesDir,
  restartInto,
} from './host';
import { readSimKnobs, SIM_BUNDLE_BYTES, SIM_DOWNLOAD_STEPS, simComponentCheck } from './sim';

export { SIM_KNOBS_FILE } from './sim';

/** The component checks of §7 ("further update and restart checks for the companion service"). */
export type ComponentCheckKind = 'stream-engine' | 'companion-update' | 'companion-restart';

/** Between restart-client-update's reply and the restart, ms (the reply must leave first). */
export const RESTART_ACT_DELAY_MS = 300;
/** The sim's state file (running and installed versions). */
export const SIM_STATE_FILE = 'software-state.json';

/** How the part reaches the server: REST origin and device token. */
export interface ServerLink {
  url: string;
  token: string;
}

export interface DeviceSoftware {
  /** The version the device runs now. */
  currentVersion(): string;
  /** check-version-update: the newest release on the server against the running version. */
  checkVersion(): Promise<VersionCheck>;
  /** check-stream-engine-update, check-companion-update, check-companion-restart. */
  checkComponent(kind: ComponentCheckKind): Promise<ComponentCheck>;
  /** get-download-upload-status: the update in flight or the last one. */
  status(): UpdateStatus;
  /**
   * update-client: installs `version` (default the newest release); `onProgress` gets every status change and
   * download step. Resolves once installed; CommandError notEnoughStorage / downloadError / other.
   */
  update(
    version: string | undefined,
    onProgress?: (status: UpdateStatus) => void,
  ): Promise<{ version: string }>;
  /** restart-client-update: restarts into the installed release (other when none is installed). */
  restart(): Promise<{ restarting: true; version: string; offline_ms: number | null }>;
  /** Stops what the part runs (a simulated download, a pending restart); idempotent. */
  close(): Promise<void>;
}

/** Replacements for tests. */
export interface DeviceSoftwareOptions {
  env?: NodeJS.ProcessEnv;
  server?: ServerLink;
  fetch?: typeof fetch;
  /** host: free bytes (default statfs of the state directory). */
  freeBytes?: () => Promise<number>;
  /** host: restarts the process into `script` (default restartInto: spawn + SIGTERM). */
  restartSelf?: (script: string | null) => void;
  /** host: the component checks' program runner (default: the real docker CLI). */
  runner?: (cmd: string, args: string[]) => Promise<string | null>;
  /** The version without any installed release (default package.json's). */
  baseVersion?: string;
}

const fail = (code: string, message: string) => new CommandError(code, message);
const other = (message: string) => fail(UPDATE_ERROR_CODES.other, message);
const BUSY = new Set<UpdateStatus['state']>([
  'checking',
  'downloading',
  'verifying',
  'installing',
  'restarting',
]);
const gib = (n: number) => `${(n / 1024 ** 3).toFixed(2)} GB`;

export function createDeviceSoftware(
  deps: AgentPartDeps,
  options: DeviceSoftwareOptions = {},
): DeviceSoftware {
  const env = options.env ?? process.env;
  const host = deps.mode === 'host';
  const server = options.server ?? (deps as AgentPartDeps & { server?: ServerLink }).server;
  const doFetch = options.fetch ?? fetch;
  const base = options.baseVersion ?? agentVersion();
  const timers = new Set<NodeJS.Timeout>();
  const abort = new AbortController();
  let closed = false;

  // The running version and the one installed for the next restart.
  let running = base;
  let installed: { version: string; entry: string | null } | null = null;
  let status: UpdateStatus = {
    state: 'idle',
    version: null,
    bytes_done: 0,
    bytes_total: 0,
    error: null,
    updated_at: Date.now(),
  };

  const simStateFile = path.join(deps.stateDir, SIM_STATE_FILE);
  const ready = (async () => {
    if (host) {
      running = (await currentRelease(deps.stateDir))?.version ?? base;
      return;
    }
    try {
      const raw = JSON.parse(await readFile(simStateFile, 'utf8')) as { running?: unknown };
      if (typeof raw.running === 'string') running = raw.running;
    } catch {
      // a sim device that never updated runs the base version
    }
  })();

  const set = (patch: Partial<UpdateStatus>, onProgress?: (s: UpdateStatus) => void) => {
    status = { ...status, ...patch, updated_at: Date.now() };
    onProgress?.(status);
  };

  async function fetchJson<T>(route: string, schema: z.ZodType<T>): Promise<T> {
    if (!server) throw other('This device does not know its server, so it cannot look for updates.');
    let res: Response;
    try {
      res = await doFetch(new URL(route, server.url), {
        headers: { Authorization: `Token ${server.token}`, Accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw other(`The server could not be reached: ${errorMessage(err)}`);
    }
    if (!res.ok) throw other(`The server answered ${res.status} to ${route}`);
    const parsed = schema.safeParse(await res.json().catch(() => undefined));
    if (!parsed.success) throw other(`The server's answer to ${route} has an unexpected shape`);
    return parsed.data;
  }

  const latestRelease = () =>
    fetchJson('/api/agent-releases/latest', z.object({ release: AgentRelease.nullable() })).then(
      (a) => a.release,
    );

  async function releaseFor(version: string | undefined): Promise<AgentRelease> {
    if (version === undefined) {
      const latest = await latestRelease();
      if (!latest) throw other('The server publishes no client release.');
      return latest;
    }
    const all = await fetchJson('/api/agent-releases', z.object({ releases: z.array(AgentRelease) }));
    const found = all.releases.find((r) => r.version === version);
    if (!found) throw other(`The server publishes no client release ${version}.`);
    return found;
  }

  // Simulated waits; close() ends them at once (the simulated update then stops with `other`).
  const sleepers = new Set<() => void>();
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(t);
        timers.delete(t);
        sleepers.delete(wake);
        resolve();
      };
      const t = setTimeout(wake, ms);
      timers.add(t);
      sleepers.add(wake);
    });

  async function hostDownloadInstall(release: AgentRelease, onProgress?: (s: UpdateStatus) => void) {
    const dir = releasesDir(deps.stateDir);
    await mkdir(dir, { recursive: true, mode: 0o700 });
    const file = path.join(dir, `.download-${release.version}.tar.gz`);
    let lastReport = 0;
    try {
      const got = await download(
        new URL(`/api/agent-releases/${encodeURIComponent(release.version)}/bundle`, server!.url).href,
        { Authorization: `Token ${server!.token}` },
        file,
        (done, total) => {
          const now = Date.now();
          if (now - lastReport < 200 && done < (total || release.size)) return;
          lastReport = now;
          set({ bytes_done: done, bytes_total: total || release.size }, onProgress);
        },
        { fetch: doFetch, signal: abort.signal },
      );
      set({ state: 'verifying', bytes_done: got.size }, onProgress);
      if (got.sha256 !== release.sha256 || got.size !== release.size) {
        throw new DownloadError(
          `The downloaded bundle does not match release ${release.version} (sha256 ${got.sha256.slice(0, 12)}…, expected ${release.sha256.slice(0, 12)}…)`,
        );
      }
      set({ state: 'installing' }, onProgress);
      const manifest = await installBundle(deps.stateDir, release.version, file);
      return manifest.entry ? path.join(currentLink(deps.stateDir), manifest.entry) : null;
    } finally {
      await rm(file, { force: true });
    }
  }

  async function simDownloadInstall(release: AgentRelease, onProgress?: (s: UpdateStatus) => void) {
    const knobs = await readSimKnobs(deps.stateDir, env);
    const total = Math.max(release.size, SIM_BUNDLE_BYTES);
    set({ bytes_total: total }, onProgress);
    for (let step = 1; step <= SIM_DOWNLOAD_STEPS; step++) {
      await sleep(knobs.downloadMs / SIM_DOWNLOAD_STEPS);
      if (closed) throw other('The device is shutting down.');
      if (knobs.failDownload && step === Math.ceil(SIM_DOWNLOAD_STEPS / 2)) {
        throw new DownloadError('The simulated download broke off (fail_download knob).');
      }
      set({ bytes_done: Math.round((total * step) / SIM_DOWNLOAD_STEPS) }, onProgress);
    }
    set({ state: 'verifying' }, onProgress);
    await sleep(knobs.downloadMs / SIM_DOWNLOAD_STEPS);
    set({ state: 'installing' }, onProgress);
    await sleep(knobs.downloadMs / SIM_DOWNLOAD_STEPS);
    if (closed) throw other('The device is shutting down.');
    return null;
  }

  return {
    currentVersion: () => running,

    async checkVersion() {
      await ready;
      const latest = await latestRelease();
      return {
        current: running,
        latest,
        update_available: !!latest && compareVersions(latest.version, running) > 0,
        installed: installed?.version ?? null,
      };
    },

    async checkComponent(kind) {
      if (!host)
        return simComponentCheck(kind === 'companion-update' ? 'companion-service' : kind, deps.backend.kind);
      if (kind === 'stream-engine') return dockerComponentCheck('stream-engine', options.runner);
      const check = await dockerComponentCheck('companion-service', options.runner);
      if (kind === 'companion-restart') {
        return {
          ...check,
          detail: check.restart_needed
            ? check.detail
            : check.running
              ? 'The companion service runs its newest image; no restart is needed.'
              : check.installed === null
                ? check.detail
                : 'The companion service is not running.',
        };
      }
      return check;
    },

    status: () => status,

    async update(version, onProgress) {
      await ready;
      if (BUSY.has(status.state)) throw other('An update is already running on this device.');
      set(
        { state: 'checking', version: version ?? null, bytes_done: 0, bytes_total: 0, error: null },
        onProgress,
      );
      try {
        const release = await releaseFor(version);
        set({ version: release.version }, onProgress);
        if (compareVersions(release.version, running) === 0) {
          throw other(`The device already runs ${release.version}.`);
        }
        // §9 "Update disk threshold 1GB", BEFORE downloading.
        const free = host
          ? await (options.freeBytes ?? (() => freeBytes(deps.stateDir)))()
          : (await readSimKnobs(deps.stateDir, env)).freeBytes;
        const needed = UPDATE_MIN_FREE_BYTES + release.size;
        if (free < needed) {
          throw fail(
            UPDATE_ERROR_CODES.notEnoughStorage,
            `Not enough storage: ${gib(free)} free, the update needs at least ${gib(needed)}.`,
          );
        }
        set({ state: 'downloading', bytes_total: release.size }, onProgress);
        const entry = host
          ? await hostDownloadInstall(release, onProgress)
          : await simDownloadInstall(release, onProgress);
        installed = { version: release.version, entry };
        set({ state: 'installed', bytes_done: status.bytes_total }, onProgress);
        deps.log.info(`software: release ${release.version} installed; it runs after the restart`);
        return { version: release.version };
      } catch (err) {
        const error =
          err instanceof CommandError
            ? err
            : err instanceof DownloadError
              ? fail(UPDATE_ERROR_CODES.downloadError, err.message)
              : err instanceof InstallError
                ? other(err.message)
                : other(`The update failed: ${errorMessage(err)}`);
        set({ state: 'failed', error: { code: error.code, message: error.message } }, onProgress);
        deps.log.warn(`software: update failed (${error.code}): ${error.message}`);
        throw error;
      }
    },

    async restart() {
      if (!installed) throw other('No installed update waits for a restart.');
      if (status.state === 'restarting') throw other('The client is already restarting.');
      const target = installed;
      set({ state: 'restarting' });
      const act = (fn: () => void) => {
        const t = setTimeout(() => {
          timers.delete(t);
          if (!closed) fn();
        }, RESTART_ACT_DELAY_MS);
        timers.add(t);
      };
      if (host) {
        deps.log.info(`software: restarting into ${target.version}`);
        act(() => (options.restartSelf ?? restartInto)(target.entry));
        return { restarting: true, version: target.version, offline_ms: null };
      }
      const ms =
        Number(env.EDGE_SIM_RESTART_MS) >= 0
          ? Number(env.EDGE_SIM_RESTART_MS)
          : SIM_DEFAULT_TIMINGS.EDGE_SIM_RESTART_MS;
      running = target.version;
      installed = null;
      await writeFile(simStateFile, `${JSON.stringify({ running })}\n`);
      if (env[SIM_POWER_DRY_RUN_ENV] === '1') {
        // Hostile-input runs keep their link (as the power part): the new version runs at once.
        set({ state: 'idle', bytes_done: 0, bytes_total: 0 });
        return { restarting: true, version: target.version, offline_ms: 0 };
      }
      deps.log.info(`sim software: restarting into ${target.version}, off the air for ${ms} ms`);
      act(() => {
        void (deps.lifecycle?.goOffline(ms) ?? Promise.resolve()).then(() =>
          set({ state: 'idle', bytes_done: 0, bytes_total: 0 }),
        );
      });
      return { restarting: true, version: target.version, offline_ms: ms };
    },

    async close() {
      closed = true;
      abort.abort();
      for (const wake of [...sleepers]) wake();
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
