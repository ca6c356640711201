/**
 * Pure helpers of the dashboard machine (issue 11 "a dashboard is a grid of charts … clicking a chart filters
 * the dashboard"; src/protocol/analytics.ts): time ranges and buckets, the window a range means at an
 * instant, new charts' ids and grid places, and the filters a click sets.
 */
import {
  BUCKETS_MAX,
  SOURCE_DIMENSIONS,
  type Chart,
  type Dimension,
  type Filters,
  type LayoutItem,
} from '../../src/protocol/analytics';

/** Relative ranges (the last …), ms. */
export const RANGE_PRESETS = {
  '15m': 15 * 60_000,
  '1h': 3_600_000,
  '6h': 6 * 3_600_000,
  '24h': 24 * 3_600_000,
  '7d': 7 * 86_400_000,
  '30d': 30 * 86_400_000,
} as const;
export type RangePreset = keyof typeof RANGE_PRESETS;

/** A dashboard's time range: the last <preset> (ending now), or a fixed [from, to) in ms since the epoch. */
export type TimeRange =
  { kind: 'relative'; preset: RangePreset } | { kind: 'absolute'; from: number; to: number };

/** Bucket widths offered, s. */
export const BUCKET_CHOICES = [60, 300, 900, 3600, 6 * 3600, 86_400] as const;

/** The resolved window of one data request. */
export interface DataWindow {
  from: string;
  to: string;
  bucketSeconds: number;
}

/** The finest offered bucket that keeps a span of `spanMs` within ~120 buckets (and BUCKETS_MAX). */
export function bucketFor(spanMs: number): number {
  for (const b of BUCKET_CHOICES) if (spanMs / 1000 / b <= 120) return b;
  return 86_400;
}

/** Whether `bucketSeconds` gives at most BUCKETS_MAX buckets over the range. */
export function bucketFits(range: TimeRange, bucketSeconds: number): boolean {
  const span = range.kind === 'relative' ? RANGE_PRESETS[range.preset] : range.to - range.from;
  return span / 1000 / bucketSeconds <= BUCKETS_MAX;
}

/**
 * The window a range means at `now`: a relative range ends at the end of the bucket holding `now` (so buckets
 * are whole minutes/hours/days in UTC, and hourly windows read the server's hourly rollup) and starts its span
 * before; an absolute range is taken as it is.
 */
export function resolveWindow(range: TimeRange, bucketSeconds: number, now: number): DataWindow {
  if (range.kind === 'absolute')
    return { from: new Date(range.from).toISOString(), to: new Date(range.to).toISOString(), bucketSeconds };
  const step = bucketSeconds * 1000;
  const to = Math.ceil((now + 1) / step) * step;
  const span = Math.max(step, Math.ceil(RANGE_PRESETS[range.preset] / step) * step);
  return { from: new Date(to - span).toISOString(), to: new Date(to).toISOString(), bucketSeconds };
}

/** The next free chart id ('c1', 'c2', …). */
export function nextChartId(charts: readonly Chart[]): string {
  let n = 0;
  for (const c of charts) {
    const m = /^c(\d+)$/.exec(c.id);
    if (m) n = Math.max(n, Number(m[1]));
  }
  return `c${n + 1}`;
}

/** Grid columns of a dashboard and a new chart's size (grid units). */
export const GRID_COLUMNS = 12;
export const NEW_CHART_W = 6;
export const NEW_CHART_H = 8;

/** A new chart's place: the first free half-row slot after the existing items (left, then right). */
export function placeChart(layout: readonly LayoutItem[], id: string): LayoutItem {
  const bottom = layout.reduce((m, l) => Math.max(m, l.y + l.h), 0);
  const lastRow = layout.filter((l) => l.y + l.h === bottom);
  const rightFree =
    lastRow.length === 1 && lastRow[0]!.x === 0 && lastRow[0]!.w <= GRID_COLUMNS - NEW_CHART_W;
  return rightFree
    ? { i: id, x: GRID_COLUMNS - NEW_CHART_W, y: lastRow[0]!.y, w: NEW_CHART_W, h: lastRow[0]!.h }
    : { i: id, x: 0, y: bottom, w: NEW_CHART_W, h: NEW_CHART_H };
}

/** The layout with an item for every chart (a chart without one is placed) and none for a removed chart. */
export function layoutFor(charts: readonly Chart[], layout: readonly LayoutItem[]): LayoutItem[] {
  const ids = new Set(charts.map((c) => c.id));
  const out = layout.filter((l) => ids.has(l.i));
  for (const c of charts) if (!out.some((l) => l.i === c.id)) out.push(placeChart(out, c.id));
  return out;
}

/** A chart as the editor starts it. */
export function blankChart(id: string): Chart {
  return { id, title: '', source: 'events', group_by: 'time', type: 'bar' };
}

/** The chart with its group-by kept only where its source has that dimension (else by time). */
export function fitChart(chart: Chart): Chart {
  const ok = chart.group_by === 'time' || SOURCE_DIMENSIONS[chart.source].includes(chart.group_by);
  return ok ? chart : { ...chart, group_by: 'time' };
}

/**
 * The filters after a click on a dimension chart's bar or slice: the chart's dimension set to the clicked key
 * (an empty key, a row with no value, filters nothing); a click on the value already filtered removes it.
 */
export function clickFilter(filters: Filters, dimension: Dimension, key: string): Filters {
  if (!key) return filters;
  if (filters[dimension] === key) return withoutFilter(filters, dimension);
  return { ...filters, [dimension]: key.slice(0, 64) };
}

export function withoutFilter(filters: Filters, dimension: Dimension): Filters {
  const next = { ...filters };
  delete next[dimension];
  return next;
}
