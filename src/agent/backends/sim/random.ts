/**
 * Deterministic pseudo-random numbers for the simulated device (scenes, log lines, metrics history): the same
 * seed gives the same sequence, so a sim device looks the same after a restart. Not for anything secret.
 */

/** mulberry32: numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** mulberry32 seeded from a string (e.g. a device id). */
export function seededRandom(seed: string): () => number {
  let a = 0x9e3779b9;
  for (let i = 0; i < seed.length; i++) a = Math.imul(a ^ seed.charCodeAt(i), 0x85ebca6b) >>> 0;
  return mulberry32(a);
}
