/**
 * Pure helpers of the metrics machines (no zod, no DOM): the history a device answers to get-metrics-info
 * (src/protocol/metrics.ts: a layout reply and its progress chunks) checked and put together into columns,
 * live get-usages samples turned into points, the saving settings checked as the device will check them, and
 * the §9 device score.
 */

/** Chart ranges the tab offers, and their length in ms. */
export const METRICS_RANGES = { '1h': 3_600_000, '6h': 21_600_000, '24h': 86_400_000 } as const;
export type MetricsRange = keyof typeof METRICS_RANGES;
export const isMetricsRange = (r: unknown): r is MetricsRange =>
  typeof r === 'string' && Object.prototype.hasOwnProperty.call(METRICS_RANGES, r);

/** Buckets asked per range (≤ MAX_METRICS_POINTS = 2,000): about one per pixel of a wide chart. */
export const METRICS_POINTS = 1_000;
/** Live points kept beyond the history's end (at LIVE_POLL_MS, ~1 h). */
export const MAX_LIVE_POINTS = 1_200;
/** Mirrors of the contract's limits (src/protocol/metrics.ts) without importing zod. */
export const SETTINGS_LIMITS = { intervalMax: 3_600, retentionMax: 168, maxSamples: 172_800 } as const;

/** One series of the device's history: key ('cpu', 'memory', 'temperature', 'gpu<i>.util', 'gpu<i>.memory'). */
export interface SeriesInfo {
  key: string;
  unit: 'percent' | 'celsius';
  gpu: number | null;
  gpu_name: string | null;
}

/** How the device keeps its history (change-save-metrics-info). */
export interface SaveSettings {
  save: boolean;
  interval_s: number;
  retention_h: number;
}

/** The get-metrics-info reply (the layout; values came as chunks). */
export interface HistoryLayout {
  from: number;
  to: number;
  bucket_ms: number;
  buckets: number;
  series: SeriesInfo[];
  chunks: number;
  settings: SaveSettings;
  samples: number;
  oldest: number | null;
  newest: number | null;
}

/** One progress chunk: buckets offset … offset+count−1, per key [min[], avg[], max[]]. */
export interface HistoryChunk {
  offset: number;
  count: number;
  values: Record<string, [(number | null)[], (number | null)[], (number | null)[]]>;
}

/** A series' columns (null: no value), aligned with HistoryData.times. */
export interface SeriesColumns {
  min: (number | null)[];
  avg: (number | null)[];
  max: (number | null)[];
}

/** A range of history ready to draw: bucket start times (ms) and each series' columns. */
export interface HistoryData {
  from: number;
  to: number;
  bucketMs: number;
  times: number[];
  series: SeriesInfo[];
  columns: Record<string, SeriesColumns>;
  settings: SaveSettings;
  samples: number;
}

/** One live reading (get-usages) as series values. */
export interface LivePoint {
  time: number;
  values: Record<string, number | null>;
}

/** The part of get-usages a live point is made of. */
export interface UsagesLike {
  cpu: number;
  memory_used_mb: number;
  memory_total_mb: number;
  gpus: { name: string; utilisation: number; memory_used_mb: number; memory_total_mb: number }[];
  temperature_c: number | null;
}

const isColumn = (a: unknown, n: number): a is (number | null)[] =>
  Array.isArray(a) &&
  a.length === n &&
  a.every((v) => v === null || (typeof v === 'number' && Number.isFinite(v)));

/** `data` (a progress message's data) as a HistoryChunk, or null when it is not one. */
export function asHistoryChunk(data: unknown): HistoryChunk | null {
  if (typeof data !== 'object' || data === null) return null;
  const { offset, count, values } = data as Record<string, unknown>;
  if (
    !Number.isInteger(offset) ||
    !Number.isInteger(count) ||
    (offset as number) < 0 ||
    (count as number) < 0
  ) {
    return null;
  }
  if (typeof values !== 'object' || values === null) return null;
  for (const v of Object.values(values)) {
    if (!Array.isArray(v) || v.length !== 3 || !v.every((c) => isColumn(c, count as number))) return null;
  }
  return data as HistoryChunk;
}

