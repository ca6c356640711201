/**
 * The sim device's past (README "sim"): a believable history from `from` to `to` at `intervalMs`, ending near
 * the device's current usage, so the metrics tab and the bench have a day to show at once. Deterministic for a
 * seed (the device id): a daily cycle, slow random walks, short bursts of load; temperature follows the load.
 * 86,400 samples with 5 series take a few milliseconds.
 */
import { seededRandom } from '../backends/sim/random';
import type { MetricsRing } from './ring';

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));
const DAY_MS = 86_400_000;

/**
 * Appends samples at `from`, `from + intervalMs`, … < `to` to `ring`, around `current` (one value per ring
 * series, the device's usage now; NaN: a series the device lacks stays empty).
 */
export function backfill(
  ring: MetricsRing,
  from: number,
  to: number,
  intervalMs: number,
  current: ArrayLike<number>,
  seed: string,
): number {
  const random = seededRandom(seed);
  const n = ring.series.length;
  const walk = new Float64Array(n);
  const row = new Float32Array(n);
  let burst = 0;
  let added = 0;
  for (let t = from; t < to; t += intervalMs) {
    const day = Math.sin((2 * Math.PI * (t % DAY_MS)) / DAY_MS - Math.PI / 2); // low at midnight (UTC)
    if (burst > 0) burst -= intervalMs;
    else if (random() < intervalMs / 1_800_000) burst = 30_000 + random() * 240_000; // about one every 30 min
    const load = 8 * day + (burst > 0 ? 25 : 0);
    for (let c = 0; c < n; c++) {
      const base = current[c]!;
      if (Number.isNaN(base)) {
        row[c] = NaN;
        continue;
      }
      walk[c] = clamp(walk[c]! * 0.999 + (random() - 0.5) * 0.8, -15, 15);
      const key = ring.series[c]!.key;
      let v: number;
      if (key === 'temperature') v = base + 0.25 * load + walk[c]! * 0.3;
      else if (key === 'memory' || key.endsWith('.memory')) v = base + 0.3 * load + walk[c]! * 0.5;
      else v = base + load + walk[c]! + (random() - 0.5) * 6;
      row[c] = key === 'temperature' ? clamp(v, 20, 105) : clamp(v, 0, 100);
    }
    if (ring.push(t, row)) added++;
  }
  return added;
}
