/**
 * The dashboard machine of /analytics/dashboard/{id} on model-based paths (issue 11 "a grid of charts …
 * clicking a chart filters the dashboard"; machines/analytics/dashboard.machine.ts): load or fail and retry;
 * the data region fetching, shown or failed, fetching again on a click filter, its chip's removal, a range,
 * a bucket, a zoom and a refresh; the save region saving at once after a chart is added or removed and after
 * a quiet time after a layout change, and keeping a failed save's error.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { dashboardMachine } from '../../../machines/analytics/dashboard.machine';
import type { Dashboard, DashboardData } from '../../../src/protocol/analytics';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof dashboardMachine>;

const DASH: Dashboard = {
  id: 'd1',
  name: 'Lobby',
  collection_id: 'k1',
  charts: [
    { id: 'c1', title: '', source: 'sightings', group_by: 'class', type: 'bar' },
    { id: 'c2', title: '', source: 'sightings', group_by: 'time', type: 'bar' },
  ],
  layout: [],
  updated_at: '2026-11-28T00:00:00.000Z',
};
const DATA: DashboardData = {
  server_ms: 3,
  charts: [
    { id: 'c1', rows: [{ key: 'car', value: 2 }] },
    { id: 'c2', rows: [{ key: '2026-11-28T10:00:00.000Z', value: 2 }] },
  ],
};

const DATA_SIDE = new Set([
  'filter.click',
  'filter.remove',
  'range.set',
  'bucket.set',
  'range.zoom',
  'data.refresh',
  'filter.clear',
]);
const SAVE_SIDE = new Set([
  'layout.change',
  'editor.open',
  'editor.change',
  'chart.remove',
  'editor.submit',
  'editor.cancel',
]);

/** The data side's model leaves the charts alone, the save side's model leaves the filters and range. */
const eventsOf =
  (side: 'data' | 'save') =>
  (s: Snap, type: string): EventObject[] | undefined =>
    (side === 'data' ? SAVE_SIDE : DATA_SIDE).has(type) ||
    (side === 'data' && type.includes('saveDashboard')) ||
    (side === 'save' && type === 'xstate.error.actor.loadData')
      ? []
      : eventsFor(s, type);

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const e = (x: object) => [{ type, ...x }] as unknown as EventObject[];
  switch (type) {
    case 'filter.click':
      // a dimension chart (filters) and a time chart (does not)
      return s.context.filters.class
        ? []
        : ([
            { type, chartId: 'c1', key: 'car' },
            { type, chartId: 'c2', key: '2026-11-28T10:00:00.000Z' },
          ] as unknown as EventObject[]);
    case 'filter.remove':
      return e({ dimension: 'class' });
    case 'range.set':
      return s.context.range.kind === 'relative' && s.context.range.preset === '30d'
        ? []
        : e({ range: { kind: 'relative', preset: '30d' } });
    case 'bucket.set':
      // 60 s over 30 days does not fit (refused); a day does
      return [
        { type, bucketSeconds: 60 },
        { type, bucketSeconds: 86_400 },
      ] as unknown as EventObject[];
    case 'range.zoom':
      return s.context.range.kind === 'absolute' ? [] : e({ from: '2026-11-28T10:00:00.000Z' });
    case 'layout.change':
      return s.context.layout.some((l) => l.w === 12)
        ? []
        : e({
            layout: [
              { i: 'c1', x: 0, y: 0, w: 12, h: 8 },
              { i: 'c2', x: 0, y: 8, w: 6, h: 8 },
            ],
          });
    case 'editor.open':
      return s.context.charts.length > 2 ? [] : e({});
    case 'editor.change':
      return s.context.editor?.chart.source === 'crossings' ? [] : e({ patch: { source: 'crossings' } });
    case 'chart.remove':
      return s.context.charts.some((c) => c.id === 'c1') ? e({ id: 'c1' }) : [];
    case 'editor.submit':
    case 'editor.cancel':
    case 'data.refresh':
    case 'filter.clear':
    case 'dashboard.retry':
      return e({});
    case 'charts.changed':
    case 'layout.changed':
    case 'data.fetch':
      return []; // raised by the machine itself
    case 'xstate.done.actor.loadDashboard':
      return e({ output: DASH });
    case 'xstate.error.actor.loadDashboard':
      return e({ error: new Error('Dashboard not found.') });
    case 'xstate.done.actor.loadData':
      return e({ output: DATA });
    case 'xstate.error.actor.loadData':
      return e({ error: new Error('Servers are unavailable.') });
    case 'xstate.done.actor.saveDashboard':
      return e({ output: DASH });
    case 'xstate.error.actor.saveDashboard':
      return e({ error: new Error('Dashboard not found.') });
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.charts.map((c) => `${c.id}:${c.source}`),
    s.context.layout.map((l) => `${l.i}:${l.w}`),
    s.context.filters,
    s.context.range.kind === 'relative' ? s.context.range.preset : 'abs',
    s.context.bucketSeconds,
    s.context.editor?.chart.source ?? null,
    s.context.dataError,
    s.context.saveError,
    s.context.error,
  ]);

