/**
 * The console side of metrics without a browser: the history's chunks checked and put together
 * (machines/metrics/metricsData.ts) from what the real agent part answers, live points, the settings check
 * against the contract, the §9 device score, and the tab's selectors (charts, summaries, order).
 */
import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { MetricsRing, seriesFor } from '../../../src/agent/metrics/ring';
import { downsample, toChunks } from '../../../src/agent/metrics/downsample';
import {
  appendLive,
  asHistoryChunk,
  assembleHistory,
  deviceScore,
  liveOf,
  MAX_LIVE_POINTS,
  settingsProblem,
  SETTINGS_LIMITS,
  type HistoryLayout,
} from '../../../machines/metrics/metricsData';
import { metricsViewMachine } from '../../../machines/metrics/metricsView.machine';
import { chartsOf, formatValue, metricsTabToView } from '../../../src/console/features/metrics/selectors';
import {
  MAX_METRICS_SAMPLES,
  MAX_METRICS_GPUS,
  SaveMetricsSettings,
  samplesFor,
} from '../../../src/protocol/metrics';

const usage = {
  cpu: 40,
  memory_used_mb: 1_000,
  memory_total_mb: 4_000,
  gpus: [{ name: 'RTX', utilisation: 50, memory_used_mb: 3_000, memory_total_mb: 12_000 }],
  temperature_c: 55,
};

function answer() {
  const series = seriesFor(usage, MAX_METRICS_GPUS);
  const ring = new MetricsRing(series, 1_000);
  for (let i = 0; i < 600; i++) ring.push(i * 1_000, [i % 100, 25, 50, 10, 20]);
  const d = downsample(ring, 0, 600_000, 300, 1_000);
  const chunks = toChunks(
    d,
    series.map((s) => s.key),
  );
  const layout: HistoryLayout = {
    from: 0,
    to: 600_000,
    bucket_ms: d.bucketMs,
    buckets: d.buckets,
    series,
    chunks: chunks.length,
    settings: { save: true, interval_s: 1, retention_h: 24 },
    samples: ring.count,
    oldest: ring.oldest,
    newest: ring.newest,
  };
  return { layout, chunks };
}

describe('history assembly', () => {
  it('puts the agent’s chunks together into columns', () => {
    const { layout, chunks } = answer();
    const h = assembleHistory(
      layout,
      chunks.map((c) => asHistoryChunk(JSON.parse(JSON.stringify(c)))!),
    );
    expect(h.times).toHaveLength(300);
    expect(h.times[1]).toBe(2_000);
    expect(h.columns['cpu']!.min.slice(0, 2)).toEqual([0, 2]);
    expect(h.columns['cpu']!.max.slice(0, 2)).toEqual([1, 3]);
    expect(h.columns['gpu0.memory']!.avg.every((v) => v === 20)).toBe(true);
  });

  it('refuses missing, reordered or malformed chunks', () => {
    const { layout, chunks } = answer();
    expect(chunks.length).toBeGreaterThan(1);
    expect(() => assembleHistory(layout, chunks.slice(1))).toThrow(/incompletely/);
    expect(() => assembleHistory({ ...layout, chunks: chunks.length }, [...chunks].reverse())).toThrow(
      /incompletely/,
    );
    expect(asHistoryChunk({ offset: 0, count: 2, values: { cpu: [[1], [1], [1]] } })).toBeNull();
    expect(asHistoryChunk({ offset: -1, count: 0, values: {} })).toBeNull();
    expect(asHistoryChunk({ offset: 0, count: 1, values: { cpu: [[1], ['x'], [1]] } })).toBeNull();
    expect(asHistoryChunk('chunk')).toBeNull();
  });
});

describe('live points, settings and score', () => {
  it('turns get-usages into percent values and keeps at most MAX_LIVE_POINTS', () => {
    expect(liveOf(usage, 5).values).toEqual({
      cpu: 40,
      memory: 25,
      temperature: 55,
      'gpu0.util': 50,
      'gpu0.memory': 25,
    });
    let live = appendLive([], liveOf(usage, 0));
    for (let i = 1; i <= MAX_LIVE_POINTS + 5; i++) live = appendLive(live, liveOf(usage, i));
    expect(live).toHaveLength(MAX_LIVE_POINTS);
    expect(live.at(-1)!.time).toBe(MAX_LIVE_POINTS + 5);
  });

  it('checks settings exactly as the contract does', () => {
    expect(SETTINGS_LIMITS.maxSamples).toBe(MAX_METRICS_SAMPLES);
    for (const interval_s of [0, 1, 2, 1.5, 3_600, 3_601]) {
      for (const retention_h of [0, 1, 24, 48, 49, 168, 169]) {
        const s = { save: true, interval_s, retention_h };
        const contract = SaveMetricsSettings.safeParse(s).success && samplesFor(s) <= MAX_METRICS_SAMPLES;
        expect(settingsProblem(s) === null, JSON.stringify(s)).toBe(contract);
      }
    }
    expect(settingsProblem({ save: true, interval_s: 1, retention_h: 72 })).toBe('tooMany');
  });

  it('scores a device as §9 says: 100 − (0.5 × GPU memory % + 0.3 × GPU utilisation + 0.2 × CPU)', () => {
    expect(deviceScore(usage)).toBe(100 - (0.5 * 25 + 0.3 * 50 + 0.2 * 40));
    const two = {
      ...usage,
      gpus: [...usage.gpus, { name: 'B', utilisation: 100, memory_used_mb: 12_000, memory_total_mb: 12_000 }],
    };
    expect(deviceScore(two)).toBe(100 - (50 + 30 + 8)); // the busiest GPU: the lowest score
    expect(deviceScore({ ...usage, gpus: [] })).toBe(92);
  });
});

describe('tab selectors', () => {
  it('orders the charts, appends live points after the history and summarises each chart', () => {
    const { layout, chunks } = answer();
    const h = assembleHistory(layout, chunks);
    const live = [liveOf({ ...usage, cpu: 99 }, 700_000), liveOf(usage, 100)];
    const charts = chartsOf(h, live);
    expect(charts.map((c) => c.key)).toEqual(['cpu', 'memory', 'gpu0.util', 'gpu0.memory', 'temperature']);
    const cpu = charts[0]!;
    expect(cpu.data[0]).toHaveLength(301); // the live point before the history's end is dropped
    expect(cpu.data[0][0]).toBe(1); // bucket centre, seconds
    expect([cpu.current, cpu.min, cpu.max]).toEqual([99, 0, 99]);
    expect(charts[2]!.titleValues).toEqual({ name: 'RTX' });
    expect(chartsOf(h, live)).toBe(charts); // memoised
    expect(formatValue(12.34, 'celsius', '–')).toBe('12.3 °C');
    expect(formatValue(null, 'percent', '–')).toBe('–');
  });

  it('reads a view snapshot', () => {
    const view = createActor(metricsViewMachine, { input: { deviceId: 'd', range: '24h' } });
    const v = metricsTabToView(view.getSnapshot());
    expect(v).toMatchObject({
      range: '24h',
      loading: true,
      liveOn: true,
      charts: [],
      settingsStatus: 'idle',
      score: null,
    });
  });
});
