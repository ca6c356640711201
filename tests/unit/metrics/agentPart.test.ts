/**
 * The agent's metrics history (src/agent/metrics/): the ring buffer, downsampling and chunking, the binary
 * file's round trip (and a corrupt file), settings persisted, the sim's 24 h backfill, and real samples of
 * this machine through the host backend.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHostBackend } from '../../../src/agent/backends/host/backend';
import { createSimBackend } from '../../../src/agent/backends/sim/backend';
import type { Backend, Usages } from '../../../src/agent/backends/types';
import type { Logger } from '../../../src/agent/log';
import { silentLogger } from '../../../src/agent/log';
import {
  createMetricsHistory,
  DEFAULT_SETTINGS,
  MetricsError,
  type MetricsHistory,
} from '../../../src/agent/metrics';
import { downsample, toChunks, wireValue } from '../../../src/agent/metrics/downsample';
import {
  decodeHistory,
  encodeHistory,
  HISTORY_FILE,
  SETTINGS_FILE,
} from '../../../src/agent/metrics/persist';
import { MetricsRing, sampleValues, seriesFor } from '../../../src/agent/metrics/ring';
import { MetricsChunk, METRICS_CHUNK_NUMBERS } from '../../../src/protocol/metrics';

const dirs: string[] = [];
const parts: MetricsHistory[] = [];
afterEach(async () => {
  for (const p of parts.splice(0)) await p.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function stateDir(): string {
  const d = mkdtempSync(path.join(os.tmpdir(), 'metrics-test-'));
  dirs.push(d);
  return d;
}

const usage = (cpu: number, gpus = 1): Usages => ({
  cpu,
  memory_used_mb: 2_000,
  memory_total_mb: 8_000,
  gpus: Array.from({ length: gpus }, (_, i) => ({
    name: `GPU ${i}`,
    utilisation: cpu / 2,
    memory_used_mb: 1_000,
    memory_total_mb: 4_000,
  })),
  temperature_c: 40 + cpu / 10,
});

/** A backend whose usages are `next` (cpu changes per call). */
function fakeBackend(start = 10): Backend & { cpu: number } {
  const b = {
    name: 'host' as const,
    kind: 'x86' as const,
    cameras: [],
    cpu: start,
    usages: async () => usage(b.cpu),
    systemInformation: async () => {
      throw new Error('unused');
    },
    jtop: async () => {
      throw new Error('unused');
    },
    close: async () => undefined,
  };
  return b;
}

function part(
  dir: string,
  backend: Backend,
  mode: 'host' | 'sim',
  clock: { t: number },
  log: Logger = silentLogger,
) {
  const p = createMetricsHistory(
    { mode, backend, deviceId: 'dev-1', label: 'Dev', stateDir: dir, log, broadcast: () => undefined },
    { now: () => clock.t, timers: false },
  );
  parts.push(p);
  return p;
}

const SERIES = seriesFor(usage(0, 1), 4);

describe('metrics ring buffer', () => {
  it('keeps the newest samples in order, refuses times that do not grow, and finds times by binary search', () => {
    const ring = new MetricsRing(SERIES, 5);
    for (let i = 0; i < 8; i++) expect(ring.push(1_000 * i, [i, i, i, i, i])).toBe(true);
    expect(ring.push(7_000, [1, 1, 1, 1, 1])).toBe(false);
    expect(ring.push(NaN, [1])).toBe(false);
    expect(ring.count).toBe(5);
    expect([ring.oldest, ring.newest]).toEqual([3_000, 7_000]);
    expect(Array.from({ length: 5 }, (_, i) => ring.valueAt(0, i))).toEqual([3, 4, 5, 6, 7]);
    expect(ring.firstAtOrAfter(4_500)).toBe(2);
    expect(ring.firstAtOrAfter(0)).toBe(0);
    expect(ring.firstAtOrAfter(9_000)).toBe(5);
    ring.dropBefore(5_000);
    expect([ring.count, ring.oldest]).toEqual([3, 5_000]);
    const smaller = ring.resized(2);
    expect([smaller.count, smaller.oldest, smaller.newest]).toEqual([2, 6_000, 7_000]);
  });

  it('maps usages to percent and °C, with NaN for what is missing', () => {
    const v = sampleValues(SERIES, { ...usage(50), temperature_c: null });
    expect(SERIES.map((s) => s.key)).toEqual(['cpu', 'memory', 'temperature', 'gpu0.util', 'gpu0.memory']);
    expect(Array.from(v)).toEqual([50, 25, NaN, 25, 25]);
    expect(seriesFor(usage(0, 6), 4)).toHaveLength(3 + 8);
  });

  it('resizing to new series keeps values by key and leaves new series empty', () => {
    const ring = new MetricsRing(seriesFor(usage(0, 0), 4), 10);
    ring.push(1, [1, 2, 3]);
    const grown = ring.resized(10, SERIES);
    expect([grown.valueAt(0, 0), grown.valueAt(2, 0), grown.valueAt(3, 0)]).toEqual([1, 3, NaN]);
  });
});