describe('dashboard machine (model-based paths)', () => {
  const pathsOf = (side: 'data' | 'save') =>
    createMachineTestModel(dashboardMachine, {
      events: eventsOf(side),
      key,
      input: { id: 'd1' },
    }).getShortestPaths({
      allowDuplicatePaths: true,
    });
  const paths = [...pathsOf('data'), ...pathsOf('save')];

  it('follows every modelled path on the real machine', async () => {
    const saved: unknown[] = [];
    const start = (driver: Driver) =>
      createActor(
        dashboardMachine.provide({
          actors: {
            loadDashboard: driver.promise('loadDashboard'),
            loadData: driver.promise('loadData'),
            saveDashboard: driver.promise('saveDashboard', (i) => {
              saved.push(i);
              return '';
            }),
          },
        }),
        { input: { id: 'd1' }, clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    const has = (f: (s: Snap) => boolean) => expect(ends.some(f)).toBe(true);
    has((s) => s.matches('failed') && s.context.error === 'Dashboard not found.');
    has(
      (s) => s.matches({ ready: { data: 'failed' } }) && s.context.dataError === 'Servers are unavailable.',
    );
    has((s) => s.matches({ ready: { save: 'pending' } }));
    has((s) => s.matches({ ready: { save: 'idle' } }) && s.context.saveError === 'Dashboard not found.');
    has((s) => s.context.filters.class === 'car');
    has((s) => s.context.range.kind === 'absolute' && s.context.bucketSeconds === 60);
    has((s) => s.context.charts.length === 3 && s.context.charts[2]!.source === 'crossings');
    for (const p of paths)
      for (const st of p.steps) {
        // a time chart's click never filters; a bucket that does not fit is never taken
        expect(Object.keys(st.state.context.filters)).not.toContain('time');
        if (st.state.context.range.kind === 'relative' && st.state.context.range.preset === '30d')
          expect(st.state.context.bucketSeconds).not.toBe(60);
        // every chart has a layout item and no item is left without a chart
        expect(st.state.context.layout.map((l) => l.i).sort()).toEqual(
          st.state.matches('ready') ? st.state.context.charts.map((c) => c.id).sort() : [],
        );
      }
    // a save carries the charts and the layout as they are
    expect(saved.some((x) => (x as { charts: unknown[] }).charts.length === 3)).toBe(true);
  });

  it('a new chart’s rows are read once its save is done (the server reads the saved charts; scripted)', async () => {
    const reads: number[] = [];
    let saved: (d: Dashboard) => void = () => undefined;
    const actor = createActor(
      dashboardMachine.provide({
        actors: {
          loadDashboard: fromPromise(async () => DASH),
          loadData: fromPromise(async () => {
            reads.push(Date.now());
            return DATA;
          }),
          saveDashboard: fromPromise(() => new Promise<Dashboard>((resolve) => (saved = resolve))),
        },
      }),
      { input: { id: 'd1' } },
    ).start();
    const settle = () => new Promise((r) => setTimeout(r, 0));
    await settle();
    await settle();
    expect(reads).toHaveLength(1);
    actor.send({ type: 'editor.open' });
    actor.send({ type: 'editor.submit' });
    await settle();
    expect(actor.getSnapshot().matches({ ready: { save: 'saving' } })).toBe(true);
    expect(reads).toHaveLength(1); // not before the save: the server would not know the new chart yet
    saved({ ...DASH, charts: actor.getSnapshot().context.charts });
    await settle();
    await settle();
    expect(reads).toHaveLength(2);
    expect(actor.getSnapshot().context.fetchAfterSave).toBe(false);
    actor.stop();
  });
});
