/**
 * Pure views of the analytics screens (issue 11 Analytics; machines/analytics/) and their hooks: the named
 * list machine's snapshot as the collections or dashboards list, and the dashboard machine's snapshot as its
 * toolbar (range, bucket), filter chips, charts (labels, values, the filtered key) and chart form.
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { dashboardMachine } from '../../../../machines/analytics/dashboard.machine';
import type { DataWindow, TimeRange } from '../../../../machines/analytics/dashboardModel';
import { BUCKET_CHOICES, bucketFits } from '../../../../machines/analytics/dashboardModel';
import type { NamedItem, namedListMachine } from '../../../../machines/analytics/namedList.machine';
import {
  SOURCE_DIMENSIONS,
  type Chart,
  type Dimension,
  type Filters,
  type LayoutItem,
} from '../../../protocol/analytics';

export type NamedListSnapshot = SnapshotFrom<typeof namedListMachine>;
export type DashboardSnapshot = SnapshotFrom<typeof dashboardMachine>;

/** The BCP 47 locale of an interface language (one definition, in i18n/language.ts). */
export { localeOf } from '../../i18n/language';

export interface NamedListView {
  state: 'loading' | 'failed' | 'ready' | 'editing' | 'saving' | 'confirming' | 'deleting';
  busy: boolean;
  title: string | null;
  items: NamedItem[];
  error: string | null;
  /** The name form: open for a new item (id null) or a rename. */
  edit: { id: string | null; name: string; error: string | null; saving: boolean } | null;
  /** The item whose deletion waits for a confirmation. */
  confirm: NamedItem | null;
  lastSaved: NamedItem | null;
}

export function namedListToView(s: NamedListSnapshot): NamedListView {
  const state = (typeof s.value === 'string' ? s.value : 'loading') as NamedListView['state'];
  const c = s.context;
  return {
    state,
    busy: s.hasTag('busy'),
    title: c.title,
    items: c.items,
    error: c.error,
    edit:
      c.edit && (state === 'editing' || state === 'saving')
        ? { ...c.edit, saving: state === 'saving' }
        : null,
    confirm: state === 'confirming' || state === 'deleting' ? c.target : null,
    lastSaved: c.lastSaved,
  };
}

export function useNamedListView(ref: ActorRefFrom<typeof namedListMachine>): NamedListView {
  return useSelector(ref, namedListToView, sameJson);
}

export interface ChartView {
  id: string;
  /** The chart's own title; '' when it has none (the screen names it by source and group-by). */
  title: string;
  source: Chart['source'];
  groupBy: Chart['group_by'];
  type: Chart['type'];
  /** Row keys as the server gives them (bucket start ISO, or the dimension's value). */
  keys: string[];
  /** Row keys as shown: bucket starts in the user's locale; '' (no value) stays ''. */
  labels: string[];
  values: number[];
  total: number;
  /** Rows are here for this chart (false before the first answer, or for a chart just added). */
  loaded: boolean;
  /** A click on a bar/slice filters the dashboard (dimension charts); on a time bucket zooms in. */
  clickAction: 'filter' | 'zoom' | 'none';
  /** The filtered value of this chart's dimension, if any. */
  activeKey: string | null;
}

export interface DashboardView {
  state: 'loading' | 'failed' | 'ready';
  error: string | null;
  name: string;
  collectionId: string | null;
  charts: ChartView[];
  layout: LayoutItem[];
  range: TimeRange;
  bucketSeconds: number;
  /** The bucket widths that fit the range (≤ BUCKETS_MAX buckets). */
  buckets: number[];
  window: DataWindow | null;
  filters: { dimension: Dimension; value: string }[];
  fetching: boolean;
  dataError: string | null;
  save: 'idle' | 'pending' | 'saving';
  saveError: string | null;
  serverMs: number | null;
  editor: { chart: Chart; isNew: boolean; dimensions: readonly Dimension[] } | null;
  /** Whether a time bucket click may zoom (there is a finer bucket). */
  canZoom: boolean;
}

/** A bucket start as shown: the date for day buckets, else date and time (24-hour, the user's zone). */
export function bucketLabel(iso: string, bucketSeconds: number, locale: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(
    locale,
    bucketSeconds >= 86_400
      ? { month: 'short', day: 'numeric' }
      : { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' },
  ).format(d);
}

export function chartToView(
  chart: Chart,
  rows: { key: string; value: number }[] | undefined,
  filters: Filters,
  bucketSeconds: number,
  locale: string,
  canZoom: boolean,
): ChartView {
  const r = rows ?? [];
  return {
    id: chart.id,
    title: chart.title,
    source: chart.source,
    groupBy: chart.group_by,
    type: chart.type,
    keys: r.map((x) => x.key),
    labels: r.map((x) => (chart.group_by === 'time' ? bucketLabel(x.key, bucketSeconds, locale) : x.key)),
    values: r.map((x) => x.value),
    total: r.reduce((sum, x) => sum + x.value, 0),
    loaded: rows !== undefined,
    clickAction: chart.group_by !== 'time' ? 'filter' : canZoom ? 'zoom' : 'none',
    activeKey: chart.group_by === 'time' ? null : (filters[chart.group_by] ?? null),
  };
}

export function dashboardToView(s: DashboardSnapshot, locale: string): DashboardView {
  const c = s.context;
  const state: DashboardView['state'] = s.matches('ready')
    ? 'ready'
    : s.matches('failed')
      ? 'failed'
      : 'loading';
  const canZoom = c.bucketSeconds > 60;
  return {
    state,
    error: c.error,
    name: c.dashboard?.name ?? '',
    collectionId: c.dashboard?.collection_id ?? null,
    charts: c.charts.map((ch) => chartToView(ch, c.rows[ch.id], c.filters, c.bucketSeconds, locale, canZoom)),
    layout: c.layout,
    range: c.range,
    bucketSeconds: c.bucketSeconds,
    buckets: BUCKET_CHOICES.filter((b) => bucketFits(c.range, b)),
    window: c.window,
    filters: (Object.entries(c.filters) as [Dimension, string][])
      .filter(([, v]) => v !== undefined)
      .map(([dimension, value]) => ({ dimension, value })),
    fetching: s.matches({ ready: { data: 'fetching' } }),
    dataError: c.dataError,
    save: s.matches({ ready: { save: 'saving' } })
      ? 'saving'
      : s.matches({ ready: { save: 'pending' } })
        ? 'pending'
        : 'idle',
    saveError: c.saveError,
    serverMs: c.serverMs,
    editor: c.editor ? { ...c.editor, dimensions: SOURCE_DIMENSIONS[c.editor.chart.source] } : null,
    canZoom,
  };
}

export function useDashboardView(ref: ActorRefFrom<typeof dashboardMachine>, locale: string): DashboardView {
  return useSelector(ref, (s) => dashboardToView(s, locale), sameJson);
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
