/**
 * The engine backends machine on model-based paths (issue 13 /admin-panel/engines/engine-backends): load and
 * fail; add and edit (an incomplete draft is not saved; a refused save keeps the draft and the error); delete
 * asked, cancelled, confirmed or refused. The shared list machine's harness (tests/model/listHarness.ts).
 */
import { describe, expect, it } from 'vitest';
import type { EventObject, SnapshotFrom } from 'xstate';
import { engineBackendsMachine } from '../../../machines/admin/engineBackends.machine';
import type { EngineBackend } from '../../../src/protocol/admin';
import { listEvents, runListModel, sample, type ListSamples } from '../listHarness';

type Snap = SnapshotFrom<typeof engineBackendsMachine>;
const row: EngineBackend = {
  id: 'b1',
  platform: 'jetpack',
  version: '5.1',
  image: 'edge/inference-engine:l4t-r35.4',
  note: '',
  updated_at: '2026-11-27T20:00:00.000Z',
};
const TAKEN = 'An engine backend for this platform and version exists already.';

const shared: ListSamples = {
  load: { src: 'loadBackends', output: [row] },
  remove: { src: 'deleteBackend', error: 'Engine backend not found.' },
  listedId: 'b1',
};

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'edit.open':
      return sample([
        { type, id: null },
        { type, id: 'b1' },
      ]);
    case 'edit.change':
      return s.context.draft.version === ''
        ? sample([{ type, patch: { version: '6.0', image: 'edge/x:1' } }])
        : [];
    case 'xstate.done.actor.saveBackend':
      return sample([{ type, output: {} }]);
    case 'xstate.error.actor.saveBackend':
      return sample([{ type, error: new Error(TAKEN) }]);
    default:
      return listEvents(shared, type);
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.backends.length,
    s.context.editingId,
    s.context.draft.version,
    s.context.target?.id ?? null,
    s.context.error,
  ]);

describe('engine backends machine (model-based paths)', () => {
  it('follows every modelled path on the real machine', async () => {
    const { paths, ends } = await runListModel({
      machine: engineBackendsMachine,
      actors: ['loadBackends', 'saveBackend', 'deleteBackend'],
      events: eventsFor,
      key,
      states: ['idle', 'loading', 'ready', 'failed', 'editing', 'saving', 'confirming', 'deleting'],
    });
    expect(ends.some((s) => s.matches('ready') && s.context.error === 'Engine backend not found.')).toBe(
      true,
    );
    expect(ends.some((s) => s.matches('editing') && s.context.error === TAKEN)).toBe(true);
    // An empty draft never reaches saving.
    for (const p of paths)
      for (const st of p.steps)
        if (st.state.matches('saving')) expect(st.state.context.draft.version).not.toBe('');
    // Editing a listed row starts from its values.
    expect(
      ends.some(
        (s) => s.matches('editing') && s.context.editingId === 'b1' && s.context.draft.version === '5.1',
      ),
    ).toBe(true);
  });
});
