/** §9 device score and the choice of device (machines/engines/engineView.ts); the download percent rule. */
import { describe, expect, it } from 'vitest';
import { chooseDevice, nextPercent, scoresOf, type UsagesLike } from '../../../machines/engines/engineView';

const usage = (cpu: number, gpus: [number, number, number][]): UsagesLike => ({
  cpu,
  memory_used_mb: 0,
  memory_total_mb: 0,
  gpus: gpus.map(([utilisation, used, total]) => ({
    name: 'g',
    utilisation,
    memory_used_mb: used,
    memory_total_mb: total,
  })),
  temperature_c: null,
});

describe('§9 device score', () => {
  it('is 100 − (0.5 × GPU memory % + 0.3 × GPU utilisation + 0.2 × CPU)', () => {
    // memory 25 %, utilisation 40 %, CPU 50 % → 100 − (12.5 + 12 + 10) = 65.5
    expect(scoresOf(['a'], { a: usage(50, [[40, 1024, 4096]]) })).toEqual([{ deviceId: 'a', score: 65.5 }]);
    // No GPU: the GPU terms are 0.
    expect(scoresOf(['b'], { b: usage(30, []) })[0]!.score).toBe(94);
    // Several GPUs: the busiest counts.
    expect(
      scoresOf(['c'], {
        c: usage(0, [
          [0, 0, 100],
          [100, 100, 100],
        ]),
      })[0]!.score,
    ).toBe(20);
    expect(scoresOf(['d'], {})).toEqual([{ deviceId: 'd', score: null }]);
  });

  it('chooses the lowest score (§9), the first on a tie, none without scores', () => {
    expect(
      chooseDevice([
        { deviceId: 'a', score: 80 },
        { deviceId: 'b', score: 35.5 },
        { deviceId: 'c', score: null },
        { deviceId: 'd', score: 60 },
      ]),
    ).toBe('b');
    expect(
      chooseDevice([
        { deviceId: 'a', score: 50 },
        { deviceId: 'b', score: 50 },
      ]),
    ).toBe('a');
    expect(chooseDevice([{ deviceId: 'a', score: null }])).toBeNull();
    expect(chooseDevice([])).toBeNull();
  });

  it('never moves a download bar back and clamps to 0..100', () => {
    expect(nextPercent(null, 12)).toBe(12);
    expect(nextPercent(40, 20)).toBe(40);
    expect(nextPercent(40, 140)).toBe(100);
    expect(nextPercent(null, Number.NaN)).toBe(0);
  });
});
