/**
 * The device's Docker processes (spec §3 Docker process; §4 Container action "Only one action per environment
 * at a time"; §8 "Ongoing Process", "Process has been canceled"): the container actions and image downloads
 * running on the device or ended in the last 10 minutes, so a reloaded console sees them again.
 *
 * - One action per environment at a time: a second one fails with CommandError 'busy' / "Ongoing Process".
 * - One pull per image: a second download request for an image being downloaded joins the running one and
 *   gets its progress.
 * - Every step is pushed to the browsers: CONTAINER_EVENTS.process with the DockerProcess, and
 *   CONTAINER_EVENTS.changed with the full container list whenever a container appears, goes, or changes
 *   State or Jupyter (after each action, and by polling the engine for changes made outside the console).
 */
import { randomUUID } from 'node:crypto';
import { LINK_ERROR_CODES } from '../../protocol';
import { CONTAINER_EVENTS, CONTAINER_TEXTS, downloadPercent } from '../../protocol/containers';
import type { Container, DockerImage, DockerProcess, DownloadProgress } from '../../protocol/containers';
import { CommandError } from '../commands/errors';
import type { Logger } from '../log';
import { errorMessage } from '../log';
import { ContainerEngineError } from './engine';
import type { ContainerEngine } from './engine';

/** Ended processes are listed this long, ms (§3 "running or ended in the last 10 minutes"). */
export const PROCESS_KEEP_MS = 10 * 60_000;
/** At most one progress message per caller, and one process event per download, per this many ms. */
export const PROGRESS_INTERVAL_MS = 100;
/** §8 "Process has been canceled". */
export const CANCELED_TEXT = 'Process has been canceled';

/** Pushes an agent event to every ready link of the device. */
export type Broadcast = (name: string, data: unknown) => void;

export type ContainerAction = 'create' | 'start' | 'stop' | 'remove';

/** DockerProcess.message of an action that succeeded. */
const DONE_TEXT: Record<ContainerAction, string> = {
  create: 'Created',
  start: 'Started',
  stop: 'Stopped',
  remove: 'Removed',
};

export interface ProcessTrackerOptions {
  /** DockerProcess.device: the device id. */
  device: string;
  engine: ContainerEngine;
  broadcast: Broadcast;
  logger?: Logger;
  /** Test hook: how long ended processes are kept, ms (default PROCESS_KEEP_MS). */
  keepEndedMs?: number;
}

/**
 * Calls `fn` at most once per `ms`: the first call at once, later ones folded into one trailing call with the
 * latest value. `flush()` delivers a pending value now.
 */
export function throttle<T>(fn: (value: T) => void, ms: number): { push(value: T): void; flush(): void } {
  let last = 0;
  let pending: { value: T } | null = null;
  let timer: NodeJS.Timeout | undefined;
  const deliver = () => {
    clearTimeout(timer);
    timer = undefined;
    if (!pending) return;
    const { value } = pending;
    pending = null;
    last = Date.now();
    fn(value);
  };
  return {
    push(value) {
      pending = { value };
      const wait = last + ms - Date.now();
      if (wait <= 0) deliver();
      else timer ??= setTimeout(deliver, wait);
    },
    flush: deliver,
  };
}

interface Download {
  process: DockerProcess;
  controller: AbortController;
  promise: Promise<DockerImage>;
  last: DownloadProgress;
  listeners: Set<(p: DownloadProgress) => void>;
}

