/**
 * The use-case data reader on model-based paths (issue 11 "live in/out counts"): a query read, kept fresh by
 * polling (the delay fired on the simulated clock), a failed read retried, a new query replacing the old
 * answer, clear; and with polling off it stays put.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type EventObject, type SnapshotFrom } from 'xstate';
import { useCaseDataMachine } from '../../../machines/useCases/useCaseData.machine';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof useCaseDataMachine>;
const ANSWER = { total: { in: 3, out: 1 } };

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'data.query':
      // the same query again, or another one
      return [
        { type, query: { id: 'a' } },
        ...(s.context.query ? [{ type, query: { id: 'b' } }] : []),
      ] as unknown as EventObject[];
    case 'xstate.done.actor.fetchData':
      return [{ type, output: ANSWER }] as unknown as EventObject[];
    case 'xstate.error.actor.fetchData':
      return [{ type, error: new Error('Use case not found.') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) => JSON.stringify([s.value, s.context.query, s.context.data !== null, s.context.error]);

describe('use-case data reader (model-based paths)', () => {
  const paths = createMachineTestModel(useCaseDataMachine, {
    events: eventsFor,
    key,
    input: { pollMs: 2000 },
    transitionCoverage: true,
  }).getShortestPaths({ allowDuplicatePaths: true });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(useCaseDataMachine.provide({ actors: { fetchData: driver.promise('fetchData') } }), {
        input: { pollMs: 2000 },
        clock: driver.clock,
      }).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    // polling: ready → loading by the delay, failed → loading by the delay
    const polled = paths.some((p) =>
      p.steps.some(
        (st, i) => i > 0 && st.event.type.startsWith('xstate.after') && st.state.matches('loading'),
      ),
    );
    expect(polled).toBe(true);
    // another query drops the old answer
    for (const p of paths)
      for (const st of p.steps)
        if (
          st.event.type === 'data.query' &&
          (st.event as unknown as { query: { id: string } }).query.id === 'b'
        )
          expect(
            st.state.context.data === null || (st.state.context.query as { id: string }).id === 'b',
          ).toBe(true);
  });

  it('reads once and stays put with polling off', async () => {
    let reads = 0;
    const actor = createActor(
      useCaseDataMachine.provide({
        actors: { fetchData: fromPromise<unknown, unknown>(async () => ++reads) },
      }),
      { input: { pollMs: 0 } },
    ).start();
    actor.send({ type: 'data.query', query: { id: 'a' } });
    await waitFor(actor, (s) => s.matches('ready'));
    await new Promise((r) => setTimeout(r, 50));
    expect(reads).toBe(1);
    expect(actor.getSnapshot().matches('ready')).toBe(true);
    actor.send({ type: 'data.clear' });
    expect(actor.getSnapshot().context).toMatchObject({ query: null, data: null });
  });
});
