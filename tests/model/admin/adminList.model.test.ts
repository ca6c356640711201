/**
 * The admin list machine on model-based paths (issue 13 admin panel: users, clients, audit log lists): load,
 * fail and reload; a query change and a page change from ready, failed and while loading (the read in flight
 * restarts); reset.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { adminListMachine, type ListPage } from '../../../machines/admin/adminList.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof adminListMachine>;

const page: ListPage = { rows: [{ id: 'u1' }], total: 1, totalCapped: false, next: 'c2', prev: null };

function eventsFor(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'list.query':
      return [{ type, patch: { search: 'ada' } }] as unknown as EventObject[];
    case 'list.page':
      return [{ type, cursor: 'c2' }] as unknown as EventObject[];
    case 'xstate.done.actor.loadPage':
      return [{ type, output: page }] as unknown as EventObject[];
    case 'xstate.error.actor.loadPage':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.query,
    s.context.cursor,
    s.context.page?.total ?? null,
    s.context.error,
  ]);

describe('admin list machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const paths = createMachineTestModel(adminListMachine, {
      events: eventsFor,
      key,
      input: { query: { sort: 'email' } },
    }).getShortestPaths({ allowDuplicatePaths: true });
    const start = (driver: Driver) =>
      createActor(adminListMachine.provide({ actors: { loadPage: driver.promise('loadPage') } }), {
        input: { query: { sort: 'email' } },
      }).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    // A query change keeps the default sort, adds the search and goes back to the first page.
    const queried = ends.find((s) => s.context.query.search === 'ada' && s.matches('loading'));
    expect(queried?.context.query).toEqual({ sort: 'email', search: 'ada' });
    expect(queried?.context.cursor).toBeNull();
    expect(ends.some((s) => s.matches('failed') && s.context.error === 'Servers are unavailable.')).toBe(
      true,
    );
  });
});
