/**
 * One analytics dashboard — `/analytics/dashboard/{id}` (spec §2 Analytics; issue 11 "a dashboard is a grid of
 * charts (react-grid-layout) over events aggregated in PostgreSQL by time bucket; clicking a chart filters
 * the dashboard"; src/protocol/analytics.ts analytics.dashboard / updateDashboard / dashboardData).
 *
 * loading (actor `loadDashboard`) → ready | failed (dashboard.retry). ready has two regions:
 * - data: fetching (actor `loadData`: every chart's rows over the window the range means now, with the
 *   filters) → shown | failed. range.set, bucket.set, range.zoom (a click on a time bucket), filter.click (a
 *   click on a dimension chart's bar or slice: that dimension = the key, or off when it was already), filter.remove,
 *   filter.clear and data.refresh fetch again (a fetch in flight is cancelled); changed charts are read again
 *   once their save is done (the server reads the saved charts).
 * - save: idle → (layout.changed) pending → after SAVE_DEBOUNCE_MS saving; (charts.changed) saving at once.
 *   saving (actor `saveDashboard`: the charts and layout as they are now) → idle, or idle with saveError.
 * Charts: editor.open { id? } opens the chart form (a copy of that chart, or a new one), editor.change
 * { patch } edits it (a group-by its source lacks falls back to time), editor.submit puts it in the charts
 * (and a new one in the layout), chart.remove drops one; both raise charts.changed. layout.change { layout }
 * keeps a changed layout and raises layout.changed. Tags: `busy` while loading or fetching. Pure.
 */
import { assign, enqueueActions, fromPromise, raise, setup } from 'xstate';
import {
  CHARTS_MAX,
  type Chart,
  type Dashboard,
  type DashboardData,
  type Dimension,
  type Filters,
  type LayoutItem,
} from '../../src/protocol/analytics';
import { errorText } from '../notifications/emitted';
import {
  blankChart,
  bucketFits,
  bucketFor,
  clickFilter,
  fitChart,
  layoutFor,
  nextChartId,
  RANGE_PRESETS,
  resolveWindow,
  withoutFilter,
  type DataWindow,
  type TimeRange,
} from './dashboardModel';

/** Quiet time after the last drag or resize before the layout is saved, ms. */
export const SAVE_DEBOUNCE_MS = 800;
export const DEFAULT_RANGE: TimeRange = { kind: 'relative', preset: '24h' };
export const DEFAULT_BUCKET_SECONDS = 3600;

export interface LoadDataInput {
  id: string;
  window: DataWindow;
  filters: Filters;
}
export interface SaveDashboardInput {
  id: string;
  charts: Chart[];
  layout: LayoutItem[];
}

export interface DashboardContext {
  id: string;
  dashboard: Dashboard | null;
  charts: Chart[];
  layout: LayoutItem[];
  range: TimeRange;
  bucketSeconds: number;
  filters: Filters;
  /** The window of the request in flight or of the rows shown. */
  window: DataWindow | null;
  /** Rows by chart id. */
  rows: Record<string, DashboardData['charts'][number]['rows']>;
  serverMs: number | null;
  error: string | null;
  dataError: string | null;
  saveError: string | null;
  /**
   * The charts changed and their rows are read once the save is done: the server reads a dashboard's data from
   * its saved charts, so a read sent before the save would miss a new chart (seen in the e2e run).
   */
  fetchAfterSave: boolean;
  /** The chart form: the chart being edited and whether it is new. */
  editor: { chart: Chart; isNew: boolean } | null;
}

export type ChartPatch = Partial<Pick<Chart, 'title' | 'source' | 'group_by' | 'type'>>;

export type DashboardEvent =
  | { type: 'dashboard.retry' }
  | { type: 'data.refresh' }
  | { type: 'range.set'; range: TimeRange }
  | { type: 'bucket.set'; bucketSeconds: number }
  | { type: 'range.zoom'; from: string }
  | { type: 'filter.click'; chartId: string; key: string }
  | { type: 'filter.remove'; dimension: Dimension }
  | { type: 'filter.clear' }
  | { type: 'layout.change'; layout: LayoutItem[] }
  | { type: 'editor.open'; id?: string }
  | { type: 'editor.change'; patch: ChartPatch }
  | { type: 'editor.submit' }
  | { type: 'editor.cancel' }
  | { type: 'chart.remove'; id: string }
  | { type: 'charts.changed' }
  | { type: 'layout.changed' }
  | { type: 'data.fetch' };

