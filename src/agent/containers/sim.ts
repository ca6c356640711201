/**
 * The `sim` container engine: a Docker engine in memory for simulated devices (spec §3 Container, Docker
 * images; §4 Container action), with Docker's timings and words — pulls of several layers over a few seconds
 * with Docker's per-layer statuses, create ~300 ms, start ~500 ms, stop ~300 ms, statuses "Up 5 seconds",
 * "Exited (0) 2 seconds ago", "Created" — and a real (simulated) JupyterLab per container (simJupyter.ts).
 * Images come from the sim registry (simRegistry.ts); `edge/python:3.11` is present from the start.
 */
import { createHash, randomBytes } from 'node:crypto';
import { remoteBasePath } from '../../protocol/containers';
import type { Container, ContainerState, DockerImage, LayerProgress } from '../../protocol/containers';
import { ContainerEngineError, humanDuration } from './engine';
import type { ContainerEngine, CreateContainerOptions, EngineDevice } from './engine';
import { startSimJupyter } from './simJupyter';
import type { SimJupyterServer } from './simJupyter';
import { SIM_PRESENT_IMAGES, SIM_REGISTRY, findSimImage } from './simRegistry';

export interface SimEngineOptions extends EngineDevice {
  /** Device kind: which platform tags it can pull. */
  kind: 'jetson' | 'x86';
  /** The device has a GPU (Container.Gpu when asked). */
  hasGpu: boolean;
  /** Multiplies every simulated duration (tests: e.g. 0.02). Default 1. */
  timeScale?: number;
}

/** Containers one simulated device holds at most (keeps getContainers within one link message). */
export const SIM_MAX_CONTAINERS = 20;

/** Simulated durations at timeScale 1, ms. */
export const SIM_TIMINGS = {
  create: 300,
  start: 500,
  stop: 300,
  remove: 200,
  jupyter: 1_500,
  /** One step of a pull (a pull takes ~30–45 steps). */
  pullTick: 100,
  /** Until the registry answers that it has no such image. */
  pullRefused: 400,
} as const;

const ADJECTIVES = [
  'brave',
  'calm',
  'eager',
  'focused',
  'gifted',
  'happy',
  'keen',
  'lucid',
  'quirky',
  'sharp',
];
const NAMES = [
  'curie',
  'hopper',
  'lovelace',
  'noether',
  'turing',
  'shannon',
  'euler',
  'galois',
  'tesla',
  'yalow',
];

const sha = (s: string) => createHash('sha256').update(s).digest('hex');

interface SimContainer {
  Id: string;
  Name: string;
  Image: string;
  EnvName: string;
  jupyterPort: number | null;
  Gpu: boolean;
  /** ms since the epoch. */
  created: number;
  state: ContainerState;
  startedAt: number;
  finishedAt: number;
  exitCode: number;
  jupyter: SimJupyterServer | null;
  log: string[];
}

