/**
 * The device's models part (issue 9 "Deploy a model version to a device"; §7 get-download-upload-status):
 * downloads model versions from the server with the device token, resumable with HTTP Range, checks size and
 * sha256, and installs them in `<stateDir>/models/<model id>/v<version>/<file name>` beside a `model.json`
 * (InstalledModel). `host` and `sim` do the same real work (the server is reachable on loopback under
 * `npm start`); a sim device only paces its download (`EDGE_SIM_MODEL_BPS` bytes per second, default 1 MiB/s)
 * so that progress can be watched.
 *
 * A deploy: GET device/model-deployments/:id (what to fetch) → GET the file (Range from the partial file's
 * size, `<stateDir>/models/.partial/<deployment id>.part`; a broken stream is resumed up to DOWNLOAD_ATTEMPTS
 * times) → size and sha256 checked → renamed into place. Every state and, at most every
 * DEPLOY_REPORT_INTERVAL_MS, the bytes are reported to the server (POST …/status) and to `onProgress`.
 * Refusals are CommandErrors with DEPLOY_ERROR_CODES.
 */
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DEPLOY_ERROR_CODES as E,
  DEPLOY_REPORT_INTERVAL_MS,
  DeployDescriptor,
  InstalledModel,
  MODEL_ID_PATTERN,
  type DeployState,
  type ModelDownload,
} from '../../protocol/models';
import { CommandError } from '../commands/errors';
import { errorMessage } from '../log';
import type { AgentPartDeps } from '../parts';

/** How often a broken download is resumed before it fails. */
export const DOWNLOAD_ATTEMPTS = 3;
/** Finished downloads get-download-upload-status keeps listing. */
const KEEP_FINISHED = 20;
/** Sim download pace, bytes per second (EDGE_SIM_MODEL_BPS). */
export const SIM_MODEL_BPS_ENV = 'EDGE_SIM_MODEL_BPS';
const SIM_DEFAULT_BPS = 1024 * 1024;

export interface DeviceModels {
  /** models-deploy: downloads, checks and installs a deployment; resolves once installed. */
  deploy(deploymentId: string, onProgress?: (d: ModelDownload) => void): Promise<InstalledModel>;
  /** models-cancel-download: false when that download is not in flight. */
  cancel(deploymentId: string): boolean;
  /** models-installed: newest first. */
  installed(): Promise<InstalledModel[]>;
  /** models-remove: false when not installed. */
  remove(modelId: string, version: number): Promise<boolean>;
  /** get-download-upload-status `downloads`: in flight and the last finished ones, newest first. */
  downloads(): ModelDownload[];
  /** The directory models are installed in. */
  readonly dir: string;
  close(): Promise<void>;
}

/** Where an installed model version's file is: `<dir>/<model_id>/v<version>/<file_name>`. */
export const installedModelFile = (dir: string, m: InstalledModel): string =>
  path.join(dir, m.model_id, `v${m.version}`, m.file_name);

/** A safe file name for the device's disk (no directories, no leading dot). */
const safeName = (name: string) =>
  path
    .basename(name)
    .replace(/[^\w.+-]/g, '_')
    .replace(/^\.+/, '_') || 'model.bin';

