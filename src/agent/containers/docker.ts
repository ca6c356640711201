/**
 * The `host` container engine: the machine's Docker Engine over its API (unix socket or TCP), through
 * dockerode (spec §3 Container, Docker images; §4 Container action; §7 Containers / Engine and images).
 *
 * Choices:
 * - Containers are created with a TTY and open stdin (as `docker run -it`), so images whose command is a shell
 *   or a Python REPL stay up; Jupyter is started afterwards by startJupyter (docker exec).
 * - Jupyter's port is published on 127.0.0.1 only, on a free port Docker picks (HostPort ''); LocalPort is read
 *   back from the engine. Jupyter runs WITHOUT its own token or password: it is reachable only on the
 *   device's loopback interface and, from outside, only through the console's owner-only proxy
 *   (request_remote_device → tunnel → webTarget), which is where access is decided.
 * - GPU: on x86 with an NVIDIA GPU, HostConfig.DeviceRequests (driver nvidia, all GPUs, capability gpu, as
 *   `docker run --gpus all`); on Jetson, the nvidia runtime (HostConfig.Runtime 'nvidia').
 * - The labels ENV_LABEL (environment alias), JUPYTER_PORT_LABEL and GPU_LABEL mark containers made by the
 *   console; the engine keeps no other state except which containers it started Jupyter in.
 */
import http from 'node:http';
import Docker from 'dockerode';
import type { ContainerInfo } from 'dockerode';
import { ContainerState, remoteBasePath } from '../../protocol/containers';
import type { Container, DockerImage, LayerProgress } from '../../protocol/containers';
import { ContainerEngineError, ENV_LABEL, JUPYTER_PORT_LABEL, engineUnavailableMessage } from './engine';
import type { ContainerEngine, CreateContainerOptions, EngineDevice } from './engine';

/** Label 'true' on containers created with a GPU request (Container.Gpu). */
export const GPU_LABEL = 'edge-console.gpu';

/** How the device gives containers its GPU: x86 NVIDIA (DeviceRequests), Jetson (nvidia runtime), none. */
export type GpuMode = 'nvidia' | 'jetson' | null;

export interface DockerEngineOptions extends EngineDevice {
  /** Docker's unix socket (default /var/run/docker.sock) … */
  socketPath?: string;
  /** … or a TCP endpoint (DOCKER_HOST tcp://host:port, without TLS). */
  host?: string;
  port?: number;
  gpu: GpuMode;
  /** How long startJupyter waits for Jupyter to answer HTTP, ms (default 60 000). */
  jupyterTimeoutMs?: number;
  /** Grace period of a stop before Docker kills the container, s (default 10). */
  stopTimeoutS?: number;
}

type DockerError = Error & { statusCode?: number; code?: string; json?: unknown; reason?: string };

/** The engine's own words of an HTTP error (its JSON `message`), else the error's message. */
function engineWords(err: DockerError): string {
  const json = err.json as { message?: unknown } | null | undefined;
  if (json && typeof json === 'object' && typeof json.message === 'string') return json.message;
  if (typeof err.json === 'string' && err.json.trim()) return err.json.trim();
  // docker-modem's own text: "(HTTP code 404) unexpected - <cause> ".
  return err.message.replace(/^\(HTTP code \d+\) [^-]*- /, '').trim();
}

const UNREACHABLE = new Set([
  'ENOENT',
  'ECONNREFUSED',
  'EACCES',
  'EPERM',
  'ENOTFOUND',
  'EHOSTUNREACH',
  'ETIMEDOUT',
  'ECONNRESET',
]);

