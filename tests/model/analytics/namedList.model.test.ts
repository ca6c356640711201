/**
 * The named list machine of the analytics lists (collections; a collection's dashboards) on model-based
 * paths (issue 11 Analytics; machines/analytics/namedList.machine.ts): load, fail and retry; create and
 * rename through the name form (an empty name refused with the contract's text, a server refusal kept in the
 * form); delete asked (only a listed item), cancelled, confirmed (reload) or refused (error shown).
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  NAME_REQUIRED,
  namedListMachine,
  type NamedListLoaded,
} from '../../../machines/analytics/namedList.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof namedListMachine>;

const ITEM = { id: 'a', name: 'Lobby', count: 2, updatedAt: '2026-11-28T00:00:00.000Z' };
const loaded: NamedListLoaded = { title: 'Site A', items: [ITEM] };

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'rename.open':
    case 'delete.ask':
      return [
        { type, id: 'a' },
        { type, id: 'unknown' },
      ] as unknown as EventObject[];
    case 'edit.change':
      // an empty name, then a real one (once each, so the graph stays finite)
      return s.context.edit?.name === 'Entrance'
        ? []
        : ([{ type, name: s.context.edit?.name === '' ? 'Entrance' : '' }] as unknown as EventObject[]);
    case 'xstate.done.actor.loadList':
      return [{ type, output: loaded }] as unknown as EventObject[];
    case 'xstate.error.actor.loadList':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    case 'xstate.done.actor.saveItem':
      return [{ type, output: { ...ITEM, id: 'b', name: 'Entrance' } }] as unknown as EventObject[];
    case 'xstate.error.actor.saveItem':
      return [
        { type, error: new Error('A collection with this name already exists.') },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.removeItem':
      return [{ type, output: { ok: true } }] as unknown as EventObject[];
    case 'xstate.error.actor.removeItem':
      return [{ type, error: new Error('Collection not found.') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.items.length,
    s.context.edit,
    s.context.target?.id ?? null,
    s.context.error,
    s.context.lastSaved?.id ?? null,
  ]);

describe('named list machine (model-based paths)', () => {
  const paths = createMachineTestModel(namedListMachine, {
    events: eventsFor,
    key,
    input: { parentId: 'k1' },
  }).getShortestPaths({ allowDuplicatePaths: true });

  it('follows every modelled path on the real machine', async () => {
    const inputs: unknown[] = [];
    const start = (driver: Driver) =>
      createActor(
        namedListMachine.provide({
          actors: {
            loadList: driver.promise('loadList', (i) => {
              inputs.push(i);
              return '';
            }),
            saveItem: driver.promise('saveItem', (i) => {
              inputs.push(i);
              return '';
            }),
            removeItem: driver.promise('removeItem'),
          },
        }),
        { input: { parentId: 'k1' }, clock: driver.clock },
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['loading', 'failed', 'ready', 'editing', 'saving', 'confirming', 'deleting'] as const)
      expect(
        ends.some((s) => s.matches(st)),
        st,
      ).toBe(true);
    // an empty name never reaches the server; a refusal stays in the form
    expect(ends.some((s) => s.matches('editing') && s.context.edit?.error === NAME_REQUIRED)).toBe(true);
    expect(
      ends.some(
        (s) =>
          s.matches('editing') && s.context.edit?.error === 'A collection with this name already exists.',
      ),
    ).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.error === 'Collection not found.')).toBe(true);
    for (const p of paths)
      for (const st of p.steps) {
        if (st.state.matches('confirming')) expect(st.state.context.target?.id).toBe('a');
        if (st.state.matches('saving')) expect(st.state.context.edit?.name.trim()).not.toBe('');
      }
    // the parent id reaches the calls; a save carries the trimmed name
    expect(inputs).toContainEqual({ parentId: 'k1' });
    expect(inputs).toContainEqual({ parentId: 'k1', id: null, name: 'Entrance' });
    expect(inputs).toContainEqual({ parentId: 'k1', id: 'a', name: 'Entrance' });
  });
});
