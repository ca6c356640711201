/** Percentiles of a bench's samples (nearest rank), in the samples' unit, rounded to 3 decimals. */
export interface Stats {
  p50: number;
  p95: number;
  min: number;
  max: number;
  n: number;
}

/** Nearest-rank p50/p95 with min, max and count; NaN fields for no samples. */
export function stats(samples: number[]): Stats {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.max(0, Math.ceil(q * s.length) - 1))] ?? NaN;
  const round = (x: number) => Math.round(x * 1000) / 1000;
  return {
    p50: round(at(0.5)),
    p95: round(at(0.95)),
    min: round(s[0] ?? NaN),
    max: round(s.at(-1) ?? NaN),
    n: s.length,
  };
}
