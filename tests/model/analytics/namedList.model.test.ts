/**
 * The named list machine of the analytics lists (collections; a collection's dashboards) on model-based
 * paths (issue 11 Analytics; machines/analytics/namedList.machine.ts): load, fail and retry; create and
 * rename through the name form (an empty name refused with the contract's text, a server refusal kept in the
 * form); delete asked (only a listed item), cancelled, confirmed (reload) or refused (error shown). The
 * shared list machine's harness (tests/model/listHarness.ts).
 */
import { describe, expect, it } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import {
  NAME_REQUIRED,
  namedListMachine,
  type NamedListLoaded,
} from '../../../machines/analytics/namedList.machine';
import { listEvents, runListModel, sample, type ListSamples } from '../listHarness';

type Snap = SnapshotFrom<typeof namedListMachine>;

const ITEM = { id: 'a', name: 'Lobby', count: 2, updatedAt: '2026-11-28T00:00:00.000Z' };
const loaded: NamedListLoaded = { title: 'Site A', items: [ITEM] };

const shared: ListSamples = {
  load: { src: 'loadList', output: loaded },
  remove: { src: 'removeItem', error: 'Collection not found.' },
  listedId: 'a',
};

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'rename.open':
      return sample([
        { type, id: 'a' },
        { type, id: 'unknown' },
      ]);
    case 'edit.change':
      // an empty name, then a real one (once each, so the graph stays finite)
      return s.context.edit?.name === 'Entrance'
        ? []
        : sample([{ type, name: s.context.edit?.name === '' ? 'Entrance' : '' }]);
    case 'xstate.done.actor.saveItem':
      return sample([{ type, output: { ...ITEM, id: 'b', name: 'Entrance' } }]);
    case 'xstate.error.actor.saveItem':
      return sample([{ type, error: new Error('A collection with this name already exists.') }]);
    default:
      return listEvents(shared, type);
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
  it('follows every modelled path on the real machine', async () => {
    const inputs: unknown[] = [];
    const record = (i: unknown) => {
      inputs.push(i);
      return '';
    };
    const { paths, ends } = await runListModel({
      machine: namedListMachine,
      actors: ['loadList', 'saveItem', 'removeItem'],
      actorKey: { loadList: record, saveItem: record },
      events: eventsFor,
      key,
      input: { parentId: 'k1' },
      states: ['loading', 'failed', 'ready', 'editing', 'saving', 'confirming', 'deleting'],
    });
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
