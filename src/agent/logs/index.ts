/**
 * The device's logs part (§7 "Logs and remote control": log, endLogProcess; §3 Log info): `host` reads and
 * follows real files of this machine (host.ts), `sim` generates believable lines (sim.ts), behind one
 * interface. A log process is known by the console's uuid: it sends the last `count` lines, then (follow)
 * every new line, as LogBatch messages (sequence numbers without gaps, each under LOG_BATCH_MAX_BYTES), until
 * `end`, `stopLink` (its link closed), `close`, a §8 failure, or nobody asking for it again within
 * LOG_RESUME_MS. Followed logs are long-polled: each call answers `more` after LOG_POLL_MS; lines written
 * between two calls wait in the process's queue (at most LOG_QUEUE_MAX).
 */
import { join } from 'node:path';
import type { LogBatch, LogEndReason, LogTopic } from '../../protocol/logs';
import {
  LOG_BATCH_MAX_BYTES,
  LOG_MAX_FOLLOWS,
  LOG_POLL_MS,
  LOG_QUEUE_MAX,
  LOG_RESUME_MS,
} from '../../protocol/logs';
import type { AgentPartDeps } from '../parts';
import type { LogRoot } from './host';
import { createHostCatalogue } from './host';
import { createSimCatalogue } from './sim';
import type { LogCatalogue } from './source';
import { LogSourceError } from './source';

export { LogSourceError } from './source';

/** One `log` call (LogRequest after validation). */
export interface LogRun {
  uuid: string;
  topic: string;
  subtopic: string;
  /** Lines from the end sent first (a new log process only). */
  count: number;
  follow: boolean;
  /** Sim only: lines per second while followed. */
  simRate?: number;
}

/** Who runs it: the asking browser and its link. */
export interface LogOwner {
  browserId: string;
  linkId: string;
}

/** How a `log` call answered: lines of the log process so far, and why (LogEndReason). */
export interface LogCallEnd {
  lines: number;
  reason: LogEndReason;
}

export interface DeviceLogs {
  /** §3 Log info: topics and subtopics there are now. */
  topics(): Promise<LogTopic[]>;
  /**
   * One `log` call, giving its batches to `send`. Without follow: the last `count` lines, then `done`. With
   * follow: a new log process (or the running one of this browser with this uuid, which goes on), whose lines
   * are sent as they come until endLogProcess (`stopped`), stopLink (`link_closed`), or `pollMs` (`more`:
   * the process goes on, waiting for the next call, at most `resumeMs`). Rejects with a LogSourceError:
   * `not_found` (§8 "No log file found"), `log_changed` (§8 "Log file modified or deleted", after the lines
   * still readable), `busy` (a call of this log is in progress, or LOG_MAX_FOLLOWS logs are followed).
   */
  run(request: LogRun, owner: LogOwner, send: (batch: LogBatch) => void): Promise<LogCallEnd>;
  /** §7 endLogProcess: stops `uuid` of `browserId`; false when it is not running. */
  end(uuid: string, browserId: string): boolean;
  /** Stops every log process of a closed link. */
  stopLink(linkId: string): void;
  /** Number of followed log processes (tests). */
  readonly running: number;
  /** Stops every log process; idempotent. */
  close(): Promise<void>;
}

/** Options beyond AgentPartDeps (tests): the host's log roots, the catalogue, the polling times (ms). */
export interface DeviceLogsOptions {
  /** Host topics; default `system` = /var/log and `agent` = <stateDir>/logs. */
  roots?: readonly LogRoot[];
  catalogue?: LogCatalogue;
  /** Default LOG_POLL_MS. */
  pollMs?: number;
  /** Default LOG_RESUME_MS. */
  resumeMs?: number;
  /** Default LOG_QUEUE_MAX. */
  queueMax?: number;
}

/** Splits lines (from sequence number `seq`) into batches each under LOG_BATCH_MAX_BYTES of JSON. */
export function toBatches(uuid: string, seq: number, lines: readonly string[]): LogBatch[] {
  const out: LogBatch[] = [];
  const overhead = 200 + uuid.length;
  let current: string[] = [];
  let bytes = overhead;
  let first = seq;
  for (const line of lines) {
    const size = Buffer.byteLength(JSON.stringify(line)) + 1;
    if (current.length > 0 && bytes + size > LOG_BATCH_MAX_BYTES) {
      out.push({ uuid, seq: first, lines: current });
      first += current.length;
      current = [];
      bytes = overhead;
    }
    current.push(line);
    bytes += size;
  }
  if (current.length > 0) out.push({ uuid, seq: first, lines: current });
  return out;
}

/** The `log` call a followed process is answering now. */
interface Call {
  send: (batch: LogBatch) => void;
  resolve: (end: LogCallEnd) => void;
  reject: (err: LogSourceError) => void;
  timer: NodeJS.Timeout;
}

/** A followed log process. */
interface Followed {
  key: string;
  uuid: string;
  owner: LogOwner;
  /** Sequence number of queue[0]. */
  sentSeq: number;
  /** Lines not sent yet (between two calls). */
  queue: string[];
  call: Call | null;
  /** Stops following and closes the source. */
  stop: () => void;
  /** Stops the process when no call comes. */
  idle: NodeJS.Timeout | undefined;
  error: LogSourceError | null;
}