/** Creates the sim engine for one simulated device. */
export function createSimEngine(options: SimEngineOptions): ContainerEngine {
  const scale = options.timeScale ?? 1;
  const images = new Map<string, DockerImage>();
  const containers = new Map<string, SimContainer>();
  const pulls = new Set<AbortController>();
  /** Per-container chain: one engine operation at a time per container. */
  const locks = new Map<string, Promise<unknown>>();
  let closed = false;

  const delay = (ms: number, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) {
        reject(signal.reason);
        return;
      }
      const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      }, ms * scale);
      const onAbort = () => {
        clearTimeout(timer);
        reject(signal?.reason);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
    });

  const imageOf = (ref: string): DockerImage => {
    const found = findSimImage(ref);
    const h = sha(ref);
    return {
      Id: `sha256:${h}`,
      RepoTags: [ref],
      Size: Math.round((found?.tag.size_mb ?? 100) * 1_048_576 * 2.1),
      Created: 1_714_000_000 + (parseInt(h.slice(0, 6), 16) % 5_000_000),
    };
  };
  for (const ref of SIM_PRESENT_IMAGES) images.set(ref, imageOf(ref));

  const status = (c: SimContainer, now: number): string => {
    if (c.state === 'running') return `Up ${humanDuration(now - c.startedAt)}`;
    if (c.state === 'exited') return `Exited (${c.exitCode}) ${humanDuration(now - c.finishedAt)} ago`;
    if (c.state === 'removing') return 'Removal In Progress';
    return 'Created';
  };

  const view = (c: SimContainer): Container => {
    const LocalPort = c.state === 'running' && c.jupyter ? c.jupyter.port : null;
    return {
      Id: c.Id,
      Name: c.Name,
      Image: c.Image,
      Status: status(c, Date.now()),
      State: c.state,
      Jupyter: LocalPort !== null,
      LocalPort,
      deviceName: options.deviceName,
      deviceId: options.deviceId,
      api_url: LocalPort !== null ? remoteBasePath(options.deviceId, c.Id) : null,
      EnvName: c.EnvName,
      Gpu: c.Gpu,
      Created: Math.floor(c.created / 1000),
    };
  };

  const find = (ref: string): SimContainer | null => {
    const byId = containers.get(ref);
    if (byId) return byId;
    for (const c of containers.values()) if (c.Name === ref || c.Name === ref.replace(/^\//, '')) return c;
    if (!/^[0-9a-f]+$/.test(ref)) return null;
    const matches = [...containers.values()].filter((c) => c.Id.startsWith(ref));
    return matches.length === 1 ? matches[0]! : null;
  };
  const mustFind = (ref: string): SimContainer => {
    const c = find(ref);
    if (!c) throw new ContainerEngineError('not_found', `No such container: ${ref}`);
    return c;
  };

  /** Runs `fn` after the container's earlier operations. */
  const locked = <T>(id: string, fn: () => Promise<T>): Promise<T> => {
    const prev = locks.get(id) ?? Promise.resolve();
    const next = prev.catch(() => undefined).then(fn);
    locks.set(id, next);
    void next
      .finally(() => {
        if (locks.get(id) === next) locks.delete(id);
      })
      .catch(() => undefined);
    return next;
  };

  const logLine = (c: SimContainer, line: string) => {
    c.log.push(line);
    if (c.log.length > 1000) c.log.splice(0, c.log.length - 1000);
  };
  const jupyterLog = (level: string, text: string) =>
    `[${level} ${new Date().toISOString().replace('T', ' ').replace('Z', '')} ServerApp] ${text}`;

  const closeJupyter = async (c: SimContainer) => {
    const j = c.jupyter;
    c.jupyter = null;
    if (j) {
      logLine(c, jupyterLog('C', 'received signal 15, stopping'));
      logLine(c, jupyterLog('I', 'Shutting down 1 extension'));
      await j.close();
    }
  };

  const stopNow = async (c: SimContainer) => {
    if (c.state !== 'running') return;
    await delay(SIM_TIMINGS.stop);
    await closeJupyter(c);
    c.state = 'exited';
    c.exitCode = 0;
    c.finishedAt = Date.now();
    logLine(c, 'exit');
  };

  const startNow = async (c: SimContainer) => {
    if (c.state === 'running') return;
    await delay(SIM_TIMINGS.start);
    c.state = 'running';
    c.startedAt = Date.now();
    if (c.Image.startsWith('edge/python:')) {
      logLine(c, 'Python 3.11.9 (main, Apr  2 2024, 08:25:04) [GCC 12.2.0] on linux');
      logLine(c, 'Type "help", "copyright", "credits" or "license" for more information.');
      logLine(c, '>>> ');
    } else {
      logLine(c, `root@${c.Id.slice(0, 12)}:/workspace# `);
    }
  };

  /** Simulates Docker's pull of `ref` (all checks done): calls onLayers after every step. */
  const simulatePull = async (
    ref: string,
    sizeMb: number,
    layerCount: number,
    onLayers: (layers: LayerProgress[]) => void,
    signal: AbortSignal,
  ) => {
    const h = sha(ref);
    const weights = Array.from(
      { length: layerCount },
      (_, i) => 1 + (parseInt(h.slice(i * 4, i * 4 + 4), 16) % 9),
    );
    const sum = weights.reduce((a, b) => a + b, 0);
    const layers = weights.map((w, i) => ({
      // The first layer is the base every sim image shares: it is already there when any image is.
      id: i === 0 ? sha('edge-base-layer').slice(0, 12) : sha(`${ref}#${i}`).slice(0, 12),
      size: Math.round((sizeMb * 1_048_576 * w) / sum),
      phase: 'pending' as 'pending' | 'exists' | 'downloading' | 'downloaded' | 'extracting' | 'done',
      done: 0,
      ticks: 0,
    }));
    if (images.size > 0) layers[0]!.phase = 'exists';
    const maxSize = Math.max(...layers.map((l) => l.size));
    const dlTicks = (size: number) => Math.max(3, Math.round((22 * size) / maxSize));
    const exTicks = (size: number) => Math.max(2, Math.round((8 * size) / maxSize));
    const statuses = new Map<string, LayerProgress>();
    const set = (id: string, status: string, current = 0, total = 0) =>
      statuses.set(id, { id, status, current, total });
    const emit = () => onLayers([...statuses.values()].map((l) => ({ ...l })));
    for (const l of layers) set(l.id, l.phase === 'exists' ? 'Already exists' : 'Pulling fs layer');
    emit();
    await delay(SIM_TIMINGS.pullTick, signal);
    while (layers.some((l) => l.phase !== 'done' && l.phase !== 'exists')) {
      // Up to three downloads at a time; the others wait.
      let active = layers.filter((l) => l.phase === 'downloading').length;
      for (const l of layers) {
        if (l.phase === 'pending' && active < 3) {
          l.phase = 'downloading';
          active++;
        } else if (l.phase === 'pending') set(l.id, 'Waiting');
      }
      for (const l of layers.filter((x) => x.phase === 'downloading')) {
        l.ticks++;
        l.done = Math.min(l.size, Math.round((l.size * l.ticks) / dlTicks(l.size)));
        if (l.done >= l.size) {
          l.phase = 'downloaded';
          set(l.id, 'Download complete', l.size, l.size);
        } else set(l.id, 'Downloading', l.done, l.size);
      }
      // Extraction runs in layer order, one at a time.
      const next = layers.find((l) => l.phase !== 'done' && l.phase !== 'exists');
      if (next && (next.phase === 'downloaded' || next.phase === 'extracting')) {
        if (next.phase === 'downloaded') {
          next.phase = 'extracting';
          next.ticks = 0;
        }
        next.ticks++;
        const cur = Math.min(next.size, Math.round((next.size * next.ticks) / exTicks(next.size)));
        if (cur >= next.size) {
          next.phase = 'done';
          set(next.id, 'Pull complete', next.size, next.size);
        } else set(next.id, 'Extracting', cur, next.size);
      }
      emit();
      await delay(SIM_TIMINGS.pullTick, signal);
    }
  };

  const engine: ContainerEngine = {
    name: 'sim',
    ping: async () => {
      if (closed)
        throw new ContainerEngineError('engine_unavailable', 'The simulated Docker engine is closed');
    },
    available: async () => !closed,

    inspectImage: async (ref) => images.get(ref) ?? null,

    listImages: async () => [...images.values()],

    pull: async (ref, onLayers, signal) => {
      const canceled = () => new ContainerEngineError('canceled', `Download of ${ref} canceled`);
      if (signal?.aborted) throw canceled();
      const ctl = new AbortController();
      const onAbort = () => ctl.abort();
      signal?.addEventListener('abort', onAbort, { once: true });
      pulls.add(ctl);
      try {
        const found = findSimImage(ref);
        if (!found || (found.tag.platform !== 'any' && found.tag.platform !== options.kind)) {
          await delay(SIM_TIMINGS.pullRefused, ctl.signal);
          const at = ref.lastIndexOf(':');
          const repoKnown = SIM_REGISTRY.some((r) => r.repository === ref.slice(0, at));
          const words = found
            ? `no matching manifest for linux/${options.kind === 'jetson' ? 'arm64/v8' : 'amd64'} in the manifest list entries`
            : repoKnown
              ? `manifest for ${ref} not found: manifest unknown: manifest unknown`
              : `pull access denied for ${ref.slice(0, at)}, repository does not exist or may require 'docker login': denied: requested access to the resource is denied`;
          throw new ContainerEngineError('not_found', `Docker could not pull ${ref}: ${words}`);
        }
        if (!images.has(ref))
          await simulatePull(ref, found.tag.size_mb, found.repo.layers, onLayers, ctl.signal);
        const image = imageOf(ref);
        images.set(ref, image);
        return image;
      } catch (err) {
        if (ctl.signal.aborted) throw canceled();
        throw err;
      } finally {
        pulls.delete(ctl);
        signal?.removeEventListener('abort', onAbort);
      }
    },

    create: async (o: CreateContainerOptions) => {
      await delay(SIM_TIMINGS.create);
      if (!images.has(o.image)) throw new ContainerEngineError('not_found', `No such image: ${o.image}`);
      if (containers.size >= SIM_MAX_CONTAINERS) {
        throw new ContainerEngineError(
          'conflict',
          `The simulated device holds at most ${SIM_MAX_CONTAINERS} containers: remove one first`,
        );
      }
      const Id = randomBytes(32).toString('hex');
      let name = o.name;
      if (name && find(name)?.Name === name) {
        throw new ContainerEngineError(
          'conflict',
          `Conflict. The container name "/${name}" is already in use by container "${find(name)!.Id}". You have to remove (or rename) that container to be able to reuse that name.`,
        );
      }
      while (!name || [...containers.values()].some((c) => c.Name === name)) {
        const r = randomBytes(2);
        name = `${ADJECTIVES[r[0]! % ADJECTIVES.length]}_${NAMES[r[1]! % NAMES.length]}`;
      }
      const c: SimContainer = {
        Id,
        Name: name,
        Image: o.image,
        EnvName: o.envName,
        jupyterPort: o.jupyterPort,
        Gpu: o.gpu && options.hasGpu,
        created: Date.now(),
        state: 'created',
        startedAt: 0,
        finishedAt: 0,
        exitCode: 0,
        jupyter: null,
        log: [],
      };
      containers.set(Id, c);
      return view(c);
    },

    start: async (ref) => {
      const c = mustFind(ref);
      return locked(c.Id, async () => {
        await startNow(c);
        return view(c);
      });
    },

    stop: async (ref) => {
      const c = mustFind(ref);
      return locked(c.Id, async () => {
        await stopNow(c);
        return view(c);
      });
    },

    remove: async (ref) => {
      const c = mustFind(ref);
      return locked(c.Id, async () => {
        await stopNow(c);
        c.state = 'removing';
        await delay(SIM_TIMINGS.remove);
        containers.delete(c.Id);
        return c.Id;
      });
    },

    get: async (ref) => {
      const c = find(ref);
      return c ? view(c) : null;
    },

    list: async () => [...containers.values()].sort((a, b) => b.created - a.created).map(view),

    logs: async (ref, tail) => mustFind(ref).log.slice(-tail),

    startJupyter: async (ref, baseUrl) => {
      const c = mustFind(ref);
      return locked(c.Id, async () => {
        if (c.jupyterPort === null)
          throw new ContainerEngineError('not_found', `Container ${c.Name} has no Jupyter port`);
        await startNow(c);
        if (c.jupyter && c.jupyter.baseUrl === baseUrl) return view(c);
        await closeJupyter(c);
        await delay(SIM_TIMINGS.jupyter);
        if (closed)
          throw new ContainerEngineError('engine_unavailable', 'The simulated Docker engine is closed');
        c.jupyter = await startSimJupyter(baseUrl);
        logLine(c, jupyterLog('I', 'Extension package jupyterlab took 0.1 s to import (simulated)'));
        logLine(c, jupyterLog('I', 'Serving notebooks from local directory: /workspace'));
        logLine(c, jupyterLog('I', 'Jupyter Server 2.14.1 (simulated) is running at:'));
        logLine(c, jupyterLog('I', `http://${c.Id.slice(0, 12)}:${c.jupyterPort}${baseUrl}lab`));
        logLine(
          c,
          jupyterLog(
            'W',
            'All authentication is disabled.  Anyone who can connect to this server will be able to run code.',
          ),
        );
        return view(c);
      });
    },

    webTarget: async (idOrShortId) => {
      if (!/^[0-9a-f]{12,64}$/.test(idOrShortId)) return null;
      const c = [...containers.values()].find((x) => x.Id.startsWith(idOrShortId));
      return c && c.state === 'running' && c.jupyter ? { host: '127.0.0.1', port: c.jupyter.port } : null;
    },

    close: async () => {
      if (closed) return;
      closed = true;
      for (const ctl of pulls) ctl.abort();
      await Promise.all([...containers.values()].map((c) => closeJupyter(c)));
    },
  };
  return engine;
}
