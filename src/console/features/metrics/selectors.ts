/**
 * What the metrics tab reads of the `metrics` actor (systemId 'metrics') and its metricsView children
 * (machines/metrics/): pure `*ToView` functions from snapshots to what the screen shows — the charts' columns
 * (history buckets, then live points), each chart's current / lowest / highest value, the live and settings
 * state, the §9 device score — and hooks that select them. No protocol values are imported (zod stays out).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { metricsMachine, MetricsViewRef } from '../../../../machines/metrics/metrics.machine';
import {
  deviceScore,
  type HistoryData,
  type LivePoint,
  type MetricsRange,
  type SaveSettings,
  type SeriesInfo,
} from '../../../../machines/metrics/metricsData';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type MetricsSnapshot = SnapshotFrom<typeof metricsMachine>;
type ViewSnapshot = SnapshotFrom<MetricsViewRef>;
export type MetricsRef = ActorRefFrom<typeof metricsMachine>;

/** One chart: a series' columns as uPlot wants them (x in seconds; min, avg, max; null: no value). */
export interface ChartView {
  key: string;
  unit: SeriesInfo['unit'];
  /** i18n key of the title and its values (GPU name). */
  titleKey: string;
  titleValues: Record<string, string>;
  data: [number[], (number | null)[], (number | null)[], (number | null)[]];
  current: number | null;
  min: number | null;
  max: number | null;
  /** Buckets with a value (history) plus live points. */
  points: number;
}

export interface MetricsTabView {
  range: MetricsRange;
  loading: boolean;
  historyError: string | null;
  /** The history range shown (ms), null before the first load. */
  from: number | null;
  to: number | null;
  samples: number | null;
  charts: ChartView[];
  liveOn: boolean;
  livePaused: boolean;
  liveError: string | null;
  score: number | null;
  settings: SaveSettings | null;
  settingsStatus: 'idle' | 'invalid' | 'saving' | 'saved' | 'failed';
  settingsProblem: 'interval' | 'retention' | 'tooMany' | null;
  settingsError: string | null;
}

const titleOf = (s: SeriesInfo): [string, Record<string, string>] => {
  if (s.gpu !== null) {
    const name = s.gpu_name || `GPU ${s.gpu}`;
    return [s.key.endsWith('.util') ? 'metrics.charts.gpuUtil' : 'metrics.charts.gpuMemory', { name }];
  }
  return [`metrics.charts.${s.key}`, {}];
};

/** Chart order: CPU, memory, each GPU's utilisation and memory, temperature. */
const rank = (s: SeriesInfo) =>
  s.key === 'cpu'
    ? 0
    : s.key === 'memory'
      ? 1
      : s.key === 'temperature'
        ? 100
        : 2 + s.gpu! * 2 + (s.key.endsWith('.util') ? 0 : 1);

const chartCache = new WeakMap<HistoryData, WeakMap<readonly LivePoint[], ChartView[]>>();

/** The charts of a history and the live points after it (memoised per history and live array). */
export function chartsOf(history: HistoryData, live: readonly LivePoint[]): ChartView[] {
  let byLive = chartCache.get(history);
  if (!byLive) chartCache.set(history, (byLive = new WeakMap()));
  const cached = byLive.get(live);
  if (cached) return cached;
  const half = history.bucketMs / 2;
  const xs = history.times.map((t) => (t + half) / 1_000);
  const after = live.filter((p) => p.time > history.to);
  for (const p of after) xs.push(p.time / 1_000);
  const charts = [...history.series]
    .sort((a, b) => rank(a) - rank(b))
    .map((s): ChartView => {
      const c = history.columns[s.key]!;
      const liveValues = after.map((p) => p.values[s.key] ?? null);
      const min = c.min.concat(liveValues);
      const avg = c.avg.concat(liveValues);
      const max = c.max.concat(liveValues);
      let lo: number | null = null;
      let hi: number | null = null;
      let current: number | null = null;
      let points = 0;
      for (let i = 0; i < avg.length; i++) {
        if (avg[i] === null) continue;
        points++;
        current = avg[i]!;
        if (min[i] !== null && (lo === null || min[i]! < lo)) lo = min[i]!;
        if (max[i] !== null && (hi === null || max[i]! > hi)) hi = max[i]!;
      }
      const [titleKey, titleValues] = titleOf(s);
      return {
        key: s.key,
        unit: s.unit,
        titleKey,
        titleValues,
        data: [xs, min, avg, max],
        current,
        min: lo,
        max: hi,
        points,
      };
    });
  byLive.set(live, charts);
  return charts;
}

export function metricsTabToView(s: ViewSnapshot): MetricsTabView {
  const c = s.context;
  const settingsState = (['saving', 'saved', 'failed', 'invalid'] as const).find((v) =>
    s.matches({ settings: v }),
  );
  return {
    range: c.range,
    loading: s.hasTag('loading'),
    historyError: s.matches({ history: 'failed' }) ? c.historyError : null,
    from: c.history?.from ?? null,
    to: c.history?.to ?? null,
    samples: c.history?.samples ?? null,
    charts: c.history ? chartsOf(c.history, c.live) : [],
    liveOn: !s.matches({ live: 'off' }),
    livePaused: s.matches({ live: { on: 'paused' } }),
    liveError: c.liveError,
    score: c.usages ? deviceScore(c.usages) : null,
    settings: c.settings,
    settingsStatus: settingsState ?? 'idle',
    settingsProblem: c.settingsProblem,
    settingsError: c.settingsError,
  };
}

/** The view actor of `deviceId`, if its tab is open. */
export const viewRefOf = (s: MetricsSnapshot, deviceId: string): MetricsViewRef | null =>
  s.context.views[deviceId]?.ref ?? null;

export const useMetricsRef = (): MetricsRef => actorOf<MetricsRef>(useSystem(), SYSTEM_IDS.metrics);

export function useMetricsViewRef(deviceId: string): MetricsViewRef | null {
  return useSelector(useMetricsRef(), (s: MetricsSnapshot) => viewRefOf(s, deviceId));
}

export function useMetricsTabView(ref: MetricsViewRef): MetricsTabView {
  return useSelector(ref, metricsTabToView, shallowEqual);
}

/** A value with its unit, or the "none" text. */
export function formatValue(v: number | null, unit: SeriesInfo['unit'], none: string): string {
  if (v === null) return none;
  return unit === 'celsius' ? `${v.toFixed(1)} °C` : `${v.toFixed(1)} %`;
}