export function createDeviceLogs(deps: AgentPartDeps, options: DeviceLogsOptions = {}): DeviceLogs {
  const catalogue =
    options.catalogue ??
    (deps.mode === 'host'
      ? createHostCatalogue(
          options.roots ?? [
            { topic: 'system', dir: '/var/log' },
            { topic: 'agent', dir: join(deps.stateDir, 'logs') },
          ],
        )
      : createSimCatalogue(deps.backend.cameras.map((c) => c.cameraId)));
  const pollMs = options.pollMs ?? LOG_POLL_MS;
  const resumeMs = options.resumeMs ?? LOG_RESUME_MS;
  const queueMax = options.queueMax ?? LOG_QUEUE_MAX;
  const running = new Map<string, Followed>();
  /** Keys being opened (so a second call of the same uuid meanwhile is refused). */
  const opening = new Set<string>();
  const key = (browserId: string, uuid: string) => `${browserId}\u0000${uuid}`;

  /** Sends what is queued through the call in progress. */
  const flush = (p: Followed) => {
    const call = p.call;
    if (!call || p.queue.length === 0) return;
    // A send can end the call under us: PeerJS closes a connection whose channel refused a send, synchronously,
    // and the link's close finishes this process (p.call = null). The rest of the batches have nowhere to go.
    for (const batch of toBatches(p.uuid, p.sentSeq, p.queue)) {
      if (p.call !== call) break;
      call.send(batch);
    }
    p.sentSeq += p.queue.length;
    p.queue = [];
  };
  const total = (p: Followed) => p.sentSeq + p.queue.length;
  /** Ends the process: its source stops, the call in progress answers `reason`. */
  const finish = (p: Followed, reason: LogEndReason) => {
    if (running.get(p.key) !== p) return;
    running.delete(p.key);
    clearTimeout(p.idle);
    p.stop();
    const call = p.call;
    p.call = null;
    if (call) {
      clearTimeout(call.timer);
      call.resolve({ lines: total(p), reason });
    }
  };
  /** Answers the call in progress with the process's failure (after the lines still readable). */
  const fail = (p: Followed) => {
    const call = p.call;
    if (!call || !p.error) return;
    flush(p);
    clearTimeout(call.timer);
    p.call = null;
    running.delete(p.key);
    call.reject(p.error);
  };
  /** Lets `call` answer for `p` until pollMs. */
  const attach = (p: Followed, send: Call['send']) =>
    new Promise<LogCallEnd>((resolve, reject) => {
      clearTimeout(p.idle);
      const timer = setTimeout(() => {
        if (p.call?.timer !== timer) return;
        flush(p);
        p.call = null;
        resolve({ lines: total(p), reason: 'more' });
        p.idle = setTimeout(() => finish(p, 'stopped'), resumeMs);
        p.idle.unref?.();
      }, pollMs);
      timer.unref?.();
      p.call = { send, resolve, reject, timer };
      flush(p);
      if (p.error) fail(p);
    });

  return {
    topics: () => catalogue.topics(),
    get running() {
      return running.size;
    },
    async run(request, owner, send) {
      const k = key(owner.browserId, request.uuid);
      const existing = running.get(k);
      if (existing || opening.has(k)) {
        if (!request.follow || !existing || existing.call) {
          throw new LogSourceError('busy', `The log ${request.uuid} is already open`);
        }
        return attach(existing, send);
      }
      if (request.follow && running.size + opening.size >= LOG_MAX_FOLLOWS) {
        throw new LogSourceError(
          'busy',
          `The device follows ${LOG_MAX_FOLLOWS} logs already; stop one first`,
        );
      }
      opening.add(k);
      let source;
      try {
        source = await catalogue.open(request.topic, request.subtopic, { simRate: request.simRate });
      } finally {
        opening.delete(k);
      }
      let tail: string[];
      try {
        tail = await source.tail(request.count);
      } catch (err) {
        await source.close();
        throw err;
      }
      if (!request.follow) {
        for (const batch of toBatches(request.uuid, 0, tail)) send(batch);
        await source.close();
        return { lines: tail.length, reason: 'done' };
      }
      const p: Followed = {
        key: k,
        uuid: request.uuid,
        owner,
        sentSeq: 0,
        queue: tail,
        call: null,
        stop: () => undefined,
        idle: undefined,
        error: null,
      };
      running.set(k, p);
      const stopFollow = source.follow(
        (lines) => {
          p.queue.push(...lines);
          if (p.queue.length > queueMax) {
            const dropped = p.queue.length - queueMax;
            p.queue.splice(0, dropped);
            p.sentSeq += dropped;
          }
          flush(p);
        },
        (err) => {
          p.error = err;
          p.stop();
          fail(p);
        },
      );
      let stopped = false;
      p.stop = () => {
        if (stopped) return;
        stopped = true;
        stopFollow();
        void source.close();
      };
      return attach(p, send);
    },
    end(uuid, browserId) {
      const p = running.get(key(browserId, uuid));
      if (!p) return false;
      finish(p, 'stopped');
      return true;
    },
    stopLink(linkId) {
      for (const p of [...running.values()]) if (p.owner.linkId === linkId) finish(p, 'link_closed');
    },
    async close() {
      for (const p of [...running.values()]) finish(p, 'stopped');
    },
  };
}
