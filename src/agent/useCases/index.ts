/**
 * The device's use-case part (issue 11 "Counting happens on the device"): it asks the server which use cases
 * run on this device's jobs (`useCases.deviceList`, every SYNC_MS), feeds every inferred frame of those jobs
 * (the inference part's detections tap) to one UseCaseTracker per use case (./counter.ts), and posts the
 * records in batches (`useCases.devicePost`, idempotent by key; retried with the next batch when the server
 * cannot be reached, at most RECORDS_KEPT_MAX kept).
 */
import { DeviceUseCase, RECORDS_POST_MAX, type UseCaseRecordIn } from '../../protocol/analytics';
import type { Detection } from '../../protocol/inference';
import { routeUrl } from '../../protocol/route';
import { restRoutes } from '../../protocol/routes';
import { errorMessage } from '../log';
import type { AgentPartDeps } from '../parts';
import { UseCaseTracker } from './counter';

export const SYNC_MS = 5_000;
export const FLUSH_MS = 1_000;
export const RECORDS_KEPT_MAX = 20_000;

/** What the part needs from the server. */
export interface UseCaseServer {
  list(): Promise<DeviceUseCase[]>;
  post(records: UseCaseRecordIn[]): Promise<void>;
}

export interface DeviceUseCases {
  /** The inference part's tap: every inferred frame of a running job. */
  onDetections(
    job: { job_id: string },
    frame: { width: number; height: number },
    detections: readonly Detection[],
    wall: number,
  ): void;
  /** Replaces the use cases (tests; the part syncs from the server itself). */
  set(list: DeviceUseCase[]): void;
  /** Posts what is pending now. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export function httpUseCaseServer(server: { url: string; token: string }): UseCaseServer {
  const base = server.url.endsWith('/') ? server.url : `${server.url}/`;
  const headers = { Authorization: `Token ${server.token}`, 'content-type': 'application/json' };
  const url = (path: string) => new URL(path.replace(/^\//, ''), base);
  return {
    async list() {
      const res = await fetch(url(routeUrl(restRoutes['useCases.deviceList'])), { headers });
      if (!res.ok) throw new Error(`use cases answered ${res.status}`);
      const body = (await res.json()) as { use_cases: unknown[] };
      return body.use_cases.map((u) => DeviceUseCase.parse(u));
    },
    async post(records) {
      const res = await fetch(url(routeUrl(restRoutes['useCases.devicePost'])), {
        method: 'POST',
        headers,
        body: JSON.stringify({ records }),
      });
      if (!res.ok)
        throw new Error(`use-case records answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
    },
  };
}

export function createDeviceUseCases(
  deps: Pick<AgentPartDeps, 'log' | 'server'>,
  options: { server?: UseCaseServer | null; syncMs?: number } = {},
): DeviceUseCases {
  const server =
    options.server === undefined ? (deps.server ? httpUseCaseServer(deps.server) : null) : options.server;
  const trackers = new Map<string, UseCaseTracker>();
  let byJob = new Map<string, UseCaseTracker[]>();
  let pending: UseCaseRecordIn[] = [];
  let posting: Promise<void> | null = null;
  let closed = false;

  const set = (list: DeviceUseCase[]) => {
    const next = new Map<string, UseCaseTracker[]>();
    for (const u of list) {
      let t = trackers.get(u.id);
      if (!t || JSON.stringify(t.useCase) !== JSON.stringify(u)) {
        t = new UseCaseTracker(u);
        trackers.set(u.id, t);
      }
      next.set(u.job_id, [...(next.get(u.job_id) ?? []), t]);
    }
    for (const id of [...trackers.keys()]) if (!list.some((u) => u.id === id)) trackers.delete(id);
    byJob = next;
  };

  const flush = async (): Promise<void> => {
    if (posting) await posting;
    if (!server || pending.length === 0) return;
    const batch = pending.slice(0, RECORDS_POST_MAX);
    posting = server
      .post(batch)
      .then(() => {
        pending = pending.slice(batch.length);
      })
      .catch((err: unknown) => deps.log.warn(`use-case records not posted: ${errorMessage(err)}`))
      .finally(() => {
        posting = null;
      });
    await posting;
  };

  const sync = async () => {
    if (!server || closed) return;
    try {
      set(await server.list());
    } catch (err) {
      deps.log.info(`use cases not synced: ${errorMessage(err)}`);
    }
  };
  const syncTimer = server ? setInterval(() => void sync(), options.syncMs ?? SYNC_MS) : null;
  syncTimer?.unref();
  void sync();
  const flushTimer = setInterval(() => void flush(), FLUSH_MS);
  flushTimer.unref();

  return {
    onDetections(job, frame, detections, wall) {
      const list = byJob.get(job.job_id);
      if (!list || closed) return;
      for (const t of list) {
        const records = t.frame({ wall, width: frame.width, height: frame.height, detections });
        if (records.length) pending.push(...records);
      }
      if (pending.length > RECORDS_KEPT_MAX) pending = pending.slice(-RECORDS_KEPT_MAX);
    },
    set,
    flush,
    async close() {
      closed = true;
      if (syncTimer) clearInterval(syncTimer);
      clearInterval(flushTimer);
      await flush();
    },
  };
}
