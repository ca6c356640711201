/**
 * A keyset-paged admin list — issue 13 admin panel (spec §2 /admin-panel/*; src/protocol/admin.ts "Lists are
 * keyset-paged"): the users list (/admin-panel/users), the clients list (/admin-panel/clients) and the audit
 * log (/admin-panel/audit-log) each run one, with their own `loadPage`.
 *
 * idle → (list.load) → loading → ready | failed. list.query { patch } merges filter/search/sort fields into
 * the query and reads the first page; list.page { cursor } reads the page a cursor names (next, prev, 'last');
 * list.refresh reads the current page again. A new request while loading cancels the one in flight (the
 * invoke restarts). list.reset (sign-out) forgets everything. Pure: the call is the provided actor `loadPage`.
 * Tags: `busy` while loading.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';

/** Query fields of a list (search, filters, sort); empty strings mean "not set". */
export type ListQuery = Record<string, string>;

/** One page as every admin list answers it. */
export interface ListPage<Row = unknown> {
  rows: Row[];
  total: number;
  totalCapped: boolean;
  next: string | null;
  prev: string | null;
  /** List-specific figures (e.g. the clients' online count). */
  extra?: Record<string, number>;
}

export interface AdminListContext {
  query: ListQuery;
  /** Cursor of the page shown (null: the first page). */
  cursor: string | null;
  page: ListPage | null;
  error: string | null;
}

export type AdminListEvent =
  | { type: 'list.load' }
  | { type: 'list.query'; patch: ListQuery }
  | { type: 'list.page'; cursor: string | null }
  | { type: 'list.refresh' }
  | { type: 'list.reset' };

export interface AdminListInput {
  /** The query a list starts with (its default sort, filters). */
  query?: ListQuery;
}

export const adminListMachine = setup({
  types: {
    context: {} as AdminListContext,
    events: {} as AdminListEvent,
    input: {} as AdminListInput,
  },
  actors: {
    loadPage: fromPromise<ListPage, { query: ListQuery; cursor: string | null }>(async () => {
      throw new Error('admin: loadPage is not provided');
    }),
  },
  actions: {
    mergeQuery: assign(({ context, event }) =>
      event.type === 'list.query' ? { query: { ...context.query, ...event.patch }, cursor: null } : {},
    ),
    setCursor: assign(({ event }) => (event.type === 'list.page' ? { cursor: event.cursor } : {})),
  },
}).createMachine({
  id: 'adminList',
  context: ({ input }) => ({ query: { ...input?.query }, cursor: null, page: null, error: null }),
  initial: 'idle',
  on: {
    'list.reset': {
      target: '.idle',
      actions: assign({ cursor: null, page: null, error: null }),
    },
  },
  states: {
    idle: { on: { 'list.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPage',
        src: 'loadPage',
        input: ({ context }) => ({ query: context.query, cursor: context.cursor }),
        onDone: { target: 'ready', actions: assign({ page: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The list could not be read.') }),
        },
      },
      on: {
        'list.query': { target: 'loading', reenter: true, actions: 'mergeQuery' },
        'list.page': { target: 'loading', reenter: true, actions: 'setCursor' },
      },
    },
    ready: {
      on: {
        'list.load': 'loading',
        'list.refresh': 'loading',
        'list.query': { target: 'loading', actions: 'mergeQuery' },
        'list.page': { target: 'loading', actions: 'setCursor' },
      },
    },
    failed: {
      on: {
        'list.load': 'loading',
        'list.refresh': 'loading',
        'list.query': { target: 'loading', actions: 'mergeQuery' },
        'list.page': { target: 'loading', actions: 'setCursor' },
      },
    },
  },
});