/** Two layouts place every item alike (react-grid-layout reports its layout on mount too). */
export function sameLayout(a: readonly LayoutItem[], b: readonly LayoutItem[]): boolean {
  if (a.length !== b.length) return false;
  const byId = new Map(b.map((l) => [l.i, l]));
  return a.every((l) => {
    const o = byId.get(l.i);
    return !!o && o.x === l.x && o.y === l.y && o.w === l.w && o.h === l.h;
  });
}

const chartOf = (context: DashboardContext, id: string) => context.charts.find((c) => c.id === id);

export const dashboardMachine = setup({
  types: {
    context: {} as DashboardContext,
    events: {} as DashboardEvent,
    input: {} as { id: string },
  },
  actors: {
    loadDashboard: fromPromise<Dashboard, { id: string }>(async () => {
      throw new Error('analytics: loadDashboard is not provided');
    }),
    loadData: fromPromise<DashboardData, LoadDataInput>(async () => {
      throw new Error('analytics: loadData is not provided');
    }),
    saveDashboard: fromPromise<Dashboard, SaveDashboardInput>(async () => {
      throw new Error('analytics: saveDashboard is not provided');
    }),
  },
  delays: { saveDebounce: SAVE_DEBOUNCE_MS },
  guards: {
    dimensionChart: ({ context, event }) => {
      if (event.type !== 'filter.click') return false;
      const chart = chartOf(context, event.chartId);
      return !!chart && chart.group_by !== 'time' && event.key.length > 0;
    },
    canZoom: ({ context }) => context.bucketSeconds > 60,
    bucketFits: ({ context, event }) =>
      event.type === 'bucket.set' && bucketFits(context.range, event.bucketSeconds),
    editorOpen: ({ context }) => context.editor !== null,
    roomForChart: ({ context, event }) =>
      event.type === 'editor.open' &&
      (chartOf(context, event.id ?? '') !== undefined || context.charts.length < CHARTS_MAX),
    layoutDiffers: ({ context, event }) =>
      event.type === 'layout.change' && !sameLayout(event.layout, context.layout),
    knownChart: ({ context, event }) => event.type === 'chart.remove' && !!chartOf(context, event.id),
  },
  actions: {
    fetch: raise({ type: 'data.fetch' }),
    fetchWhenSaved: assign({ fetchAfterSave: true }),
    fetchIfChartsSaved: enqueueActions(({ context, enqueue }) => {
      if (!context.fetchAfterSave) return;
      enqueue.assign({ fetchAfterSave: false });
      enqueue.raise({ type: 'data.fetch' });
    }),
    resolveWindow: assign({
      window: ({ context }) => resolveWindow(context.range, context.bucketSeconds, Date.now()),
    }),
  },
}).createMachine({
  id: 'dashboard',
  context: ({ input }) => ({
    id: input.id,
    dashboard: null,
    charts: [],
    layout: [],
    range: DEFAULT_RANGE,
    bucketSeconds: DEFAULT_BUCKET_SECONDS,
    filters: {},
    window: null,
    rows: {},
    serverMs: null,
    error: null,
    dataError: null,
    saveError: null,
    fetchAfterSave: false,
    editor: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadDashboard',
        src: 'loadDashboard',
        input: ({ context }) => ({ id: context.id }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            dashboard: event.output,
            charts: event.output.charts,
            layout: layoutFor(event.output.charts, event.output.layout),
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The dashboard could not be read.'),
          }),
        },
      },
    },
    failed: { on: { 'dashboard.retry': 'loading' } },
    ready: {
      type: 'parallel',
      on: {
        'data.refresh': { actions: 'fetch' },
        'range.set': {
          actions: [
            assign(({ context, event }) => ({
              range: event.range,
              bucketSeconds: bucketFits(event.range, context.bucketSeconds)
                ? context.bucketSeconds
                : bucketFor(
                    event.range.kind === 'relative'
                      ? RANGE_PRESETS[event.range.preset]
                      : event.range.to - event.range.from,
                  ),
            })),
            'fetch',
          ],
        },
        'bucket.set': {
          guard: 'bucketFits',
          actions: [assign({ bucketSeconds: ({ event }) => event.bucketSeconds }), 'fetch'],
        },
        'range.zoom': {
          guard: 'canZoom',
          actions: [
            assign(({ context, event }) => {
              const from = Date.parse(event.from);
              const to = from + context.bucketSeconds * 1000;
              return { range: { kind: 'absolute', from, to }, bucketSeconds: bucketFor(to - from) };
            }),
            'fetch',
          ],
        },
        'filter.click': {
          guard: 'dimensionChart',
          actions: [
            assign({
              filters: ({ context, event }) =>
                clickFilter(
                  context.filters,
                  chartOf(context, event.chartId)!.group_by as Dimension,
                  event.key,
                ),
            }),
            'fetch',
          ],
        },
        'filter.remove': {
          actions: [
            assign({
              filters: ({ context, event }) => withoutFilter(context.filters, event.dimension),
            }),
            'fetch',
          ],
        },
        'filter.clear': { actions: [assign({ filters: {} }), 'fetch'] },
        'editor.open': {
          guard: 'roomForChart',
          actions: assign({
            editor: ({ context, event }) => {
              const chart = chartOf(context, event.id ?? '');
              return chart
                ? { chart: { ...chart }, isNew: false }
                : { chart: blankChart(nextChartId(context.charts)), isNew: true };
            },
          }),
        },
        'editor.change': {
          guard: 'editorOpen',
          actions: assign({
            editor: ({ context, event }) => ({
              ...context.editor!,
              chart: fitChart({ ...context.editor!.chart, ...event.patch } as Chart),
            }),
          }),
        },
        'editor.cancel': { actions: assign({ editor: null }) },
        'editor.submit': {
          guard: 'editorOpen',
          actions: [
            assign(({ context }) => {
              const { chart, isNew } = context.editor!;
              const charts = isNew
                ? [...context.charts, chart]
                : context.charts.map((c) => (c.id === chart.id ? chart : c));
              return { charts, layout: layoutFor(charts, context.layout), editor: null };
            }),
            raise({ type: 'charts.changed' }),
            'fetchWhenSaved',
          ],
        },
        'chart.remove': {
          guard: 'knownChart',
          actions: [
            assign(({ context, event }) => {
              const charts = context.charts.filter((c) => c.id !== event.id);
              const rows = { ...context.rows };
              delete rows[event.id];
              return { charts, layout: layoutFor(charts, context.layout), rows };
            }),
            raise({ type: 'charts.changed' }),
            'fetchWhenSaved',
          ],
        },
        'layout.change': {
          guard: 'layoutDiffers',
          actions: [
            assign({ layout: ({ context, event }) => layoutFor(context.charts, event.layout) }),
            raise({ type: 'layout.changed' }),
          ],
        },
      },
      states: {
        data: {
          initial: 'fetching',
          states: {
            fetching: {
              tags: ['busy'],
              on: { 'data.fetch': { target: 'fetching', reenter: true } },
              entry: 'resolveWindow',
              invoke: {
                id: 'loadData',
                src: 'loadData',
                input: ({ context }) => ({
                  id: context.id,
                  window: context.window!,
                  filters: context.filters,
                }),
                onDone: {
                  target: 'shown',
                  actions: assign(({ event }) => ({
                    rows: Object.fromEntries(event.output.charts.map((c) => [c.id, c.rows])),
                    serverMs: event.output.server_ms,
                    dataError: null,
                  })),
                },
                onError: {
                  target: 'failed',
                  actions: assign({
                    dataError: ({ event }) => errorText(event.error, 'The charts could not be read.'),
                  }),
                },
              },
            },
            shown: { on: { 'data.fetch': 'fetching' } },
            failed: { on: { 'data.fetch': 'fetching' } },
          },
        },
        save: {
          initial: 'idle',
          states: {
            idle: { on: { 'charts.changed': 'saving', 'layout.changed': 'pending' } },
            pending: {
              on: { 'charts.changed': 'saving', 'layout.changed': { target: 'pending', reenter: true } },
              after: { saveDebounce: 'saving' },
            },
            saving: {
              on: {
                'charts.changed': { target: 'saving', reenter: true },
                'layout.changed': 'pending',
              },
              invoke: {
                id: 'saveDashboard',
                src: 'saveDashboard',
                input: ({ context }) => ({ id: context.id, charts: context.charts, layout: context.layout }),
                onDone: {
                  target: 'idle',
                  actions: [
                    assign(({ event }) => ({ saveError: null, dashboard: event.output })),
                    'fetchIfChartsSaved',
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: [
                    assign({
                      saveError: ({ event }) => errorText(event.error, 'The dashboard could not be saved.'),
                    }),
                    'fetchIfChartsSaved',
                  ],
                },
              },
            },
          },
        },
      },
    },
  },
});
