/**
 * A seeded pseudo-random generator (mulberry32) for the fuzz harness: the same seed yields the same cases,
 * so a failure printed with its seed and case number can be replayed.
 */
export class Rng {
  private state: number;

  constructor(readonly seed: number) {
    this.state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [min, max] (both included). */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }

  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from an empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** A string of `length` characters drawn from `alphabet`. */
  string(length: number, alphabet = 'abcdefghijklmnopqrstuvwxyz0123456789'): string {
    let s = '';
    for (let i = 0; i < length; i++) s += alphabet[Math.floor(this.next() * alphabet.length)];
    return s;
  }

  /** A child generator: its own sequence, derived from this one (cases stay reproducible by number). */
  fork(salt: number): Rng {
    return new Rng((this.seed ^ Math.imul(salt + 1, 0x9e3779b1)) >>> 0);
  }
}

/** A seed from FUZZ_SEED, or a fresh one. */
export function seedFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const given = env.FUZZ_SEED ? Number(env.FUZZ_SEED) : NaN;
  return Number.isInteger(given) ? given >>> 0 : Math.floor(Math.random() * 2 ** 32);
}
