/**
 * A model list — issue 9 "Models"; §2 /models, /models-beta, /llm-models; §3 "Model/application list: data,
 * lastUpdate, loading, page_info"; §8 "Models fetch fail: 'Models could not be fetched. Please try again.'
 * (danger, title Failed)". Search (debounced), sort, pages, and delete with a confirmation. Pure: the server
 * calls are the provided actors `fetchModels` and `deleteModel` (src/console/features/models/actors.ts).
 *
 * `models.open` (kind) starts or restarts it for a screen: all models, or language models only. A failed fetch
 * emits the §8 toast and waits for `refresh`. A new query (search, sort, page) is taken in any state.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { Model } from '../../src/protocol/models';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** §8 models fetch failure. */
export const MODELS_FETCH_FAILED = {
  title: 'Failed',
  message: 'Models could not be fetched. Please try again.',
};
/** Wait after the last search key before fetching, ms. */
export const MODEL_SEARCH_DEBOUNCE_MS = 300;
/** Models per page. */
export const MODELS_PER_PAGE = 10;

export type ModelSortKey = 'updated_at' | 'name' | 'size' | 'created_at';

/** What the list asks the server for. */
export interface ModelQuery {
  search: string;
  sort: ModelSortKey;
  order: 'asc' | 'desc';
  page: number;
  per_page: number;
  kind: 'all' | 'llm';
}

export interface ModelListContext {
  query: ModelQuery;
  /** §3 data: the page's models. */
  data: Model[];
  /** §3 page_info. */
  pageInfo: { page: number; per_page: number; total_items: number };
  /** §3 lastUpdate: ms since the epoch of the last good fetch (null before). */
  lastUpdate: number | null;
  error: string | null;
  /** The model asked to be deleted (confirming / deleting). */
  target: Model | null;
}

export type ModelListEvent =
  | { type: 'models.open'; kind: 'all' | 'llm' }
  | { type: 'query.search'; search: string }
  | { type: 'query.sort'; sort: ModelSortKey; order: 'asc' | 'desc' }
  | { type: 'query.page'; page: number }
  | { type: 'refresh' }
  | { type: 'delete.ask'; model: Model }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  | { type: 'models.reset' };

const initialQuery = (kind: 'all' | 'llm'): ModelQuery => ({
  search: '',
  sort: 'updated_at',
  order: 'desc',
  page: 1,
  per_page: MODELS_PER_PAGE,
  kind,
});

const empty = (): ModelListContext => ({
  query: initialQuery('all'),
  data: [],
  pageInfo: { page: 1, per_page: MODELS_PER_PAGE, total_items: 0 },
  lastUpdate: null,
  error: null,
  target: null,
});

export const modelListMachine = setup({
  types: {
    context: {} as ModelListContext,
    events: {} as ModelListEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    fetchModels: fromPromise<{ data: Model[]; page_info: ModelListContext['pageInfo'] }, ModelQuery>(
      async () => {
        throw new Error('models: fetchModels is not provided');
      },
    ),
    deleteModel: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('models: deleteModel is not provided');
    }),
  },
  actions: {
    setSearch: assign(({ context, event }) =>
      event.type === 'query.search' ? { query: { ...context.query, search: event.search, page: 1 } } : {},
    ),
    notifyFetchFailed: emit({
      type: 'notice' as const,
      variant: 'danger' as const,
      title: MODELS_FETCH_FAILED.title,
      message: MODELS_FETCH_FAILED.message,
      i18n: { title: { key: 'models.texts.failedTitle' }, message: { key: 'models.texts.fetchFailed' } },
    }),
  },
  delays: { searchDebounce: MODEL_SEARCH_DEBOUNCE_MS },
}).createMachine({
  id: 'modelList',
  context: empty,
  initial: 'idle',
  on: {
    'models.open': {
      target: '.loading',
      actions: assign(({ event }) => ({ ...empty(), query: initialQuery(event.kind) })),
    },
    'models.reset': { target: '.idle', actions: assign(empty) },
    // The query may change in any state (a sort while a search is still being typed): fetch with the new one.
    'query.search': { target: '.typing', actions: 'setSearch' },
    'query.sort': {
      target: '.loading',
      actions: assign(({ context, event }) => ({
        query: { ...context.query, sort: event.sort, order: event.order, page: 1 },
      })),
    },
    'query.page': {
      target: '.loading',
      actions: assign(({ context, event }) => ({ query: { ...context.query, page: event.page } })),
    },
  },
  states: {
    idle: {},
    loading: {
      tags: ['loading'],
      invoke: {
        id: 'fetchModels',
        src: 'fetchModels',
        input: ({ context }) => context.query,
        onDone: {
          target: 'list',
          actions: assign(({ event }) => ({
            data: event.output.data,
            pageInfo: event.output.page_info,
            lastUpdate: Date.now(),
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: [
            assign({ error: ({ event }) => errorText(event.error, MODELS_FETCH_FAILED.message) }),
            'notifyFetchFailed',
          ],
        },
      },
    },
    failed: { on: { refresh: 'loading' } },
    typing: {
      tags: ['loading'],
      after: { searchDebounce: 'loading' },
      on: { 'query.search': { target: 'typing', reenter: true, actions: 'setSearch' } },
    },
    list: {
      on: {
        refresh: 'loading',
        'delete.ask': { target: 'confirming', actions: assign({ target: ({ event }) => event.model }) },
      },
    },
    confirming: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'list', actions: assign({ target: null }) },
      },
    },
    deleting: {
      tags: ['loading'],
      invoke: {
        id: 'deleteModel',
        src: 'deleteModel',
        input: ({ context }) => ({ id: context.target!.id }),
        onDone: { target: 'loading', actions: assign({ target: null }) },
        onError: {
          target: 'list',
          actions: assign({ target: null, error: ({ event }) => errorText(event.error, 'Delete failed') }),
        },
      },
    },
  },
});
