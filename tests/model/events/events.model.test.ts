/**
 * The events timeline machine on model-based paths (issue 11 /events): load, fail and reload; filters reload
 * the first page; more pages append; selection toggled and reviewed in bulk (reload, selection cleared) or
 * refused (notice); one event reviewed from the viewer.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { eventsMachine } from '../../../machines/events/events.machine';
import type { EventsPage, EventView } from '../../../src/protocol/events';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof eventsMachine>;

const ev = (id: string): EventView => ({
  id,
  alarm_id: 'a1',
  alarm_name: 'Door',
  device_id: 'dev-1',
  device_label: 'Box',
  camera_id: 'dev-1_cam-1',
  camera_kind: 'PHYSICAL',
  job_id: null,
  track_id: '1',
  at: '2026-11-25T10:00:00.000Z',
  class: 'person',
  score: 0.9,
  box: { x: 0.1, y: 0.1, w: 0.2, h: 0.3 },
  severity: 'warning',
  reviewed: false,
  identity: null,
  attributes: {},
  snapshot_url: null,
  clip_url: null,
});
const page1: EventsPage = {
  events: [ev('e1')],
  next: { before_at: '2026-11-25T10:00:00.000Z', before_id: 'e1' },
};
const page2: EventsPage = { events: [ev('e2')], next: null };

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const list = (xs: object[]) => xs as unknown as EventObject[];
  switch (type) {
    case 'filters.set':
      return list([{ type, filters: { class: 'person' } }]);
    case 'select.toggle':
      return list([{ type, id: 'e1' }]);
    case 'review.selected':
      return list([{ type, reviewed: true }]);
    case 'review.one':
      return list([{ type, id: 'e1', reviewed: true }]);
    case 'event.open':
      return list([{ type, id: 'e1' }]);
    case 'xstate.done.actor.loadEvents':
      return list([{ type, output: s.matches('loadingMore') ? page2 : page1 }]);
    case 'xstate.error.actor.loadEvents':
      return list([{ type, error: new Error('Servers are unavailable.') }]);
    case 'xstate.done.actor.reviewEvents':
      return list([{ type, output: { updated: s.context.selected.length || 1 } }]);
    case 'xstate.error.actor.reviewEvents':
      return list([{ type, error: new Error('refused') }]);
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.events.length,
    s.context.selected,
    s.context.filters.class,
    s.context.error,
  ]);

describe('events machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(eventsMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        eventsMachine.provide({
          actors: { loadEvents: driver.promise('loadEvents'), reviewEvents: driver.promise('reviewEvents') },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed', 'loadingMore', 'reviewing'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    // More pages append; a bulk review needs a selection and clears it.
    expect(ends.some((s) => s.matches('ready') && s.context.events.length === 2)).toBe(true);
    for (const p of paths)
      for (const st of p.steps)
        if (st.state.matches('reviewing') && st.event.type === 'review.selected')
          expect(st.state.context.selected.length).toBeGreaterThan(0);
  });
});
