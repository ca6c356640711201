/**
 * Model-based paths over the real `metrics` actor: views spawned per open device tab, shared by two tabs,
 * stopped when the last tab closes, all stopped on reset (sign-out).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, type EventObject, type SnapshotFrom } from 'xstate';
import { metricsMachine } from '../../../machines/metrics/metrics.machine';
import type { HistoryData, SaveSettings, UsagesLike } from '../../../machines/metrics/metricsData';
import { metricsViewMachine, type LoadHistoryInput } from '../../../machines/metrics/metricsView.machine';
import { createMachineTestModel, runPaths } from '../harness';

type Snap = SnapshotFrom<typeof metricsMachine>;

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const users = (id: string) => s.context.views[id]?.users ?? 0;
  switch (type) {
    case 'metrics.open':
      return ['dev-1', 'dev-2'].filter((id) => users(id) < 2).map((deviceId) => ({ type, deviceId }));
    case 'metrics.close':
      return ['dev-1', 'dev-2', 'dev-3'].map((deviceId) => ({ type, deviceId }));
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify(
    Object.entries(s.context.views)
      .map(([id, v]) => [id, v.users, v.ref.id])
      .sort(),
  );

describe('metrics actor (model-based paths)', () => {
  const model = createMachineTestModel(metricsMachine, { events: eventsFor, key, transitionCoverage: true });
  const paths = model.getShortestPaths();

  it('keeps one view per open device, counting its tabs', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.context.views['dev-1']?.users === 2 && s.context.views['dev-2'])).toBe(true);
    for (const p of paths.filter((x) => x.steps.at(-1)?.event.type === 'metrics.reset')) {
      expect(p.state.context.views).toEqual({});
    }
  });

  it('follows every path on the real machine: views run while open and are stopped when closed', async () => {
    const view = metricsViewMachine.provide({
      actors: {
        loadHistory: fromPromise<HistoryData, LoadHistoryInput>(() => new Promise(() => undefined)),
        readUsages: fromPromise<UsagesLike, { deviceId: string }>(() => new Promise(() => undefined)),
        saveSettings: fromPromise<SaveSettings, { deviceId: string; settings: SaveSettings }>(
          () => new Promise(() => undefined),
        ),
      },
    });
    const start = () => createActor(metricsMachine.provide({ actors: { metricsView: view } })).start();
    const steps = await runPaths(paths, start, (s: Snap) => {
      for (const v of Object.values(s.context.views)) expect(v.ref.getSnapshot().status).toBe('active');
      return key(s);
    });
    expect(steps).toBeGreaterThan(0);
    // A closed view is stopped.
    const actor = start();
    actor.send({ type: 'metrics.open', deviceId: 'dev-1' });
    const ref = actor.getSnapshot().context.views['dev-1']!.ref;
    actor.send({ type: 'metrics.close', deviceId: 'dev-1' });
    expect(ref.getSnapshot().status).toBe('stopped');
    expect(actor.getSnapshot().children).toEqual({});
  });
});