export function createDeviceModels(
  deps: AgentPartDeps,
  options: { fetch?: typeof fetch } = {},
): DeviceModels {
  const dir = path.join(deps.stateDir, 'models');
  const partialDir = path.join(dir, '.partial');
  const doFetch = options.fetch ?? fetch;
  const bps =
    deps.mode === 'sim'
      ? Number(process.env[SIM_MODEL_BPS_ENV] ?? '') || SIM_DEFAULT_BPS
      : Number.POSITIVE_INFINITY;
  const downloads = new Map<string, ModelDownload>();
  const controllers = new Map<string, AbortController>();
  let closed = false;

  const server = () => {
    if (!deps.server) throw new CommandError(E.other, 'This device has no server to download from.');
    return deps.server;
  };
  const url = (p: string) =>
    new URL(p.replace(/^\//, ''), server().url.endsWith('/') ? server().url : `${server().url}/`);
  const auth = () => ({ Authorization: `Token ${server().token}` });

  async function report(d: ModelDownload): Promise<void> {
    try {
      const res = await doFetch(url(`/api/device/model-deployments/${d.deployment_id}/status`), {
        method: 'POST',
        headers: { ...auth(), 'Content-Type': 'application/json' },
        body: JSON.stringify({
          state: d.state,
          bytes_done: d.bytes_done,
          bytes_total: d.bytes_total,
          error: d.error ? { code: d.error.code, message: d.error.message.slice(0, 1000) } : null,
        }),
        signal: AbortSignal.timeout(10_000),
      });
      if (!res.ok) deps.log.warn(`model deployment report answered ${res.status}`);
    } catch (err) {
      deps.log.warn(`model deployment report failed: ${errorMessage(err)}`);
    }
  }

  function trim(): void {
    const finished = [...downloads.values()].filter((d) => !controllers.has(d.deployment_id));
    finished.sort((a, b) => a.updated_at - b.updated_at);
    while (finished.length > KEEP_FINISHED) downloads.delete(finished.shift()!.deployment_id);
  }

  async function fetchDescriptor(deploymentId: string): Promise<DeployDescriptor> {
    let res: Response;
    try {
      res = await doFetch(url(`/api/device/model-deployments/${deploymentId}`), {
        headers: { ...auth(), Accept: 'application/json' },
        signal: AbortSignal.timeout(10_000),
      });
    } catch (err) {
      throw new CommandError(E.downloadError, `The server could not be reached: ${errorMessage(err)}`);
    }
    if (res.status === 404)
      throw new CommandError(E.other, 'The server knows no such deployment for this device.');
    if (!res.ok) throw new CommandError(E.downloadError, `The server answered ${res.status}.`);
    const parsed = DeployDescriptor.safeParse(await res.json().catch(() => null));
    if (!parsed.success || !MODEL_ID_PATTERN.test(parsed.data.model_id)) {
      throw new CommandError(E.other, 'The server sent a deployment of the wrong shape.');
    }
    return parsed.data;
  }

  /** sha256 of a file's first bytes (a partial download), with its size. */
  async function hashPartial(file: string, hash: ReturnType<typeof createHash>): Promise<number> {
    const info = await stat(file).catch(() => null);
    if (!info) return 0;
    for await (const chunk of createReadStream(file) as AsyncIterable<Buffer>) hash.update(chunk);
    return info.size;
  }

  /** One download attempt from `offset`; resolves with the bytes on disk. */
  async function attempt(
    desc: DeployDescriptor,
    part: string,
    hash: ReturnType<typeof createHash>,
    offset: number,
    signal: AbortSignal,
    onBytes: (done: number) => void,
  ): Promise<number> {
    const headers: Record<string, string> = { ...auth() };
    if (offset > 0) headers.Range = `bytes=${offset}-`;
    const res = await doFetch(url(desc.file_path), { headers, signal });
    if (res.status === 416 && offset === desc.size) return offset; // everything is here already
    if (!(res.status === 200 || res.status === 206) || !res.body) {
      throw new CommandError(E.downloadError, `The server answered ${res.status} to the download.`);
    }
    if (res.status === 200 && offset > 0) {
      // The server ignored the Range: start over.
      await res.body.cancel().catch(() => undefined);
      await rm(part, { force: true });
      throw new RestartError();
    }
    let done = offset;
    const started = Date.now();
    let sent = 0;
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
      async function* (src: AsyncIterable<Buffer>) {
        for await (const chunk of src) {
          if (done + chunk.length > desc.size)
            throw new CommandError(E.checksumMismatch, 'The file is larger than announced.');
          hash.update(chunk);
          done += chunk.length;
          sent += chunk.length;
          onBytes(done);
          if (Number.isFinite(bps)) {
            const ahead = (sent / bps) * 1000 - (Date.now() - started);
            if (ahead > 5) await new Promise((r) => setTimeout(r, ahead));
          }
          yield chunk;
        }
      },
      createWriteStream(part, { flags: offset > 0 ? 'a' : 'w', mode: 0o600 }),
      { signal },
    );
    return done;
  }

  async function deploy(
    deploymentId: string,
    onProgress?: (d: ModelDownload) => void,
  ): Promise<InstalledModel> {
    if (closed) throw new CommandError(E.other, 'The agent is stopping.');
    if (controllers.has(deploymentId))
      throw new CommandError(E.other, 'This model is being downloaded already.');
    const controller = new AbortController();
    controllers.set(deploymentId, controller);
    const status: ModelDownload = {
      deployment_id: deploymentId,
      model_id: '',
      model_name: '',
      version: 0,
      state: 'queued',
      bytes_done: 0,
      bytes_total: 0,
      error: null,
      updated_at: Date.now(),
    };
    downloads.set(deploymentId, status);
    // Reports go one at a time, newest wins (each carries the whole state): the server never sees them out of order.
    let pending: ModelDownload | null = null;
    let sending: Promise<void> | null = null;
    const send = (d: ModelDownload): Promise<void> => {
      pending = d;
      sending ??= (async () => {
        while (pending) {
          const next: ModelDownload = pending;
          pending = null;
          await report(next);
        }
        sending = null;
      })();
      return sending;
    };
    let lastSent = 0;
    const emit = (patch: Partial<ModelDownload>, force: boolean) => {
      Object.assign(status, patch, { updated_at: Date.now() });
      if (!force && status.updated_at - lastSent < DEPLOY_REPORT_INTERVAL_MS) return;
      lastSent = status.updated_at;
      onProgress?.({ ...status });
      void send({ ...status });
    };
    const setState = (state: DeployState, patch: Partial<ModelDownload> = {}) =>
      emit({ ...patch, state }, true);
    try {
      const desc = await fetchDescriptor(deploymentId);
      setState('downloading', {
        model_id: desc.model_id,
        model_name: desc.model_name,
        version: desc.version,
        bytes_total: desc.size,
      });
      await mkdir(partialDir, { recursive: true });
      const part = path.join(partialDir, `${deploymentId}.part`);
      let hash = createHash('sha256');
      let done = await hashPartial(part, hash);
      if (done > desc.size) {
        await rm(part, { force: true });
        hash = createHash('sha256');
        done = 0;
      }
      for (let i = 1; done < desc.size; i++) {
        try {
          done = await attempt(desc, part, hash, done, controller.signal, (n) =>
            emit({ bytes_done: n }, false),
          );
        } catch (err) {
          if (controller.signal.aborted) throw new CommandError('canceled', 'The download was canceled.');
          if (err instanceof RestartError) {
            hash = createHash('sha256');
            done = 0;
            continue;
          }
          if (err instanceof CommandError && err.code !== E.downloadError) throw err;
          if (i >= DOWNLOAD_ATTEMPTS) {
            throw err instanceof CommandError
              ? err
              : new CommandError(E.downloadError, `The download broke off: ${errorMessage(err)}`);
          }
          hash = createHash('sha256');
          done = await hashPartial(part, hash);
        }
      }
      setState('verifying', { bytes_done: done });
      const sha256 = hash.digest('hex');
      if (sha256 !== desc.sha256) {
        await rm(part, { force: true });
        throw new CommandError(
          E.checksumMismatch,
          `The file's SHA-256 ${sha256.slice(0, 12)}… differs from the model's.`,
        );
      }
      const target = path.join(dir, desc.model_id, `v${desc.version}`);
      await rm(target, { recursive: true, force: true });
      await mkdir(target, { recursive: true });
      const fileName = safeName(desc.file_name);
      await rename(part, path.join(target, fileName));
      const installed: InstalledModel = {
        model_id: desc.model_id,
        model_name: desc.model_name,
        task: desc.task,
        format: desc.format,
        version: desc.version,
        version_id: desc.version_id,
        file_name: fileName,
        size: desc.size,
        sha256,
        installed_at: Date.now(),
      };
      await writeFile(path.join(target, 'model.json'), `${JSON.stringify(installed, null, 2)}\n`);
      setState('installed', { bytes_done: desc.size });
      deps.log.info('model installed', { model: desc.model_id, version: desc.version });
      return installed;
    } catch (err) {
      const e =
        err instanceof CommandError
          ? err
          : new CommandError(E.other, `The model could not be installed: ${errorMessage(err)}`);
      setState(e.code === 'canceled' ? 'canceled' : 'failed', {
        error: { code: e.code, message: e.message },
      });
      throw e;
    } finally {
      controllers.delete(deploymentId);
      trim();
      await sending; // the server knows the outcome before the caller does
    }
  }

  async function installed(): Promise<InstalledModel[]> {
    const out: InstalledModel[] = [];
    const modelDirs = await readdir(dir).catch(() => [] as string[]);
    for (const m of modelDirs) {
      if (!MODEL_ID_PATTERN.test(m)) continue;
      for (const v of await readdir(path.join(dir, m)).catch(() => [] as string[])) {
        try {
          const raw: unknown = JSON.parse(await readFile(path.join(dir, m, v, 'model.json'), 'utf8'));
          const parsed = InstalledModel.safeParse(raw);
          if (parsed.success) out.push(parsed.data);
        } catch {
          // not an installed version (a half-written one): left out
        }
      }
    }
    return out.sort((a, b) => b.installed_at - a.installed_at);
  }

  return {
    dir,
    deploy,
    cancel(deploymentId) {
      const c = controllers.get(deploymentId);
      c?.abort();
      return !!c;
    },
    installed,
    async remove(modelId, version) {
      if (!MODEL_ID_PATTERN.test(modelId)) return false;
      const target = path.join(dir, modelId, `v${version}`);
      const there = await stat(target).catch(() => null);
      if (!there) return false;
      await rm(target, { recursive: true, force: true });
      return true;
    },
    downloads: () =>
      [...downloads.values()].map((d) => ({ ...d })).sort((a, b) => b.updated_at - a.updated_at),
    async close() {
      closed = true;
      for (const c of controllers.values()) c.abort();
    },
  };
}

/** The server answered a Range request with the whole file: the download starts over. */
class RestartError extends Error {
  override name = 'RestartError';
}
