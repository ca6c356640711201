/**
 * The metrics feature's device commands (§7 "Health and metrics": get-metrics-info; "Settings changes":
 * change-save-metrics-info; §3 device live data: usage data, jtop / x86Metrics). The device keeps a history of
 * its usage (the numbers get-usages answers, sampled every `interval_s`) for `retention_h` hours; the console
 * asks it for a time range at a resolution and draws it. Shapes the spec does not give ("not shown") are ours,
 * documented field by field with units.
 *
 * Series (keys of MetricsSeries): 'cpu' (%), 'memory' (% of RAM used), 'temperature' (°C; null when the device
 * has no sensor), and per GPU i (0…MAX_METRICS_GPUS−1) 'gpu<i>.util' (%) and 'gpu<i>.memory' (% of its memory).
 */
import { z } from 'zod';
import { defineCommands } from './command';

/** GPUs a history keeps (more are not recorded). */
export const MAX_METRICS_GPUS = 4;
/** Most buckets one get-metrics-info answers. */
export const MAX_METRICS_POINTS = 2_000;
/** Most samples a history keeps (2 days of 1 s samples): retention_h × 3600 / interval_s may not exceed it. */
export const MAX_METRICS_SAMPLES = 172_800;
/**
 * Most numbers (min, avg and max values together) one progress chunk of get-metrics-info carries. Every value
 * is rounded to 0.1 and clamped to [−999.9, 999.9], so it prints in at most 6 characters plus a comma: a chunk
 * stays under ~12 KB, below the link's ~16 KB message limit.
 */
export const METRICS_CHUNK_NUMBERS = 1_700;

/** Texts of the feature's coded refusals (en; the console shows them as the device says). */
export const METRICS_TEXTS = {
  badRange: 'The end of the range must come after its start.',
  tooManySamples:
    'The history would keep more than {max} samples: choose a longer interval or a shorter retention.',
} as const;

/** Error codes of the feature beyond LINK_ERROR_CODES. */
export const METRICS_ERROR_CODES = { badRange: 'bad_range', tooManySamples: 'too_many_samples' } as const;

/** What a series measures: its unit. */
export const SeriesUnit = z.enum(['percent', 'celsius']);
export type SeriesUnit = z.infer<typeof SeriesUnit>;

/** One recorded series: `key` (see the module doc), unit, and for GPU series the GPU's name and index. */
export const MetricsSeries = z.object({
  key: z.string().regex(/^(cpu|memory|temperature|gpu[0-3]\.(util|memory))$/),
  unit: SeriesUnit,
  /** GPU index for 'gpu<i>.*' keys, null otherwise. */
  gpu: z.number().int().min(0).max(3).nullable(),
  /** The GPU's name (get-usages gpus[i].name) for GPU series, null otherwise. */
  gpu_name: z.string().max(200).nullable(),
});
export type MetricsSeries = z.infer<typeof MetricsSeries>;

/** How the device keeps its history (change-save-metrics-info). */
export const SaveMetricsSettings = z.object({
  /** Whether the device samples and keeps its metrics. Off: sampling stops, the kept history stays. */
  save: z.boolean(),
  /** Seconds between samples, 1–3600. */
  interval_s: z.number().int().min(1).max(3_600),
  /** Hours of history kept, 1–168; retention_h × 3600 / interval_s ≤ MAX_METRICS_SAMPLES. */
  retention_h: z.number().int().min(1).max(168),
});
export type SaveMetricsSettings = z.infer<typeof SaveMetricsSettings>;

/** Samples a history of these settings keeps. */
export const samplesFor = (s: Pick<SaveMetricsSettings, 'interval_s' | 'retention_h'>): number =>
  Math.ceil((s.retention_h * 3_600) / s.interval_s);

/** A value per bucket; null where the bucket has no sample (or the series no value). */
const Column = z.array(z.number().nullable()).max(MAX_METRICS_POINTS);

/**
 * One progress message of get-metrics-info: buckets `offset` … `offset + count − 1` of the answer. For each
 * series key (in the reply's `series` order) `[min[], avg[], max[]]`, each `count` long.
 */
export const MetricsChunk = z.object({
  offset: z.number().int().min(0),
  count: z.number().int().min(0).max(MAX_METRICS_POINTS),
  values: z.record(z.string(), z.tuple([Column, Column, Column])),
});
export type MetricsChunk = z.infer<typeof MetricsChunk>;

export const metricsCommands = defineCommands({
  /**
   * The kept history of `from` … `to` (ms since the epoch; default: the last hour up to now), downsampled on
   * the device into `buckets` ≤ `maxPoints` equal buckets of `bucket_ms` (bucket i covers
   * `from + i × bucket_ms` … + bucket_ms) with each series' min / avg / max per bucket.
   * The values travel as progress messages (MetricsChunk, each ≤ METRICS_CHUNK_NUMBERS numbers so each stays
   * under the link's ~16 KB message limit), in order, before the reply; the reply gives the layout and
   * `chunks`, how many were sent, so the caller knows it has them all. A day of 1 s samples at 1,000 points
   * is about 9 chunks. The reply also carries the history's settings and extent.
   * Errors: invalid_payload (schema), bad_range (to ≤ from).
   */
  'get-metrics-info': {
    request: z
      .object({
        /** Start of the range, ms since the epoch (default: to − 1 h). */
        from: z.number().int().min(0).max(8.64e15).optional(),
        /** End of the range, ms since the epoch (default: now). */
        to: z.number().int().min(0).max(8.64e15).optional(),
        /** Most buckets wanted, 1–MAX_METRICS_POINTS (default 1,000). */
        maxPoints: z.number().int().min(1).max(MAX_METRICS_POINTS).default(1_000),
      })
      .strict(),
    reply: z.object({
      from: z.number(),
      to: z.number(),
      /** Width of one bucket, ms (≥ the sample interval, so a bucket is never narrower than a sample). */
      bucket_ms: z.number().int().min(1),
      buckets: z.number().int().min(0).max(MAX_METRICS_POINTS),
      series: z.array(MetricsSeries).max(3 + 2 * MAX_METRICS_GPUS),
      /** Progress messages (MetricsChunk) sent before this reply. */
      chunks: z.number().int().min(0),
      settings: SaveMetricsSettings,
      /** Samples kept now, and the time of the oldest and newest (ms since the epoch; null when none). */
      samples: z.number().int().min(0),
      oldest: z.number().nullable(),
      newest: z.number().nullable(),
    }),
  },
  /**
   * Sets how the device keeps its history (§7 "Settings changes"), persisted on the device; answers the
   * settings now in force. A shorter retention drops the oldest samples at once; a longer one keeps them all.
   * Errors: invalid_payload (out of range), too_many_samples (retention_h × 3600 / interval_s >
   * MAX_METRICS_SAMPLES).
   */
  'change-save-metrics-info': {
    request: SaveMetricsSettings.strict(),
    reply: z.object({ settings: SaveMetricsSettings }),
  },
});
