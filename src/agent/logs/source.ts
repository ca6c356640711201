/**
 * What the logs part reads from: a *catalogue* of topics and subtopics (§3 Log info) that opens one *source*
 * per log. Two catalogues: `host.ts` (real files, fs watching) and `sim.ts` (generated lines).
 */
import type { LogTopic } from '../../protocol/logs';
import { LOG_TEXTS } from '../../protocol/logs';

/** A failure the console shows: `not_found` (§8 "No log file found") or `log_changed` (§8 "Log file modified or deleted"). */
export class LogSourceError extends Error {
  constructor(
    readonly code: 'not_found' | 'log_changed' | 'busy',
    message: string,
  ) {
    super(message);
    this.name = 'LogSourceError';
  }
}

/** §8 "No log file found", with what was asked. */
export const noLogFile = (topic: string, subtopic: string): LogSourceError =>
  new LogSourceError('not_found', `${LOG_TEXTS.noLogFile}: ${topic}/${subtopic}`);

/** §8 "Log file modified or deleted", with what happened. */
export const logChanged = (detail: string): LogSourceError =>
  new LogSourceError('log_changed', `${LOG_TEXTS.logChanged}: ${detail}`);

/** One opened log. Lines are given without their line ending. */
export interface LogSource {
  /** The last `count` lines up to the moment the source was opened, oldest first. */
  tail(count: number): Promise<string[]>;
  /**
   * Sends every line written after the moment the source was opened (none lost, none repeated after `tail`)
   * to `onLines` until the returned stop function is called. A truncation, rotation or deletion calls
   * `onError` with a `log_changed` LogSourceError once, after the lines still readable; nothing follows it.
   */
  follow(onLines: (lines: string[]) => void, onError: (err: LogSourceError) => void): () => void;
  /** Releases what the source holds (file handles); idempotent. */
  close(): Promise<void>;
}

/** Options of one open (sim only: `simRate` lines/s). */
export interface OpenOptions {
  simRate?: number;
}

export interface LogCatalogue {
  /** The topics and subtopics there are now, topics in a fixed order, subtopics sorted. */
  topics(): Promise<LogTopic[]>;
  /** Opens topic/subtopic; rejects with `noLogFile` when it is not in `topics()` or cannot be read. */
  open(topic: string, subtopic: string, options: OpenOptions): Promise<LogSource>;
}
