/**
 * Quick search in the shell (spec §5 "Quick search: minimum 2 characters, 200 ms debounce"; §8 Search
 * "Connection error. Please try again later."; src/protocol/search.ts). One long-lived actor (systemId
 * 'quickSearch'):
 * - `quickSearch.type` { text }: fewer than 2 characters (trimmed) → `idle` with no hits; else `debouncing`,
 *   and 200 ms after the last key `searching` (a newer text cancels the call in flight);
 * - `searching` → `results` (hits) or `failed` (the §8 text);
 * - `quickSearch.clear` (Escape, a hit chosen, sign-out) → `idle`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { SearchHit } from '../../src/protocol/search';

/** §5. */
export const MIN_CHARS = 2;
/** §5, ms. */
export const DEBOUNCE_MS = 200;
/** §8 Search. */
export const SEARCH_FAILED_TEXT = 'Connection error. Please try again later.';

export interface QuickSearchContext {
  /** The text as typed. */
  text: string;
  /** The text whose hits are shown (trimmed). */
  searched: string;
  hits: SearchHit[];
  error: string | null;
}

export type QuickSearchEvent = { type: 'quickSearch.type'; text: string } | { type: 'quickSearch.clear' };

const searchable = (text: string) => text.trim().length >= MIN_CHARS;

export const quickSearchMachine = setup({
  types: { context: {} as QuickSearchContext, events: {} as QuickSearchEvent },
  actors: {
    /** GET search?q → hits. */
    search: fromPromise<SearchHit[], { q: string }>(async () => {
      throw new Error("quickSearch: actor 'search' is not provided");
    }),
  },
  delays: { debounce: DEBOUNCE_MS },
  guards: {
    searchable: ({ event }) => event.type === 'quickSearch.type' && searchable(event.text),
  },
  actions: {
    storeText: assign({ text: ({ event }) => (event.type === 'quickSearch.type' ? event.text : '') }),
    forget: assign({ text: '', searched: '', hits: [], error: null }),
  },
}).createMachine({
  id: 'quickSearch',
  context: { text: '', searched: '', hits: [], error: null },
  initial: 'idle',
  on: {
    'quickSearch.type': [
      { guard: 'searchable', target: '.debouncing', reenter: true, actions: 'storeText' },
      { target: '.idle', actions: ['forget', 'storeText'] },
    ],
    'quickSearch.clear': { target: '.idle', actions: 'forget' },
  },
  states: {
    idle: {},
    debouncing: {
      tags: ['busy'],
      after: { debounce: 'searching' },
    },
    searching: {
      tags: ['busy'],
      invoke: {
        id: 'search',
        src: 'search',
        input: ({ context }) => ({ q: context.text.trim() }),
        onDone: {
          target: 'results',
          actions: assign({
            hits: ({ event }) => event.output,
            searched: ({ context }) => context.text.trim(),
            error: null,
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({
            hits: [],
            error: SEARCH_FAILED_TEXT,
            searched: ({ context }) => context.text.trim(),
          }),
        },
      },
    },
    results: { tags: ['open'] },
    failed: { tags: ['open'] },
  },
});