describe('downsampling', () => {
  it('gives min, avg and max per bucket, and nothing for empty buckets', () => {
    const ring = new MetricsRing(SERIES, 100);
    for (let t = 0; t < 10; t++) ring.push(t * 1_000, [t, 0, 0, 0, 0]);
    const d = downsample(ring, 0, 20_000, 4, 1_000);
    expect([d.buckets, d.bucketMs]).toEqual([4, 5_000]);
    expect(Array.from(d.min[0]!)).toEqual([0, 5, NaN, NaN]);
    expect(Array.from(d.avg[0]!)).toEqual([2, 7, NaN, NaN]);
    expect(Array.from(d.max[0]!)).toEqual([4, 9, NaN, NaN]);
    // Never narrower than a sample: 10 s at a 5 s interval is 2 buckets even when 1,000 are allowed.
    expect(downsample(ring, 0, 10_000, 1_000, 5_000).buckets).toBe(2);
  });

  it('cuts a day of 1 s samples into chunks that each fit one link message', () => {
    const ring = new MetricsRing(seriesFor(usage(0, 4), 4), 86_400);
    const row = new Float32Array(11).fill(-123.456);
    for (let i = 0; i < 86_400; i++) ring.push(i * 1_000, row);
    const d = downsample(ring, 0, 86_400_000, 2_000, 1_000);
    expect(d.buckets).toBe(2_000);
    const chunks = toChunks(
      d,
      ring.series.map((s) => s.key),
    );
    let total = 0;
    for (const c of chunks) {
      MetricsChunk.parse(c);
      expect(JSON.stringify(c).length).toBeLessThan(14_000);
      const numbers = Object.values(c.values).reduce((n, [a, b, m]) => n + a.length + b.length + m.length, 0);
      expect(numbers).toBeLessThanOrEqual(METRICS_CHUNK_NUMBERS);
      expect(c.offset).toBe(total);
      total += c.count;
    }
    expect(total).toBe(2_000);
    expect(chunks[0]!.values['cpu']![1][0]).toBe(-123.5);
    expect([wireValue(NaN), wireValue(5_000), wireValue(-0.01)]).toEqual([null, 999.9, 0]);
  });
});

describe('the history on disk', () => {
  it('round-trips through the binary file, and refuses what is not one', () => {
    const ring = new MetricsRing(SERIES, 10);
    for (let t = 1; t <= 12; t++) ring.push(t * 1_000, [t, t + 0.5, NaN, 1, 2]);
    const data = encodeHistory(ring);
    expect(data.length).toBeLessThan(800); // 10 × (8 + 5 × 4) B and the header
    const back = decodeHistory(data, 10);
    expect(back.series).toEqual(SERIES);
    expect(back.toArrays()).toEqual(ring.toArrays());
    expect(decodeHistory(data, 3).toArrays().times).toEqual(new Float64Array([10_000, 11_000, 12_000]));
    expect(() => decodeHistory(Buffer.from('nope'), 10)).toThrow(/not a metrics history/);
    expect(() => decodeHistory(data.subarray(0, data.length - 4), 10)).toThrow(/size/);
  });

  it('persists samples and settings on close and restores them on start', async () => {
    const dir = stateDir();
    const clock = { t: 1_000_000 };
    const backend = fakeBackend();
    const p = part(dir, backend, 'host', clock);
    await p.ready;
    for (let i = 1; i <= 5; i++) {
      clock.t += 5_000;
      backend.cpu = 10 + i;
      await p.sampleNow();
    }
    expect(await p.setSettings({ save: false, interval_s: 10, retention_h: 2 })).toEqual({
      save: false,
      interval_s: 10,
      retention_h: 2,
    });
    await p.close();
    expect(JSON.parse(readFileSync(path.join(dir, SETTINGS_FILE), 'utf8'))).toMatchObject({ interval_s: 10 });

    clock.t += 5_000;
    const again = part(dir, fakeBackend(50), 'host', clock);
    await again.ready;
    expect(again.settings()).toEqual({ save: false, interval_s: 10, retention_h: 2 });
    const a = again.query(1_000_000, clock.t, 100);
    expect(a.samples).toBe(6 + 1); // first + 5 sampled, then one more at restart
    const lows = a.chunks.flatMap((c) => c.values['cpu']![0]).filter((v) => v !== null);
    const highs = a.chunks.flatMap((c) => c.values['cpu']![2]).filter((v) => v !== null);
    expect([Math.min(...lows), Math.max(...highs)]).toEqual([10, 50]); // restored 10…15, then 50 now
    expect([a.oldest, a.newest]).toEqual([1_000_000, clock.t]);
  });

  it('starts empty (with a warning) from a corrupt history file', async () => {
    const dir = stateDir();
    writeFileSync(path.join(dir, HISTORY_FILE), 'EMH1garbage');
    const warnings: string[] = [];
    const log = { ...silentLogger, warn: (m: string) => warnings.push(m) };
    const p = part(dir, fakeBackend(), 'host', { t: 5_000 }, log);
    await p.ready;
    expect(p.query(0, 10_000, 10).samples).toBe(1);
    expect(warnings.join()).toMatch(/saved history not used/);
  });
});

