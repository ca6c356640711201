/**
 * The metrics history's ring buffer (spec §7 get-metrics-info: "the device keeps history"): a fixed number of
 * samples, each a time (ms since the epoch, Float64Array) and one value per series (Float32Array per series;
 * NaN = no value). 24 h of 1 s samples with 5 series is 86,400 × (8 + 5 × 4) B ≈ 2.4 MB. Times only grow: a
 * sample not newer than the newest is refused (a clock step back).
 */
import type { MetricsSeries, Usages } from './types';

export class MetricsRing {
  private times: Float64Array;
  private columns: Float32Array[];
  /** Physical index of the oldest sample. */
  private head = 0;
  private size = 0;

  constructor(
    /** The series, in column order. */
    readonly series: readonly MetricsSeries[],
    capacity: number,
  ) {
    const cap = Math.max(1, Math.floor(capacity));
    this.times = new Float64Array(cap);
    this.columns = series.map(() => new Float32Array(cap));
  }

  get capacity(): number {
    return this.times.length;
  }
  /** Samples kept. */
  get count(): number {
    return this.size;
  }
  /** Time of the i-th oldest sample (0 ≤ i < count), ms. */
  timeAt(i: number): number {
    return this.times[(this.head + i) % this.times.length]!;
  }
  /** Value of series column `c` of the i-th oldest sample (NaN: none). */
  valueAt(c: number, i: number): number {
    return this.columns[c]![(this.head + i) % this.times.length]!;
  }
  get oldest(): number | null {
    return this.size ? this.timeAt(0) : null;
  }
  get newest(): number | null {
    return this.size ? this.timeAt(this.size - 1) : null;
  }

  /**
   * Appends a sample at `time` (ms) with one value per series (missing/NaN: none); the oldest falls out when
   * full. Returns false (and keeps nothing) when `time` is not after the newest sample or not finite.
   */
  push(time: number, values: ArrayLike<number>): boolean {
    if (!Number.isFinite(time)) return false;
    const newest = this.newest;
    if (newest !== null && time <= newest) return false;
    const cap = this.times.length;
    let at: number;
    if (this.size < cap) {
      at = (this.head + this.size) % cap;
      this.size++;
    } else {
      at = this.head;
      this.head = (this.head + 1) % cap;
    }
    this.times[at] = time;
    for (let c = 0; c < this.columns.length; c++) {
      const v = c < values.length ? values[c]! : NaN;
      this.columns[c]![at] = Number.isFinite(v) ? v : NaN;
    }
    return true;
  }

  /** Drops samples older than `time` (ms). */
  dropBefore(time: number): void {
    const keep = this.size - this.firstAtOrAfter(time);
    if (keep < this.size) {
      this.head = (this.head + (this.size - keep)) % this.times.length;
      this.size = keep;
    }
  }

  /** Index (0 = oldest) of the first sample at or after `time`; `count` when none. Binary search. */
  firstAtOrAfter(time: number): number {
    let lo = 0;
    let hi = this.size;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.timeAt(mid) < time) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** A ring of `capacity` (and `series`, matched by key; new ones empty) holding the newest samples of this one. */
  resized(capacity: number, series: readonly MetricsSeries[] = this.series): MetricsRing {
    const next = new MetricsRing(series, capacity);
    const from = Math.max(0, this.size - next.capacity);
    const map = series.map((s) => this.series.findIndex((o) => o.key === s.key));
    const row = new Float32Array(series.length);
    for (let i = from; i < this.size; i++) {
      for (let c = 0; c < map.length; c++) row[c] = map[c]! >= 0 ? this.valueAt(map[c]!, i) : NaN;
      next.push(this.timeAt(i), row);
    }
    return next;
  }

  /** The kept samples, oldest first: times and one array per series (copies). */
  toArrays(): { times: Float64Array; columns: Float32Array[] } {
    const times = new Float64Array(this.size);
    const columns = this.columns.map(() => new Float32Array(this.size));
    for (let i = 0; i < this.size; i++) {
      const p = (this.head + i) % this.times.length;
      times[i] = this.times[p]!;
      for (let c = 0; c < columns.length; c++) columns[c]![i] = this.columns[c]![p]!;
    }
    return { times, columns };
  }
}

/** The series a device with these usages records: cpu, memory, temperature, then each GPU's (≤ 4). */
export function seriesFor(usages: Pick<Usages, 'gpus'>, maxGpus: number): MetricsSeries[] {
  const series: MetricsSeries[] = [
    { key: 'cpu', unit: 'percent', gpu: null, gpu_name: null },
    { key: 'memory', unit: 'percent', gpu: null, gpu_name: null },
    { key: 'temperature', unit: 'celsius', gpu: null, gpu_name: null },
  ];
  usages.gpus.slice(0, maxGpus).forEach((g, i) => {
    const name = g.name.slice(0, 200);
    series.push({ key: `gpu${i}.util`, unit: 'percent', gpu: i, gpu_name: name });
    series.push({ key: `gpu${i}.memory`, unit: 'percent', gpu: i, gpu_name: name });
  });
  return series;
}

const percent = (used: number, total: number) => (total > 0 ? (100 * used) / total : NaN);

/** One sample's values in the order of `series` (NaN where the usages have none). */
export function sampleValues(series: readonly MetricsSeries[], u: Usages): Float32Array {
  const out = new Float32Array(series.length);
  series.forEach((s, c) => {
    let v = NaN;
    if (s.key === 'cpu') v = u.cpu;
    else if (s.key === 'memory') v = percent(u.memory_used_mb, u.memory_total_mb);
    else if (s.key === 'temperature') v = u.temperature_c ?? NaN;
    else if (s.gpu !== null) {
      const g = u.gpus[s.gpu];
      if (g) v = s.key.endsWith('.util') ? g.utilisation : percent(g.memory_used_mb, g.memory_total_mb);
    }
    out[c] = v;
  });
  return out;
}
