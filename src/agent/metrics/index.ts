/**
 * The device's metrics history (§7 "Health and metrics": get-metrics-info; "Settings changes":
 * change-save-metrics-info; §3 usage data). Samples the backend's usages (the numbers get-usages answers) every
 * `interval_s` into a ring buffer (ring.ts) of `retention_h` hours, persists it compactly to `stateDir`
 * (persist.ts) every PERSIST_EVERY_MS and on close, restores it on start, and answers ranges downsampled
 * (downsample.ts). `host`: real samples only. `sim`: on start, the hours missing from the retention window
 * are backfilled with a believable past (simHistory.ts).
 */
import {
  MAX_METRICS_GPUS,
  MAX_METRICS_SAMPLES,
  METRICS_ERROR_CODES,
  METRICS_TEXTS,
  samplesFor,
} from '../../protocol/metrics';
import { errorMessage } from '../log';
import type { AgentPartDeps } from '../parts';
import { downsample, toChunks } from './downsample';
import {
  decodeHistory,
  decodeSettings,
  encodeHistory,
  HISTORY_FILE,
  readIfExists,
  SETTINGS_FILE,
  writeAtomic,
} from './persist';
import { MetricsRing, sampleValues, seriesFor } from './ring';
import { backfill } from './simHistory';
import type { MetricsChunk, MetricsSeries, SaveMetricsSettings } from './types';

/** How often a changed history is written to stateDir, ms. */
export const PERSIST_EVERY_MS = 60_000;

/** Defaults: sim samples every second (cheap); host every 5 s (each sample reads /proc and nvidia-smi). */
export const DEFAULT_SETTINGS = {
  sim: { save: true, interval_s: 1, retention_h: 24 },
  host: { save: true, interval_s: 5, retention_h: 24 },
} as const satisfies Record<string, SaveMetricsSettings>;

/** A refusal with a code of METRICS_ERROR_CODES (the handlers answer it as a CommandError). */
export class MetricsError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'MetricsError';
  }
}

/** A range of the history, downsampled, as get-metrics-info answers it (values in `chunks`). */
export interface MetricsAnswer {
  from: number;
  to: number;
  bucket_ms: number;
  buckets: number;
  series: MetricsSeries[];
  chunks: MetricsChunk[];
  settings: SaveMetricsSettings;
  samples: number;
  oldest: number | null;
  newest: number | null;
}

export interface MetricsHistory {
  /** Settles when the history is restored (and, in sim, backfilled); never rejects. */
  readonly ready: Promise<void>;
  /** The settings in force. */
  settings(): SaveMetricsSettings;
  /** Applies and persists new settings (restarting the sampling timer). Throws MetricsError too_many_samples. */
  setSettings(next: SaveMetricsSettings): Promise<SaveMetricsSettings>;
  /** `from` … `to` (ms, to > from, else MetricsError bad_range) in ≤ maxPoints buckets. */
  query(from: number, to: number, maxPoints: number): MetricsAnswer;
  /** Takes one sample now (what the timer does), whatever `save` says. */
  sampleNow(): Promise<void>;
  /** Writes the history and settings to stateDir now. */
  flush(): Promise<void>;
  /** Stops sampling and writes the history; idempotent. */
  close(): Promise<void>;
}

export interface MetricsHistoryOptions {
  /** Clock, ms since the epoch (tests). */
  now?: () => number;
  /** Sample on a timer (default true; tests call sampleNow). */
  timers?: boolean;
}