describe('settings', () => {
  it('refuses a history longer than the buffer allows, and drops samples past a shorter retention', async () => {
    const clock = { t: 10 * 3_600_000 };
    const p = part(
      stateDir(),
      createSimBackend({ deviceId: 'dev-1', kind: 'x86', cameras: 2, label: 'Sim' }),
      'sim',
      clock,
    );
    await p.ready;
    expect(p.settings()).toEqual(DEFAULT_SETTINGS.sim);
    await expect(p.setSettings({ save: true, interval_s: 1, retention_h: 49 })).rejects.toMatchObject({
      code: 'too_many_samples',
    });
    await expect(p.setSettings({ save: true, interval_s: 1, retention_h: 49 })).rejects.toBeInstanceOf(
      MetricsError,
    );
    expect(p.query(0, clock.t, 10).samples).toBe(86_400); // a full day (backfilled, then sampled)
    await p.setSettings({ save: true, interval_s: 1, retention_h: 1 });
    const a = p.query(0, clock.t, 10);
    expect(a.samples).toBe(3_600);
    expect([a.oldest, a.newest]).toEqual([clock.t - 3_599_000, clock.t]);
    expect(() => p.query(5, 5, 10)).toThrow(MetricsError);
  });
});

describe('sim backfill', () => {
  it('starts with 24 h of believable 1 s history ending at the device’s current usage', async () => {
    const clock = { t: Date.UTC(2026, 0, 2) };
    const sim = createSimBackend({ deviceId: 'dev-sim', kind: 'jetson', cameras: 2, label: 'Sim' });
    const started = performance.now();
    const p = part(stateDir(), sim, 'sim', clock);
    await p.ready;
    expect(performance.now() - started).toBeLessThan(2_000);
    const a = p.query(clock.t - 86_400_000, clock.t, 1_000);
    expect(a.samples).toBe(86_400);
    expect(a.series.map((s) => s.key)).toEqual(['cpu', 'memory', 'temperature', 'gpu0.util', 'gpu0.memory']);
    expect(a.chunks.length).toBeGreaterThan(1);
    const avg = (key: string) => a.chunks.flatMap((c) => c.values[key]![1]);
    const cpu = avg('cpu');
    expect(cpu).toHaveLength(1_000);
    expect(cpu.every((v) => v !== null && v >= 0 && v <= 100)).toBe(true);
    expect(new Set(cpu).size).toBeGreaterThan(100); // it moves
    expect(avg('temperature').every((v) => v !== null && v >= 20 && v <= 105)).toBe(true);
    // Restarted: the restored day is kept, only the gap is filled.
    await p.close();
    clock.t += 60_000;
    const again = part(dirs[dirs.length - 1]!, sim, 'sim', clock);
    await again.ready;
    const b = again.query(clock.t - 86_400_000, clock.t, 10);
    expect(b.samples).toBe(86_400);
    expect(b.newest).toBe(clock.t);
  });
});

describe('host samples (this machine)', () => {
  it('records real usages of this machine, with no invented past', async () => {
    const host = createHostBackend({ cameraSources: [], logger: silentLogger });
    const clock = { t: Date.now() };
    const first = clock.t;
    const p = part(stateDir(), host, 'host', clock);
    await p.ready;
    clock.t += 5_000;
    await p.sampleNow();
    const a = p.query(first, clock.t + 5_000, 60); // two 5 s buckets, one sample each
    expect(a.samples).toBe(2);
    const cpu = a.chunks.flatMap((c) => c.values['cpu']![1]).filter((v) => v !== null);
    const memory = a.chunks.flatMap((c) => c.values['memory']![1]).filter((v) => v !== null);
    expect(cpu).toHaveLength(2);
    for (const v of [...cpu, ...memory]) expect(v).toBeGreaterThanOrEqual(0);
    expect(memory[0]).toBeGreaterThan(0);
    await host.close();
  });
});
