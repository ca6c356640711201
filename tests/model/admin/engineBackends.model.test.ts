/**
 * The engine backends machine on model-based paths (issue 13 /admin-panel/engines/engine-backends): load and
 * fail; add and edit (an incomplete draft is not saved; a refused save keeps the draft and the error); delete
 * asked, cancelled, confirmed or refused.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { engineBackendsMachine } from '../../../machines/admin/engineBackends.machine';
import type { EngineBackend } from '../../../src/protocol/admin';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

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

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'edit.open':
      return [
        { type, id: null },
        { type, id: 'b1' },
      ] as unknown as EventObject[];
    case 'edit.change':
      return s.context.draft.version === ''
        ? ([{ type, patch: { version: '6.0', image: 'edge/x:1' } }] as unknown as EventObject[])
        : [];
    case 'delete.ask':
      return [{ type, id: 'b1' }] as unknown as EventObject[];
    case 'xstate.done.actor.loadBackends':
      return [{ type, output: [row] }] as unknown as EventObject[];
    case 'xstate.error.actor.loadBackends':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    case 'xstate.done.actor.saveBackend':
    case 'xstate.done.actor.deleteBackend':
      return [{ type, output: {} }] as unknown as EventObject[];
    case 'xstate.error.actor.saveBackend':
      return [{ type, error: new Error(TAKEN) }] as unknown as EventObject[];
    case 'xstate.error.actor.deleteBackend':
      return [{ type, error: new Error('Engine backend not found.') }] as unknown as EventObject[];
    default:
      return undefined;
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
    const paths = createMachineTestModel(engineBackendsMachine, { events: eventsFor, key }).getShortestPaths({
      allowDuplicatePaths: true,
    });
    const start = (driver: Driver) =>
      createActor(
        engineBackendsMachine.provide({
          actors: {
            loadBackends: driver.promise('loadBackends'),
            saveBackend: driver.promise('saveBackend'),
            deleteBackend: driver.promise('deleteBackend'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of [
      'idle',
      'loading',
      'ready',
      'failed',
      'editing',
      'saving',
      'confirming',
      'deleting',
    ] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
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
