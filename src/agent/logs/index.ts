/**
 * The device's logs part (§7 "Logs and remote control": log, endLogProcess; §3 Log info): `host` reads and
 * follows real files of this machine (host.ts), `sim` generates believable lines (sim.ts), behind one
 * interface. Each `run` is one log process, known by the console's uuid: it sends the last `count` lines,
 * then (follow) every new line, as LogBatch messages (sequence numbers without gaps, each under
 * LOG_BATCH_MAX_BYTES), until `end`, `stopLink` (its link closed), `close`, or a §8 failure.
 */
import { join } from 'node:path';
import type { LogBatch, LogEndReason, LogTopic } from '../../protocol/logs';
import { LOG_BATCH_MAX_BYTES, LOG_HEARTBEAT_MS, LOG_MAX_FOLLOWS } from '../../protocol/logs';
import type { AgentPartDeps } from '../parts';
import type { LogRoot } from './host';
import { createHostCatalogue } from './host';
import { createSimCatalogue } from './sim';
import type { LogCatalogue } from './source';
import { LogSourceError } from './source';

export { LogSourceError } from './source';

/** One log process asked for (LogRequest after validation). */
export interface LogRun {
  uuid: string;
  topic: string;
  subtopic: string;
  /** Lines from the end sent first. */
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

export interface DeviceLogs {
  /** §3 Log info: topics and subtopics there are now. */
  topics(): Promise<LogTopic[]>;
  /**
   * Runs one log process, giving its batches to `send`; resolves when it ends (`done` without follow,
   * `stopped` by end/close, `link_closed` by stopLink) with the number of lines sent. Rejects with a
   * LogSourceError: `not_found` (§8 "No log file found"), `log_changed` (§8 "Log file modified or deleted"),
   * `busy` (the uuid is already running for this browser, or LOG_MAX_FOLLOWS logs are followed).
   */
  run(
    request: LogRun,
    owner: LogOwner,
    send: (batch: LogBatch) => void,
  ): Promise<{ lines: number; reason: LogEndReason }>;
  /** §7 endLogProcess: stops `uuid` of `browserId`; false when it is not running. */
  end(uuid: string, browserId: string): boolean;
  /** Stops every log process of a closed link. */
  stopLink(linkId: string): void;
  /** Number of log processes running (tests). */
  readonly running: number;
  /** Stops every log process; idempotent. */
  close(): Promise<void>;
}

/** Options beyond AgentPartDeps (tests): the host's log roots, the catalogue itself. */
export interface DeviceLogsOptions {
  /** Host topics; default `system` = /var/log and `agent` = <stateDir>/logs. */
  roots?: readonly LogRoot[];
  catalogue?: LogCatalogue;
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

interface Running {
  uuid: string;
  owner: LogOwner;
  /** Set when it was stopped (possibly before following began). */
  ended?: LogEndReason;
  finish: (reason: LogEndReason) => void;
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
  const running = new Map<string, Running>();
  const key = (browserId: string, uuid: string) => `${browserId}\u0000${uuid}`;
  const stopEntry = (entry: Running, reason: LogEndReason) => {
    running.delete(key(entry.owner.browserId, entry.uuid));
    entry.ended = reason;
    entry.finish(reason);
  };

  return {
    topics: () => catalogue.topics(),
    get running() {
      return running.size;
    },
    async run(request, owner, send) {
      const k = key(owner.browserId, request.uuid);
      if (running.has(k)) throw new LogSourceError('busy', `The log ${request.uuid} is already open`);
      if (request.follow && running.size >= LOG_MAX_FOLLOWS) {
        throw new LogSourceError(
          'busy',
          `The device follows ${LOG_MAX_FOLLOWS} logs already; stop one first`,
        );
      }
      // Reserved before the first await, so a second run of the same uuid is refused.
      const entry: Running = { uuid: request.uuid, owner, finish: () => undefined };
      if (request.follow) running.set(k, entry);
      let source;
      try {
        source = await catalogue.open(request.topic, request.subtopic, { simRate: request.simRate });
      } catch (err) {
        if (running.get(k) === entry) running.delete(k);
        throw err;
      }
      let seq = 0;
      let lastSent = Date.now();
      const emit = (lines: readonly string[]) => {
        if (lines.length === 0) send({ uuid: request.uuid, seq, lines: [] });
        for (const batch of toBatches(request.uuid, seq, lines)) send(batch);
        seq += lines.length;
        lastSent = Date.now();
      };
      try {
        emit(await source.tail(request.count));
        if (!request.follow) return { lines: seq, reason: 'done' as const };
        const reason = await new Promise<LogEndReason>((resolve, reject) => {
          let stop = () => undefined as void;
          const heartbeat = setInterval(() => {
            if (Date.now() - lastSent >= LOG_HEARTBEAT_MS) emit([]);
          }, 1_000);
          heartbeat.unref?.();
          const settle = () => {
            clearInterval(heartbeat);
            stop();
            if (running.get(k) === entry) running.delete(k);
          };
          entry.finish = (why) => {
            settle();
            resolve(why);
          };
          stop = source.follow(emit, (err) => {
            settle();
            reject(err);
          });
          // Stopped while opening (end/stopLink before follow began).
          if (entry.ended) entry.finish(entry.ended);
        });
        return { lines: seq, reason };
      } finally {
        if (running.get(k) === entry) running.delete(k);
        await source.close();
      }
    },
    end(uuid, browserId) {
      const entry = running.get(key(browserId, uuid));
      if (!entry) return false;
      stopEntry(entry, 'stopped');
      return true;
    },
    stopLink(linkId) {
      for (const entry of [...running.values()])
        if (entry.owner.linkId === linkId) stopEntry(entry, 'link_closed');
    },
    async close() {
      for (const entry of [...running.values()]) stopEntry(entry, 'stopped');
    },
  };
}
