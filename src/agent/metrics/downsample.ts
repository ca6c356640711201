/**
 * Downsampling of the metrics history for get-metrics-info (src/protocol/metrics.ts): a time range cut into at
 * most `maxPoints` equal buckets, each series' min / avg / max per bucket, and the answer cut into progress
 * chunks that each fit one link message (METRICS_CHUNK_NUMBERS numbers).
 */
import { METRICS_CHUNK_NUMBERS } from '../../protocol/metrics';
import type { MetricsRing } from './ring';
import type { MetricsChunk } from './types';

/** A downsampled range: bucket i covers from + i × bucketMs … + bucketMs; per series min/avg/max (NaN: none). */
export interface Downsampled {
  from: number;
  to: number;
  bucketMs: number;
  buckets: number;
  min: Float32Array[];
  avg: Float32Array[];
  max: Float32Array[];
}

/**
 * Buckets of `ring`'s samples in [from, to] (ms). The bucket width is at least `minBucketMs` (the sample
 * interval), so there are at most min(maxPoints, ⌈(to − from) / minBucketMs⌉) buckets. Requires to > from.
 * One pass over the samples in range: a day of 1 s samples takes a few milliseconds.
 */
export function downsample(
  ring: MetricsRing,
  from: number,
  to: number,
  maxPoints: number,
  minBucketMs: number,
): Downsampled {
  const span = to - from;
  const wanted = Math.max(1, Math.min(maxPoints, Math.ceil(span / Math.max(1, minBucketMs))));
  const bucketMs = Math.max(1, Math.ceil(span / wanted));
  const buckets = Math.max(1, Math.ceil(span / bucketMs));
  const n = ring.series.length;
  const min = Array.from({ length: n }, () => new Float32Array(buckets).fill(NaN));
  const max = Array.from({ length: n }, () => new Float32Array(buckets).fill(NaN));
  const sum = Array.from({ length: n }, () => new Float64Array(buckets));
  const cnt = Array.from({ length: n }, () => new Uint32Array(buckets));
  for (let i = ring.firstAtOrAfter(from); i < ring.count; i++) {
    const t = ring.timeAt(i);
    if (t > to) break;
    const b = Math.min(buckets - 1, Math.floor((t - from) / bucketMs));
    for (let c = 0; c < n; c++) {
      const v = ring.valueAt(c, i);
      if (Number.isNaN(v)) continue;
      if (!(min[c]![b]! <= v)) min[c]![b] = v;
      if (!(max[c]![b]! >= v)) max[c]![b] = v;
      sum[c]![b]! += v;
      cnt[c]![b]!++;
    }
  }
  const avg = sum.map((s, c) => {
    const out = new Float32Array(buckets);
    for (let b = 0; b < buckets; b++) out[b] = cnt[c]![b] ? s[b]! / cnt[c]![b]! : NaN;
    return out;
  });
  return { from, to, bucketMs, buckets, min, avg, max };
}

/** A value as it travels: rounded to 0.1 and clamped to [−999.9, 999.9]; null for none. */
export function wireValue(v: number): number | null {
  if (Number.isNaN(v)) return null;
  const r = Math.round(Math.min(999.9, Math.max(-999.9, v)) * 10) / 10;
  return r === 0 ? 0 : r;
}

/** The downsampled values as progress chunks (in order), each at most METRICS_CHUNK_NUMBERS numbers. */
export function toChunks(d: Downsampled, keys: readonly string[]): MetricsChunk[] {
  const perRow = Math.max(1, 3 * keys.length);
  const rows = Math.max(1, Math.floor(METRICS_CHUNK_NUMBERS / perRow));
  const chunks: MetricsChunk[] = [];
  const cut = (a: Float32Array, start: number, end: number) => Array.from(a.subarray(start, end), wireValue);
  for (let offset = 0; offset < d.buckets; offset += rows) {
    const end = Math.min(d.buckets, offset + rows);
    const values: MetricsChunk['values'] = {};
    keys.forEach((key, c) => {
      values[key] = [cut(d.min[c]!, offset, end), cut(d.avg[c]!, offset, end), cut(d.max[c]!, offset, end)];
    });
    chunks.push({ offset, count: end - offset, values });
  }
  return chunks;
}