export class ProcessTracker {
  private readonly processes = new Map<string, DockerProcess>();
  private readonly downloads = new Map<string, Download>();
  private readonly keepMs: number;
  private signature: string | null = null;
  private watchTimer: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly options: ProcessTrackerOptions) {
    this.keepMs = options.keepEndedMs ?? PROCESS_KEEP_MS;
  }

  /** Processes running, then those ended in the last 10 minutes; oldest first. Copies. */
  list(): DockerProcess[] {
    const now = Date.now();
    for (const [id, p] of this.processes) {
      if (p.ended !== null && now - p.ended > this.keepMs) this.processes.delete(id);
    }
    return [...this.processes.values()].sort((a, b) => a.started - b.started).map((p) => ({ ...p }));
  }

  /** true while a process of environment `envName` runs. */
  busy(envName: string): boolean {
    for (const p of this.processes.values()) if (p.ended === null && p.envName === envName) return true;
    return false;
  }

  /**
   * Runs one container action of an environment as a Docker process: 'busy' (CommandError, "Ongoing
   * Process") while another process of `envName` runs; `step(message)` reports progress in words. Ends the
   * process with the outcome (error: "Container action failed: <engine words>") and pushes the container
   * list when it changed. Resolves / rejects like `fn`.
   */
  async run<T>(
    action: ContainerAction,
    meta: { docker: string; envName: string | null; gpu: boolean; message: string },
    fn: (step: (message: string) => void) => Promise<T>,
  ): Promise<T> {
    const p = this.begin(action, meta.docker, meta.envName, meta.gpu, meta.message, null);
    try {
      const result = await fn((message) => {
        p.message = message;
        this.emit(p);
      });
      this.end(p, DONE_TEXT[action], null);
      return result;
    } catch (err) {
      this.end(p, meta.message, `${CONTAINER_TEXTS.actionFailed}: ${errorMessage(err)}`);
      throw err;
    } finally {
      void this.refreshContainers();
    }
  }

  /**
   * Downloads `image` as a Docker process, or joins its running download. `onProgress` gets DownloadProgress
   * (at most every PROGRESS_INTERVAL_MS, and the last one before the answer). Resolves with the image;
   * rejects with ContainerEngineError ('canceled' after cancel(), 'not_found', 'engine_unavailable', …) or
   * CommandError 'busy' when another process of `envName` runs.
   */
  async download(
    image: string,
    envName: string | null,
    onProgress: (progress: DownloadProgress) => void,
  ): Promise<DockerImage> {
    let d = this.downloads.get(image);
    if (!d) d = this.startDownload(image, envName);
    const t = throttle(onProgress, PROGRESS_INTERVAL_MS);
    const listener = (p: DownloadProgress) => t.push(p);
    d.listeners.add(listener);
    t.push(d.last);
    try {
      return await d.promise;
    } finally {
      d.listeners.delete(listener);
      t.flush();
    }
  }

  /** Cancels the running download of `image`; false when none runs. */
  cancel(image: string): boolean {
    const d = this.downloads.get(image);
    if (!d) return false;
    d.controller.abort();
    return true;
  }

  /**
   * Polls the engine every `intervalMs` and pushes CONTAINER_EVENTS.changed when containers appeared, went or
   * changed State or Jupyter (changes made outside the console). Engine failures are ignored.
   */
  watch(intervalMs: number): void {
    clearInterval(this.watchTimer);
    this.watchTimer = setInterval(() => void this.refreshContainers(), intervalMs);
    this.watchTimer.unref();
  }

  /** Stops polling and cancels running downloads. */
  close(): void {
    this.closed = true;
    clearInterval(this.watchTimer);
    for (const d of this.downloads.values()) d.controller.abort();
  }

  /** Reads the container list and pushes it when it differs (ids, State, Jupyter) from the last one pushed. */
  async refreshContainers(): Promise<Container[] | null> {
    if (this.closed) return null;
    let containers: Container[];
    try {
      containers = await this.options.engine.list();
    } catch (err) {
      if (!(err instanceof ContainerEngineError)) {
        this.options.logger?.warn(`container list failed: ${errorMessage(err)}`);
      }
      return null;
    }
    const signature = containers
      .map((c) => `${c.Id}:${c.State}:${c.Jupyter}`)
      .sort()
      .join(',');
    if (signature !== this.signature) {
      this.signature = signature;
      this.options.broadcast(CONTAINER_EVENTS.changed, { containers });
    }
    return containers;
  }

  private startDownload(image: string, envName: string | null): Download {
    const p = this.begin('download', image, envName, false, `Downloading ${image}`, 0);
    const controller = new AbortController();
    const emitThrottled = throttle(() => this.emit(p), PROGRESS_INTERVAL_MS * 2);
    const d: Download = {
      process: p,
      controller,
      last: { image, layers: [], percent: 0 },
      listeners: new Set(),
      promise: Promise.resolve(null as unknown as DockerImage),
    };
    d.promise = this.options.engine
      .pull(
        image,
        (layers) => {
          // Percent never goes back: downloadPercent re-weighs layers as they change phase.
          const percent = Math.max(d.last.percent, downloadPercent(layers));
          d.last = { image, layers, percent };
          p.percent = percent;
          emitThrottled.push(undefined);
          for (const l of d.listeners) l(d.last);
        },
        controller.signal,
      )
      .then(
        (img) => {
          d.last = { image, layers: d.last.layers, percent: 100 };
          for (const l of d.listeners) l(d.last);
          emitThrottled.flush();
          p.percent = 100;
          this.end(p, `Downloaded ${image}`, null);
          return img;
        },
        (err: unknown) => {
          emitThrottled.flush();
          const canceled = err instanceof ContainerEngineError && err.code === 'canceled';
          this.end(
            p,
            canceled ? CANCELED_TEXT : `Download of ${image} failed`,
            canceled ? CANCELED_TEXT : errorMessage(err),
          );
          throw err;
        },
      )
      .finally(() => {
        this.downloads.delete(image);
      });
    // A download nobody waits for any more (all callers gone) must not be an unhandled rejection.
    d.promise.catch(() => undefined);
    this.downloads.set(image, d);
    return d;
  }

  private begin(
    action: DockerProcess['action'],
    docker: string,
    envName: string | null,
    gpu: boolean,
    message: string,
    percent: number | null,
  ): DockerProcess {
    if (envName !== null && this.busy(envName)) {
      throw new CommandError(LINK_ERROR_CODES.busy, CONTAINER_TEXTS.ongoingProcess);
    }
    const p: DockerProcess = {
      id: randomUUID(),
      device: this.options.device,
      docker,
      envName,
      action,
      message,
      error: null,
      started: Date.now(),
      ended: null,
      gpu,
      percent,
    };
    this.processes.set(p.id, p);
    this.list(); // drops processes ended long ago
    this.emit(p);
    return p;
  }

  private end(p: DockerProcess, message: string, error: string | null): void {
    p.message = message;
    p.error = error;
    p.ended = Date.now();
    this.emit(p);
  }

  private emit(p: DockerProcess): void {
    try {
      this.options.broadcast(CONTAINER_EVENTS.process, { ...p });
    } catch (err) {
      this.options.logger?.warn(`docker.process event not sent: ${errorMessage(err)}`);
    }
  }
}