/** Maps a dockerode / socket failure to a ContainerEngineError. */
export function toEngineError(err: unknown, where: string): ContainerEngineError {
  if (err instanceof ContainerEngineError) return err;
  const e = (err instanceof Error ? err : new Error(String(err))) as DockerError;
  if (e.code && UNREACHABLE.has(e.code) && e.statusCode === undefined) {
    const hint = e.code === 'EACCES' ? ' (is the agent’s user in the docker group?)' : '';
    return new ContainerEngineError(
      'engine_unavailable',
      engineUnavailableMessage(where, `connect ${e.code}${hint}`),
    );
  }
  if (e.name === 'AbortError' || e.code === 'ABORT_ERR')
    return new ContainerEngineError('canceled', 'Canceled');
  const words = engineWords(e);
  if (e.statusCode === 404) return new ContainerEngineError('not_found', words);
  if (e.statusCode === 409) return new ContainerEngineError('conflict', words);
  return new ContainerEngineError('failed', words);
}

/** A pull's error line → not_found when the registry has no such image, else failed. */
function pullFailure(ref: string, words: string): ContainerEngineError {
  const missing = /manifest unknown|not found|does not exist|pull access denied|no matching manifest/i.test(
    words,
  );
  return new ContainerEngineError(missing ? 'not_found' : 'failed', `Docker could not pull ${ref}: ${words}`);
}

const num = (v: unknown): number => (typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : 0);

/**
 * Applies one Docker pull progress event to the per-layer map. Returns false for events that are not about
 * a layer ('Pulling from …', 'Digest: …', 'Status: …'). Phases without a size keep the layer's last total;
 * 'Download complete', 'Pull complete' and 'Already exists' count the layer as done.
 */
export function applyPullEvent(layers: Map<string, LayerProgress>, event: unknown): boolean {
  if (typeof event !== 'object' || event === null) return false;
  const { id, status, progressDetail } = event as {
    id?: unknown;
    status?: unknown;
    progressDetail?: unknown;
  };
  if (typeof id !== 'string' || typeof status !== 'string') return false;
  if (!/^[0-9a-f]{12,64}$/.test(id) || /^(Pulling from|Digest|Status)/.test(status)) return false;
  const detail = (typeof progressDetail === 'object' && progressDetail) || {};
  const prev = layers.get(id);
  let total = num((detail as { total?: unknown }).total);
  let current = num((detail as { current?: unknown }).current);
  if (total === 0 && prev) {
    total = prev.total;
    current = /complete|exists/i.test(status) ? total : prev.current;
  }
  layers.set(id, { id, status, current: Math.min(current, total || current), total });
  return true;
}

/**
 * Splits a Docker log buffer into text. Without a TTY, Docker multiplexes stdout and stderr in frames
 * (8-byte header: stream type, 3 zero bytes, big-endian payload length); with a TTY it is raw text.
 */