/**
 * The layout and its chunks put together. Throws an Error ("The device answered the history incompletely.")
 * when chunks are missing, overlap or lack a series.
 */
export function assembleHistory(layout: HistoryLayout, chunks: readonly HistoryChunk[]): HistoryData {
  const n = layout.buckets;
  const incomplete = () => new Error('The device answered the history incompletely.');
  if (chunks.length !== layout.chunks) throw incomplete();
  const columns: Record<string, SeriesColumns> = {};
  for (const s of layout.series) {
    columns[s.key] = {
      min: new Array(n).fill(null),
      avg: new Array(n).fill(null),
      max: new Array(n).fill(null),
    };
  }
  let next = 0;
  for (const chunk of chunks) {
    if (chunk.offset !== next || chunk.offset + chunk.count > n) throw incomplete();
    for (const s of layout.series) {
      const v = chunk.values[s.key];
      if (!v) throw incomplete();
      const c = columns[s.key]!;
      for (let i = 0; i < chunk.count; i++) {
        c.min[chunk.offset + i] = v[0][i]!;
        c.avg[chunk.offset + i] = v[1][i]!;
        c.max[chunk.offset + i] = v[2][i]!;
      }
    }
    next += chunk.count;
  }
  if (next !== n) throw incomplete();
  return {
    from: layout.from,
    to: layout.to,
    bucketMs: layout.bucket_ms,
    times: Array.from({ length: n }, (_, i) => layout.from + i * layout.bucket_ms),
    series: layout.series,
    columns,
    settings: layout.settings,
    samples: layout.samples,
  };
}

const percent = (used: number, total: number) => (total > 0 ? Math.round((1_000 * used) / total) / 10 : null);

/** A get-usages answer at `time` (ms) as a live point keyed like the history's series. */
export function liveOf(u: UsagesLike, time: number): LivePoint {
  const values: Record<string, number | null> = {
    cpu: u.cpu,
    memory: percent(u.memory_used_mb, u.memory_total_mb),
    temperature: u.temperature_c,
  };
  u.gpus.slice(0, 4).forEach((g, i) => {
    values[`gpu${i}.util`] = g.utilisation;
    values[`gpu${i}.memory`] = percent(g.memory_used_mb, g.memory_total_mb);
  });
  return { time, values };
}

/** `points` with `point` added, the oldest dropped beyond MAX_LIVE_POINTS (a new array). */
export function appendLive(points: readonly LivePoint[], point: LivePoint): LivePoint[] {
  const out =
    points.length >= MAX_LIVE_POINTS ? points.slice(points.length - MAX_LIVE_POINTS + 1) : points.slice();
  out.push(point);
  return out;
}

/** Why the settings would be refused: a text key of the feature's i18n `settingsErrors.*`, or null when fine. */
export function settingsProblem(s: SaveSettings): 'interval' | 'retention' | 'tooMany' | null {
  if (!Number.isInteger(s.interval_s) || s.interval_s < 1 || s.interval_s > SETTINGS_LIMITS.intervalMax)
    return 'interval';
  if (!Number.isInteger(s.retention_h) || s.retention_h < 1 || s.retention_h > SETTINGS_LIMITS.retentionMax) {
    return 'retention';
  }
  if (Math.ceil((s.retention_h * 3_600) / s.interval_s) > SETTINGS_LIMITS.maxSamples) return 'tooMany';
  return null;
}

/**
 * §9 device score = 100 − (0.5 × GPU memory % + 0.3 × GPU utilisation + 0.2 × CPU %), for the device's
 * busiest GPU (the lowest score); with no GPU, the GPU terms are 0. Rounded to 0.1.
 */
export function deviceScore(u: UsagesLike): number {
  const scores = (u.gpus.length ? u.gpus : [null]).map((g) => {
    const mem = g && g.memory_total_mb > 0 ? (100 * g.memory_used_mb) / g.memory_total_mb : 0;
    return 100 - (0.5 * mem + 0.3 * (g?.utilisation ?? 0) + 0.2 * u.cpu);
  });
  return Math.round(Math.min(...scores) * 10) / 10;
}
