/**
 * The quick search machine (machines/search/quickSearch.machine.ts; spec §5, §8), model-based: typing short
 * and searchable text, the 200 ms debounce, answers and failures, clearing; followed on the real machine with
 * a simulated clock.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { quickSearchMachine, SEARCH_FAILED_TEXT } from '../../../machines/search/quickSearch.machine';
import type { SearchHit } from '../../../src/protocol/search';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof quickSearchMachine>;
const hit: SearchHit = { kind: 'device', id: 'dev-1', label: 'Dock', detail: null, link: '/x' };

function events(_s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'quickSearch.type':
      return [
        { type, text: 'd' },
        { type, text: 'do' },
      ] as unknown as EventObject[];
    case 'xstate.done.actor.search':
      return [
        { type, output: [hit] },
        { type, output: [] },
      ] as unknown as EventObject[];
    case 'xstate.error.actor.search':
      return [{ type, error: new Error('offline') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}
const key = (s: Snap) => JSON.stringify([s.value, s.context.text, s.context.hits.length, s.context.error]);

describe('quick search (model-based paths)', () => {
  const paths = createMachineTestModel(quickSearchMachine, { events, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('searches only from 2 characters, shows hits, nothing found, or the §8 text', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches('searching') && s.context.text === 'd')).toBe(false);
    expect(ends.some((s) => s.matches('results') && s.context.hits.length === 1)).toBe(true);
    expect(ends.some((s) => s.matches('results') && s.context.hits.length === 0)).toBe(true);
    expect(ends.some((s) => s.matches('failed') && s.context.error === SEARCH_FAILED_TEXT)).toBe(true);
    expect(ends.some((s) => s.matches('idle') && s.context.text === 'd' && s.context.hits.length === 0)).toBe(
      true,
    );
  });

  it('follows every modelled path on the real machine (the 200 ms debounce on the simulated clock)', async () => {
    const start = (driver: Driver) =>
      createActor(
        quickSearchMachine.provide({
          actors: { search: driver.promise<SearchHit[], { q: string }>('search') },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(paths.length);
  });
});