export function demuxDockerLog(buf: Buffer, tty: boolean): string {
  if (tty) return buf.toString('utf8');
  const parts: Buffer[] = [];
  let at = 0;
  while (at + 8 <= buf.length) {
    const size = buf.readUInt32BE(at + 4);
    parts.push(buf.subarray(at + 8, Math.min(buf.length, at + 8 + size)));
    at += 8 + size;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** The last `tail` lines of a log text (trailing newline and carriage returns dropped). */
export function lastLines(text: string, tail: number): string[] {
  const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines.slice(-tail);
}

/** Resolves when http://127.0.0.1:port/path answers at all (any status); false after `timeoutMs`. */
export function httpAnswers(port: number, path: string, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path, timeout: timeoutMs }, (res) => {
      res.resume();
      resolve(true);
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(false));
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Creates the Docker Engine adapter. Nothing is contacted until the first call. */
export function createDockerEngine(options: DockerEngineOptions): ContainerEngine {
  const where =
    options.host !== undefined
      ? `tcp://${options.host}:${options.port ?? 2375}`
      : (options.socketPath ?? '/var/run/docker.sock');
  const docker =
    options.host !== undefined
      ? new Docker({ host: options.host, port: options.port ?? 2375, protocol: 'http' })
      : new Docker({ socketPath: options.socketPath ?? '/var/run/docker.sock' });
  const jupyterTimeoutMs = options.jupyterTimeoutMs ?? 60_000;
  /** Containers we started (or found) Jupyter in; forgotten on stop, start and remove. */
  const jupyterUp = new Set<string>();

  const call = async <T>(fn: () => Promise<T>): Promise<T> => {
    try {
      return await fn();
    } catch (err) {
      throw toEngineError(err, where);
    }
  };

  const toImage = (img: {
    Id: string;
    RepoTags?: string[] | null;
    Size: number;
    Created: number | string;
  }): DockerImage => ({
    Id: img.Id,
    RepoTags: img.RepoTags ?? [],
    Size: Math.max(0, Math.round(img.Size)),
    Created:
      typeof img.Created === 'number' ? img.Created : Math.floor((Date.parse(img.Created) || 0) / 1000),
  });

  const jupyterPortOf = (labels: Record<string, string> | undefined): number | null => {
    const p = Number(labels?.[JUPYTER_PORT_LABEL]);
    return Number.isInteger(p) && p > 0 && p < 65_536 ? p : null;
  };

  /** ContainerInfo (GET /containers/json) → §3 Container; Jupyter probed on its port when not known. */
  const toContainer = async (info: ContainerInfo): Promise<Container> => {
    const labels = info.Labels ?? {};
    const state = ContainerState.safeParse(info.State);
    const jupyterPort = jupyterPortOf(labels);
    const published = (info.Ports ?? []).filter((p) => p.Type === 'tcp' && num(p.PublicPort) > 0);
    const port = jupyterPort !== null ? published.find((p) => p.PrivatePort === jupyterPort) : published[0];
    const running = info.State === 'running';
    const LocalPort = running && port ? port.PublicPort : null;
    let jupyter = false;
    if (running && jupyterPort !== null && LocalPort !== null) {
      if (!jupyterUp.has(info.Id) && (await httpAnswers(LocalPort, '/', 500))) jupyterUp.add(info.Id);
      jupyter = jupyterUp.has(info.Id);
    }
    return {
      Id: info.Id,
      Name: (info.Names?.[0] ?? '').replace(/^\//, ''),
      Image: info.Image,
      Status: info.Status ?? '',
      State: state.success ? state.data : 'dead',
      Jupyter: jupyter,
      LocalPort,
      deviceName: options.deviceName,
      deviceId: options.deviceId,
      api_url: LocalPort !== null ? remoteBasePath(options.deviceId, info.Id) : null,
      EnvName: labels[ENV_LABEL] ?? null,
      Gpu: labels[GPU_LABEL] === 'true',
      Created: info.Created,
    };
  };

  /** The full id of a container named by id, prefix or name; 'not_found' otherwise. */
  const resolveId = async (ref: string): Promise<string> =>
    (await call(() => docker.getContainer(ref).inspect())).Id;

  const getById = async (fullId: string): Promise<Container | null> => {
    const list = await call(() => docker.listContainers({ all: true, filters: { id: [fullId] } }));
    const info = list.find((c) => c.Id === fullId);
    return info ? toContainer(info) : null;
  };

  const mustGet = async (fullId: string): Promise<Container> => {
    const c = await getById(fullId);
    if (!c) throw new ContainerEngineError('not_found', `No such container: ${fullId}`);
    return c;
  };

  /** Ignores Docker's 304 (already started / already stopped). */
  const ignoreNotModified = (err: unknown) => {
    if ((err as DockerError).statusCode !== 304) throw err;
  };

  const engine: ContainerEngine = {
    name: 'host',

    ping: async () => {
      await call(() => docker.ping());
    },

    available: () =>
      engine.ping().then(
        () => true,
        () => false,
      ),

    inspectImage: async (ref) => {
      try {
        return toImage(await docker.getImage(ref).inspect());
      } catch (err) {
        const e = toEngineError(err, where);
        if (e.code === 'not_found') return null;
        throw e;
      }
    },

    listImages: async () => (await call(() => docker.listImages())).map(toImage),

    pull: async (ref, onLayers, signal) => {
      if (signal?.aborted) throw new ContainerEngineError('canceled', `Download of ${ref} canceled`);
      let stream: NodeJS.ReadableStream;
      try {
        stream = await docker.pull(ref, signal ? { abortSignal: signal } : {});
      } catch (err) {
        if (signal?.aborted) throw new ContainerEngineError('canceled', `Download of ${ref} canceled`);
        const e = toEngineError(err, where);
        throw e.code === 'engine_unavailable' || e.code === 'canceled' ? e : pullFailure(ref, e.message);
      }
      const layers = new Map<string, LayerProgress>();
      let failure: string | null = null;
      await new Promise<void>((resolve, reject) => {
        const onAbort = () => (stream as NodeJS.ReadableStream & { destroy?(): void }).destroy?.();
        signal?.addEventListener('abort', onAbort, { once: true });
        docker.modem.followProgress(
          stream,
          (err: Error | null) => {
            signal?.removeEventListener('abort', onAbort);
            if (signal?.aborted) reject(new ContainerEngineError('canceled', `Download of ${ref} canceled`));
            else if (err) reject(toEngineError(err, where));
            else if (failure !== null) reject(pullFailure(ref, failure));
            else resolve();
          },
          (event: { error?: unknown; errorDetail?: { message?: unknown } }) => {
            if (event.error !== undefined || event.errorDetail !== undefined) {
              const m = event.errorDetail?.message ?? event.error;
              failure = typeof m === 'string' ? m : 'unknown error';
              return;
            }
            if (applyPullEvent(layers, event)) onLayers([...layers.values()].map((l) => ({ ...l })));
          },
        );
      });
      const image = await engine.inspectImage(ref);
      if (!image)
        throw new ContainerEngineError('failed', `Docker finished pulling ${ref} but has no such image`);
      return image;
    },

    create: async (o: CreateContainerOptions) => {
      const labels: Record<string, string> = { [ENV_LABEL]: o.envName };
      const gpu = o.gpu && options.gpu !== null;
      if (gpu) labels[GPU_LABEL] = 'true';
      const hostConfig: Docker.HostConfig = {};
      const exposed: Record<string, object> = {};
      if (o.jupyterPort !== null) {
        labels[JUPYTER_PORT_LABEL] = String(o.jupyterPort);
        exposed[`${o.jupyterPort}/tcp`] = {};
        hostConfig.PortBindings = { [`${o.jupyterPort}/tcp`]: [{ HostIp: '127.0.0.1', HostPort: '' }] };
      }
      if (gpu && options.gpu === 'nvidia') {
        hostConfig.DeviceRequests = [{ Driver: 'nvidia', Count: -1, Capabilities: [['gpu']] }];
      } else if (gpu && options.gpu === 'jetson') {
        hostConfig.Runtime = 'nvidia';
      }
      const created = await call(() =>
        docker.createContainer({
          ...(o.name ? { name: o.name } : {}),
          Image: o.image,
          Tty: true,
          OpenStdin: true,
          Labels: labels,
          ExposedPorts: exposed,
          HostConfig: hostConfig,
        }),
      );
      return mustGet(created.id);
    },

    start: async (ref) => {
      const id = await resolveId(ref);
      jupyterUp.delete(id);
      await call(() => docker.getContainer(id).start().catch(ignoreNotModified));
      return mustGet(id);
    },

    stop: async (ref) => {
      const id = await resolveId(ref);
      await call(() =>
        docker
          .getContainer(id)
          .stop({ t: options.stopTimeoutS ?? 10 })
          .catch(ignoreNotModified),
      );
      jupyterUp.delete(id);
      return mustGet(id);
    },

    remove: async (ref) => {
      const id = await resolveId(ref);
      const c = docker.getContainer(id);
      await call(() => c.stop({ t: options.stopTimeoutS ?? 10 }).catch(ignoreNotModified));
      await call(() => c.remove({ v: true }));
      jupyterUp.delete(id);
      return id;
    },

    get: async (ref) => {
      try {
        return await getById(await resolveId(ref));
      } catch (err) {
        if (err instanceof ContainerEngineError && err.code === 'not_found') return null;
        throw err;
      }
    },

    list: async () => {
      const infos = await call(() => docker.listContainers({ all: true }));
      return Promise.all(infos.sort((a, b) => b.Created - a.Created).map(toContainer));
    },

    logs: async (ref, tail) => {
      const c = docker.getContainer(ref);
      const info = await call(() => c.inspect());
      const buf = await call(
        () => c.logs({ stdout: true, stderr: true, tail, follow: false }) as unknown as Promise<Buffer>,
      );
      return lastLines(
        demuxDockerLog(
          Buffer.isBuffer(buf) ? buf : Buffer.from(typeof buf === 'string' ? buf : JSON.stringify(buf)),
          info.Config.Tty,
        ),
        tail,
      );
    },

    startJupyter: async (ref, baseUrl) => {
      const c = docker.getContainer(ref);
      let info = await call(() => c.inspect());
      const port = jupyterPortOf(info.Config.Labels);
      if (port === null)
        throw new ContainerEngineError(
          'not_found',
          `Container ${info.Name.replace(/^\//, '')} has no Jupyter port`,
        );
      if (!info.State.Running) {
        await call(() => c.start().catch(ignoreNotModified));
        info = await call(() => c.inspect());
      }
      const binding = info.NetworkSettings?.Ports?.[`${port}/tcp`]?.find((b) => num(Number(b.HostPort)) > 0);
      const localPort = binding ? Number(binding.HostPort) : null;
      if (localPort === null)
        throw new ContainerEngineError('failed', `Jupyter port ${port} is not published`);
      const exec = await call(() =>
        c.exec({
          Cmd: [
            'jupyter',
            'lab',
            '--ip=0.0.0.0',
            `--port=${port}`,
            '--no-browser',
            '--allow-root',
            `--ServerApp.base_url=${baseUrl}`,
            '--ServerApp.token=',
            '--ServerApp.password=',
          ],
          AttachStdout: false,
          AttachStderr: false,
          Tty: false,
        }),
      );
      await call(() => exec.start({ Detach: true }));
      const deadline = Date.now() + jupyterTimeoutMs;
      while (!(await httpAnswers(localPort, `${baseUrl}api/status`, 2_000))) {
        if (Date.now() >= deadline) {
          throw new ContainerEngineError(
            'failed',
            `Jupyter did not answer within ${Math.round(jupyterTimeoutMs / 100) / 10} s`,
          );
        }
        // A Jupyter that exited (not installed in the image, port taken…) will not answer: say so at once.
        const state = await exec.inspect().catch(() => null);
        if (state && !state.Running && state.ExitCode !== null) {
          throw new ContainerEngineError(
            'failed',
            `Jupyter exited with code ${state.ExitCode}${state.ExitCode === 127 ? ' (is JupyterLab installed in the image?)' : ''}`,
          );
        }
        await sleep(500);
      }
      jupyterUp.add(info.Id);
      return mustGet(info.Id);
    },

    webTarget: async (idOrShortId) => {
      if (!/^[0-9a-f]{12,64}$/.test(idOrShortId)) return null;
      const list = await call(() => docker.listContainers({ all: false, filters: { id: [idOrShortId] } }));
      const info = list.find((c) => c.Id.startsWith(idOrShortId));
      if (!info) return null;
      const c = await toContainer(info);
      return c.State === 'running' && c.LocalPort !== null ? { host: '127.0.0.1', port: c.LocalPort } : null;
    },

    close: async () => {
      jupyterUp.clear();
    },
  };
  return engine;
}
