/**
 * A use case's data — read and kept fresh (issue 11 "live in/out counts"; `/use-cases/person-counter`
 * (+ /analytics), `/use-cases/demographic`, `/use-cases/vehicle-plate-detection`; GET
 * use-cases/:id/{counts,people,vehicles} of src/protocol/analytics.ts). Generic over the query and the answer:
 * the screen gives the query (use case, window, bucket, search) and the provided actor `fetchData` reads it.
 *
 * idle → (data.query { query }) → loading → ready | failed. While ready, the read is repeated every
 * `pollMs` (input; 0: never) so live counts move; a failed read is retried after `pollMs` too (or on
 * data.refresh). data.query from any state replaces the query and reads at once (the old read is dropped);
 * data.clear → idle with nothing kept. Tags: `busy` while loading. Pure: the call is the provided actor.
 */
import { assign, fromPromise, setup } from 'xstate';

export interface UseCaseDataContext {
  query: unknown;
  data: unknown;
  error: string | null;
  /** ms since the epoch of the last successful read. */
  lastUpdate: number | null;
  pollMs: number;
}

export type UseCaseDataEvent =
  { type: 'data.query'; query: unknown } | { type: 'data.refresh' } | { type: 'data.clear' };

const messageOf = (e: unknown) =>
  e instanceof Error && e.message ? e.message : 'The data could not be read.';

export const useCaseDataMachine = setup({
  types: {
    context: {} as UseCaseDataContext,
    events: {} as UseCaseDataEvent,
    input: {} as { pollMs: number },
  },
  actors: {
    fetchData: fromPromise<unknown, unknown>(async () => {
      throw new Error('useCaseData: fetchData is not provided');
    }),
  },
  guards: {
    polls: ({ context }) => context.pollMs > 0,
  },
  delays: {
    poll: ({ context }) => context.pollMs,
  },
}).createMachine({
  id: 'useCaseData',
  context: ({ input }) => ({ query: null, data: null, error: null, lastUpdate: null, pollMs: input.pollMs }),
  initial: 'idle',
  on: {
    'data.query': {
      target: '.loading',
      reenter: true,
      actions: assign(({ context, event }) => ({
        query: event.query,
        // a new use case or window: the old answer no longer applies
        data: JSON.stringify(event.query) === JSON.stringify(context.query) ? context.data : null,
        error: null,
      })),
    },
    'data.clear': {
      target: '.idle',
      actions: assign({ query: null, data: null, error: null, lastUpdate: null }),
    },
  },
  states: {
    idle: {},
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'fetchData',
        src: 'fetchData',
        input: ({ context }: { context: UseCaseDataContext }) => context.query,
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ data: event.output, error: null, lastUpdate: Date.now() })),
        },
        onError: { target: 'failed', actions: assign({ error: ({ event }) => messageOf(event.error) }) },
      },
    },
    ready: {
      on: { 'data.refresh': 'loading' },
      after: { poll: { guard: 'polls', target: 'loading' } },
    },
    failed: {
      on: { 'data.refresh': 'loading' },
      after: { poll: { guard: 'polls', target: 'loading' } },
    },
  },
});
