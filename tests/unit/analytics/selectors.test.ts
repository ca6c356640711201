/**
 * Pure views of the analytics screens (src/console/features/analytics/selectors.ts) from real machine
 * snapshots: the named list (form, confirmation), the dashboard (charts with labels, totals, click action and
 * the filtered key; chips; buckets that fit the range; save state), and the dashboard model's helpers
 * (windows aligned to buckets, chart ids and places, click filters).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { dashboardMachine } from '../../../machines/analytics/dashboard.machine';
import {
  bucketFor,
  clickFilter,
  layoutFor,
  nextChartId,
  placeChart,
  resolveWindow,
} from '../../../machines/analytics/dashboardModel';
import {
  namedListMachine,
  type NamedItem,
  type NamedListLoaded,
  type SaveItemInput,
} from '../../../machines/analytics/namedList.machine';
import {
  bucketLabel,
  chartToView,
  dashboardToView,
  namedListToView,
} from '../../../src/console/features/analytics/selectors';
import type { Dashboard, DashboardData } from '../../../src/protocol/analytics';

const DASH: Dashboard = {
  id: 'd1',
  name: 'Lobby',
  collection_id: 'k1',
  charts: [
    { id: 'c1', title: '', source: 'sightings', group_by: 'class', type: 'bar' },
    { id: 'c2', title: 'Per hour', source: 'sightings', group_by: 'time', type: 'line' },
  ],
  layout: [{ i: 'c1', x: 0, y: 0, w: 6, h: 8 }],
  updated_at: '2026-11-28T00:00:00.000Z',
};

function dashboardActor(data: (filters: Record<string, string>) => DashboardData) {
  const requests: { filters: Record<string, string>; from: string; to: string; bucket: number }[] = [];
  const actor = createActor(
    dashboardMachine.provide({
      actors: {
        loadDashboard: fromPromise(async () => DASH),
        loadData: fromPromise(async ({ input }) => {
          requests.push({
            filters: input.filters as Record<string, string>,
            from: input.window.from,
            to: input.window.to,
            bucket: input.window.bucketSeconds,
          });
          return data(input.filters as Record<string, string>);
        }),
        saveDashboard: fromPromise(async ({ input }) => ({
          ...DASH,
          charts: input.charts,
          layout: input.layout,
        })),
      },
    }),
    { input: { id: 'd1' } },
  ).start();
  return { actor, requests };
}

const rowsFor = (filters: Record<string, string>): DashboardData => ({
  server_ms: 4.2,
  charts: [
    {
      id: 'c1',
      rows: filters.class
        ? [{ key: filters.class, value: 2 }]
        : [
            { key: 'person', value: 5 },
            { key: 'car', value: 2 },
          ],
    },
    {
      id: 'c2',
      rows: [
        { key: '2026-11-28T10:00:00.000Z', value: filters.class ? 1 : 4 },
        { key: '2026-11-28T11:00:00.000Z', value: filters.class ? 1 : 3 },
      ],
    },
  ],
});

describe('dashboard view', () => {
  it('shows every chart with labels, totals and what a click does; a click filters all charts', async () => {
    const { actor, requests } = dashboardActor(rowsFor);
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    let v = dashboardToView(actor.getSnapshot(), 'en');
    expect(v.state).toBe('ready');
    expect(v.name).toBe('Lobby');
    expect(v.collectionId).toBe('k1');
    // a chart without a layout item gets one beside the first
    expect(v.layout).toEqual([
      { i: 'c1', x: 0, y: 0, w: 6, h: 8 },
      { i: 'c2', x: 6, y: 0, w: 6, h: 8 },
    ]);
    expect(v.charts.map((c) => [c.id, c.total, c.clickAction, c.activeKey])).toEqual([
      ['c1', 7, 'filter', null],
      ['c2', 7, 'zoom', null],
    ]);
    expect(v.charts[0]!.labels).toEqual(['person', 'car']);
    expect(v.charts[1]!.labels[0]).toBe(bucketLabel('2026-11-28T10:00:00.000Z', 3600, 'en'));
    expect(v.filters).toEqual([]);
    expect(v.buckets).toEqual([60, 300, 900, 3600, 21600, 86400]);
    expect(v.serverMs).toBe(4.2);
    // the default window: the last 24 h, ending at the end of the current hour
    expect(Date.parse(requests[0]!.to) % 3_600_000).toBe(0);
    expect(Date.parse(requests[0]!.to) - Date.parse(requests[0]!.from)).toBe(86_400_000);

    actor.send({ type: 'filter.click', chartId: 'c1', key: 'car' });
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    v = dashboardToView(actor.getSnapshot(), 'en');
    expect(requests.at(-1)!.filters).toEqual({ class: 'car' });
    expect(v.filters).toEqual([{ dimension: 'class', value: 'car' }]);
    expect(v.charts.map((c) => [c.total, c.activeKey])).toEqual([
      [2, 'car'],
      [2, null],
    ]);
    // a time chart's click is no filter
    actor.send({ type: 'filter.click', chartId: 'c2', key: '2026-11-28T10:00:00.000Z' });
    expect(dashboardToView(actor.getSnapshot(), 'en').filters).toHaveLength(1);
    // the chip removes it
    actor.send({ type: 'filter.remove', dimension: 'class' });
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    expect(dashboardToView(actor.getSnapshot(), 'en').charts[0]!.total).toBe(7);
    expect(requests.at(-1)!.filters).toEqual({});
  });

  it('zooms into a time bucket with a finer bucket, and offers only buckets that fit the range', async () => {
    const { actor, requests } = dashboardActor(rowsFor);
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    actor.send({ type: 'range.zoom', from: '2026-11-28T10:00:00.000Z' });
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    expect(requests.at(-1)).toMatchObject({
      from: '2026-11-28T10:00:00.000Z',
      to: '2026-11-28T11:00:00.000Z',
      bucket: 60,
    });
    const v = dashboardToView(actor.getSnapshot(), 'en');
    expect(v.range).toEqual({
      kind: 'absolute',
      from: Date.parse('2026-11-28T10:00:00.000Z'),
      to: Date.parse('2026-11-28T11:00:00.000Z'),
    });
    expect(v.canZoom).toBe(false);
    expect(v.charts[1]!.clickAction).toBe('none');
    actor.send({ type: 'range.set', range: { kind: 'relative', preset: '30d' } });
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    const w = dashboardToView(actor.getSnapshot(), 'en');
    // 60 s would be 43,200 buckets (> 2000): the range picks one that fits, and only those are offered
    expect(w.bucketSeconds).toBe(21_600);
    expect(w.buckets).toEqual([3600, 21600, 86400]);
  });

  it('shows the chart form, its dimensions and the save state', async () => {
    const { actor } = dashboardActor(rowsFor);
    await waitFor(actor, (s) => s.matches({ ready: { data: 'shown' } }));
    actor.send({ type: 'editor.open' });
    let v = dashboardToView(actor.getSnapshot(), 'en');
    expect(v.editor).toMatchObject({ isNew: true, chart: { id: 'c3', group_by: 'time' } });
    expect(v.editor!.dimensions).toEqual(['class', 'camera', 'severity']);
    actor.send({ type: 'editor.change', patch: { source: 'crossings', group_by: 'direction' } });
    expect(dashboardToView(actor.getSnapshot(), 'en').editor!.dimensions).toContain('direction');
    actor.send({ type: 'editor.submit' });
    v = dashboardToView(actor.getSnapshot(), 'en');
    expect(v.editor).toBeNull();
    expect(v.save).toBe('saving');
    expect(v.charts.map((c) => c.id)).toEqual(['c1', 'c2', 'c3']);
    expect(v.charts[2]!.loaded).toBe(false);
    await waitFor(actor, (s) => s.matches({ ready: { save: 'idle', data: 'shown' } }));
    expect(dashboardToView(actor.getSnapshot(), 'en').save).toBe('idle');
  });
});

describe('named list view', () => {
  it('shows the items, the name form with its error and the delete confirmation', async () => {
    const items = [{ id: 'a', name: 'Lobby', count: 2, updatedAt: '2026-11-28T00:00:00.000Z' }];
    const actor = createActor(
      namedListMachine.provide({
        actors: {
          loadList: fromPromise<NamedListLoaded, { parentId: string | null }>(async () => ({
            title: 'Site A',
            items,
          })),
          saveItem: fromPromise<NamedItem, SaveItemInput>(async () => {
            throw new Error('A collection with this name already exists.');
          }),
        },
      }),
      { input: { parentId: 'k1' } },
    ).start();
    expect(namedListToView(actor.getSnapshot())).toMatchObject({ state: 'loading', busy: true, edit: null });
    await waitFor(actor, (s) => s.matches('ready'));
    expect(namedListToView(actor.getSnapshot())).toMatchObject({ state: 'ready', title: 'Site A', items });
    actor.send({ type: 'rename.open', id: 'a' });
    expect(namedListToView(actor.getSnapshot()).edit).toEqual({
      id: 'a',
      name: 'Lobby',
      error: null,
      saving: false,
    });
    actor.send({ type: 'edit.change', name: 'Lobby 2' });
    actor.send({ type: 'edit.submit' });
    expect(namedListToView(actor.getSnapshot()).edit?.saving).toBe(true);
    await waitFor(actor, (s) => s.matches('editing'));
    expect(namedListToView(actor.getSnapshot()).edit?.error).toBe(
      'A collection with this name already exists.',
    );
    actor.send({ type: 'edit.cancel' });
    actor.send({ type: 'delete.ask', id: 'a' });
    expect(namedListToView(actor.getSnapshot()).confirm?.name).toBe('Lobby');
  });
});

describe('dashboard model', () => {
  it('aligns relative windows to the bucket and keeps absolute ones', () => {
    const now = Date.parse('2026-11-28T10:17:30.000Z');
    expect(resolveWindow({ kind: 'relative', preset: '1h' }, 60, now)).toEqual({
      from: '2026-11-28T09:18:00.000Z',
      to: '2026-11-28T10:18:00.000Z',
      bucketSeconds: 60,
    });
    expect(resolveWindow({ kind: 'relative', preset: '24h' }, 3600, now)).toEqual({
      from: '2026-11-27T11:00:00.000Z',
      to: '2026-11-28T11:00:00.000Z',
      bucketSeconds: 3600,
    });
    expect(resolveWindow({ kind: 'absolute', from: 0, to: 60_000 }, 60, now)).toEqual({
      from: '1970-01-01T00:00:00.000Z',
      to: '1970-01-01T00:01:00.000Z',
      bucketSeconds: 60,
    });
    expect(bucketFor(3_600_000)).toBe(60);
    expect(bucketFor(86_400_000)).toBe(900);
    expect(bucketFor(400 * 86_400_000)).toBe(86_400);
  });

  it('numbers and places new charts, and keeps the layout to the charts', () => {
    expect(nextChartId([])).toBe('c1');
    expect(nextChartId(DASH.charts)).toBe('c3');
    expect(placeChart([], 'c1')).toEqual({ i: 'c1', x: 0, y: 0, w: 6, h: 8 });
    expect(placeChart([{ i: 'c1', x: 0, y: 0, w: 12, h: 8 }], 'c2')).toEqual({
      i: 'c2',
      x: 0,
      y: 8,
      w: 6,
      h: 8,
    });
    expect(layoutFor([DASH.charts[1]!], [{ i: 'c1', x: 0, y: 0, w: 6, h: 8 }])).toEqual([
      { i: 'c2', x: 0, y: 0, w: 6, h: 8 },
    ]);
  });

  it('sets, toggles and ignores click filters', () => {
    expect(clickFilter({}, 'class', 'car')).toEqual({ class: 'car' });
    expect(clickFilter({ class: 'car' }, 'class', 'car')).toEqual({});
    expect(clickFilter({ class: 'car' }, 'gender', 'female')).toEqual({ class: 'car', gender: 'female' });
    expect(clickFilter({ class: 'car' }, 'class', '')).toEqual({ class: 'car' });
    const view = chartToView(DASH.charts[0]!, undefined, { class: 'car' }, 3600, 'en', true);
    expect(view).toMatchObject({ loaded: false, total: 0, activeKey: 'car', clickAction: 'filter' });
  });
});