export function createMetricsHistory(
  deps: AgentPartDeps,
  options: MetricsHistoryOptions = {},
): MetricsHistory {
  const now = options.now ?? Date.now;
  const timers = options.timers ?? true;
  const { backend, log, stateDir } = deps;
  let settings: SaveMetricsSettings = { ...DEFAULT_SETTINGS[deps.mode] };
  let ring = new MetricsRing([], 1);
  let dirty = false;
  let closed = false;
  let sampling = false;
  let sampleTimer: NodeJS.Timeout | undefined;
  let persistTimer: NodeJS.Timeout | undefined;
  let writing: Promise<void> = Promise.resolve();

  const capacity = () => Math.min(MAX_METRICS_SAMPLES, samplesFor(settings));

  async function sample(): Promise<void> {
    if (sampling || closed) return;
    sampling = true;
    try {
      const usages = await backend.usages(0);
      const series = seriesFor(usages, MAX_METRICS_GPUS);
      if (series.length !== ring.series.length || series.some((s, i) => s.key !== ring.series[i]!.key)) {
        ring = ring.resized(capacity(), series); // a GPU appeared or went away
      }
      if (ring.push(now(), sampleValues(ring.series, usages))) dirty = true;
    } catch (err) {
      log.warn(`metrics: sample failed: ${errorMessage(err)}`);
    } finally {
      sampling = false;
    }
  }

  function persist(): Promise<void> {
    const run = async () => {
      if (!dirty) return;
      dirty = false;
      try {
        await writeAtomic(stateDir, HISTORY_FILE, encodeHistory(ring));
      } catch (err) {
        dirty = true;
        log.warn(`metrics: history not saved: ${errorMessage(err)}`);
      }
    };
    writing = writing.then(run, run);
    return writing;
  }

  function schedule(): void {
    clearInterval(sampleTimer);
    sampleTimer = undefined;
    if (!timers || closed || !settings.save) return;
    sampleTimer = setInterval(() => void sample(), settings.interval_s * 1_000);
    sampleTimer.unref();
  }

  async function start(): Promise<void> {
    try {
      const saved = await readIfExists(stateDir, SETTINGS_FILE);
      if (saved) settings = decodeSettings(saved) ?? settings;
    } catch (err) {
      log.warn(`metrics: settings not read: ${errorMessage(err)}`);
    }
    try {
      const data = await readIfExists(stateDir, HISTORY_FILE);
      if (data) ring = decodeHistory(data, capacity());
    } catch (err) {
      log.warn(`metrics: saved history not used (${errorMessage(err)}); starting empty`);
    }
    try {
      const usages = await backend.usages(0);
      const series = seriesFor(usages, MAX_METRICS_GPUS);
      ring = ring.resized(capacity(), series);
      const at = now();
      ring.dropBefore(at - settings.retention_h * 3_600_000);
      if (deps.mode === 'sim') {
        const step = settings.interval_s * 1_000;
        const from = Math.max(at - settings.retention_h * 3_600_000, (ring.newest ?? -Infinity) + step);
        const current = sampleValues(series, usages);
        if (backfill(ring, from, at, step, current, deps.deviceId) > 0) dirty = true;
      }
      if (ring.push(at, sampleValues(series, usages))) dirty = true;
    } catch (err) {
      log.warn(`metrics: first sample failed: ${errorMessage(err)}`);
    }
    if (closed) return;
    schedule();
    if (timers) {
      persistTimer = setInterval(() => void persist(), PERSIST_EVERY_MS);
      persistTimer.unref();
    }
  }

  const ready = start();

  return {
    ready,
    settings: () => ({ ...settings }),

    async setSettings(next) {
      await ready;
      const max = MAX_METRICS_SAMPLES;
      if (samplesFor(next) > max) {
        throw new MetricsError(
          METRICS_ERROR_CODES.tooManySamples,
          METRICS_TEXTS.tooManySamples.replace('{max}', String(max)),
        );
      }
      settings = { save: next.save, interval_s: next.interval_s, retention_h: next.retention_h };
      ring = ring.resized(capacity());
      ring.dropBefore(now() - settings.retention_h * 3_600_000);
      dirty = true;
      schedule();
      await writeAtomic(stateDir, SETTINGS_FILE, JSON.stringify(settings));
      return { ...settings };
    },

    query(from, to, maxPoints) {
      if (!(to > from)) throw new MetricsError(METRICS_ERROR_CODES.badRange, METRICS_TEXTS.badRange);
      const d = downsample(ring, from, to, maxPoints, settings.interval_s * 1_000);
      return {
        from,
        to,
        bucket_ms: d.bucketMs,
        buckets: d.buckets,
        series: ring.series.map((s) => ({ ...s })),
        chunks: toChunks(
          d,
          ring.series.map((s) => s.key),
        ),
        settings: { ...settings },
        samples: ring.count,
        oldest: ring.oldest,
        newest: ring.newest,
      };
    },

    sampleNow: sample,

    async flush() {
      await ready;
      dirty = true;
      await persist();
    },

    async close() {
      if (closed) return;
      closed = true;
      clearInterval(sampleTimer);
      clearInterval(persistTimer);
      await ready;
      await persist();
    },
  };
}
