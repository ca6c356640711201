/**
 * Devices table — spec §7 `GET get_devices/` (per_page, page, order_by, order_as, search, group_id → res,
 * total_items, active_devices_count), §9 "Default devices table: page 1, 5 per page, order by label
 * ascending", §5 / §9 "Quick search fires only with at least 2 characters (200 ms debounce)", §8 search
 * failure "Connection error. Please try again later.".
 *
 * Server-side paging and sorting: every change of page, page size, sort or (debounced) search loads the
 * page again; a newer request replaces an older one still in flight. `idle` is the state before sign-in;
 * the root system sends `table.refresh` on sign-in and `table.reset` on sign-out. Screens that show the
 * table send `table.visit` when they open: it loads a table that never loaded, and is ignored otherwise.
 *
 * Side effect: `loadDevices` (the REST call), provided by src/console/features/devices/actors.ts.
 */
import { assign, emit, enqueueActions, fromPromise, setup } from 'xstate';
import {
  DEVICES_TABLE_DEFAULTS,
  QUICK_SEARCH_DEBOUNCE_MS,
  QUICK_SEARCH_MIN_CHARS,
} from '../../src/protocol/constants';
import type { Device, GetDevicesResponse } from '../../src/protocol/rest';
import type { ConsoleEmitted } from '../notifications/emitted';

/** §8 text shown when the list cannot be loaded. */
export const DEVICES_TABLE_ERROR = 'Connection error. Please try again later.';

/** Error codes whose own message the table shows instead of DEVICES_TABLE_ERROR. */
const TOLD_CODES = new Set(['Database_unavailable']);

/** The message of a load failure whose code is in TOLD_CODES, else null. */
function serverSaid(event: unknown): string | null {
  const error = (event as { error?: { code?: unknown; message?: unknown } }).error;
  return error &&
    typeof error.code === 'string' &&
    TOLD_CODES.has(error.code) &&
    typeof error.message === 'string'
    ? error.message
    : null;
}

export type DeviceOrderBy = 'label' | 'client_name' | 'created_at' | 'is_active';
export type OrderAs = 'asc' | 'desc';

export interface DevicesTableContext {
  /** 1-based page number. */
  page: number;
  /** Rows per page (1…100). */
  perPage: number;
  orderBy: DeviceOrderBy;
  orderAs: OrderAs;
  /** What the user typed in the quick-search box (updated at once). */
  search: string;
  /** The search the shown rows were queried with (after the debounce and the 2-character rule). */
  appliedSearch: string;
  /** Optional device group filter (§7 group_id). */
  groupId: string | null;
  rows: Device[];
  totalItems: number;
  activeDevicesCount: number;
  error: string | null;
}

/** The query of one `loadDevices` call (GET get_devices/). */
export interface DevicesQuery {
  page: number;
  per_page: number;
  order_by: DeviceOrderBy;
  order_as: OrderAs;
  search?: string;
  group_id?: string;
}

export type DevicesTableEvent =
  | { type: 'table.page'; page: number }
  | { type: 'table.perPage'; perPage: number }
  | { type: 'table.sort'; orderBy: DeviceOrderBy; orderAs: OrderAs }
  | { type: 'table.search'; search: string }
  | { type: 'table.group'; groupId: string | null }
  | { type: 'table.refresh' }
  | { type: 'table.visit' }
  /** Root system, on sign-out: forget rows and go back to the defaults. */
  | { type: 'table.reset' }
  /** Internal: the 200 ms quick-search debounce elapsed. */
  | { type: 'table.searchSettled' };

/** True when a quick search may be sent: empty (clears the filter) or at least 2 characters (§5). */
export const isQueryableSearch = (search: string): boolean => {
  const trimmed = search.trim();
  return trimmed.length === 0 || trimmed.length >= QUICK_SEARCH_MIN_CHARS;
};

const initialContext = (): DevicesTableContext => ({
  page: DEVICES_TABLE_DEFAULTS.page,
  perPage: DEVICES_TABLE_DEFAULTS.per_page,
  orderBy: DEVICES_TABLE_DEFAULTS.order_by,
  orderAs: DEVICES_TABLE_DEFAULTS.order_as,
  search: '',
  appliedSearch: '',
  groupId: null,
  rows: [],
  totalItems: 0,
  activeDevicesCount: 0,
  error: null,
});

const SEARCH_DEBOUNCE_ID = 'quickSearchDebounce';

export const devicesTableMachine = setup({
  types: {
    context: {} as DevicesTableContext,
    events: {} as DevicesTableEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /** GET get_devices/ with the query; rejects with an Error on failure. */
    loadDevices: fromPromise<GetDevicesResponse, DevicesQuery>(async () => {
      throw new Error("devicesTable: actor 'loadDevices' is not provided");
    }),
  },
  actions: {
    setPage: assign({
      page: ({ event }) => (event.type === 'table.page' ? Math.max(1, Math.floor(event.page)) : 1),
    }),
    setPerPage: assign({
      perPage: ({ event }) =>
        event.type === 'table.perPage' ? Math.min(100, Math.max(1, Math.floor(event.perPage))) : 5,
      page: 1,
    }),
    setSort: assign(({ event }) =>
      event.type === 'table.sort' ? { orderBy: event.orderBy, orderAs: event.orderAs, page: 1 } : {},
    ),
    setGroup: assign(({ event }) =>
      event.type === 'table.group' ? { groupId: event.groupId, page: 1 } : {},
    ),
    setSearchInput: assign({ search: ({ event }) => (event.type === 'table.search' ? event.search : '') }),
    applySearch: assign({ appliedSearch: ({ context }) => context.search.trim(), page: 1 }),
    /** Restart the 200 ms quick-search debounce (§5). */
    restartSearchDebounce: enqueueActions(({ enqueue }) => {
      enqueue.cancel(SEARCH_DEBOUNCE_ID);
      enqueue.raise(
        { type: 'table.searchSettled' },
        { id: SEARCH_DEBOUNCE_ID, delay: 'quickSearchDebounce' },
      );
    }),
    storePage: assign((_, page: GetDevicesResponse) => ({
      rows: page.res,
      totalItems: page.total_items,
      activeDevicesCount: page.active_devices_count,
      error: null,
    })),
    // §8's words, unless the server said why in words of its own (503 Database_unavailable, issue 15: the
    // transport gives its text in the interface language).
    storeError: assign(({ event }) => ({ error: serverSaid(event) ?? DEVICES_TABLE_ERROR })),
    emitLoadFailedNotice: emit({
      type: 'notice',
      title: 'Devices',
      message: DEVICES_TABLE_ERROR,
      variant: 'danger',
    } as const),
    resetTable: enqueueActions(({ enqueue }) => {
      enqueue.cancel(SEARCH_DEBOUNCE_ID);
      enqueue.assign(() => initialContext());
    }),
  },
  guards: {
    /** The settled search may be sent (≥ 2 characters or empty) and differs from the shown one. */
    searchShouldQuery: ({ context }) =>
      isQueryableSearch(context.search) && context.search.trim() !== context.appliedSearch,
  },
  delays: {
    quickSearchDebounce: QUICK_SEARCH_DEBOUNCE_MS,
  },
}).createMachine({
  id: 'devicesTable',
  initial: 'idle',
  context: initialContext,
  on: {
    'table.reset': { target: '.idle', actions: 'resetTable' },
    'table.search': { actions: ['setSearchInput', 'restartSearchDebounce'] },
  },
  states: {
    idle: {
      on: {
        'table.refresh': { target: 'loading' },
        // A screen showing the table was opened and it has never loaded (load-on-visit).
        'table.visit': { target: 'loading' },
      },
    },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadDevices',
        src: 'loadDevices',
        input: ({ context }) => ({
          page: context.page,
          per_page: context.perPage,
          order_by: context.orderBy,
          order_as: context.orderAs,
          ...(context.appliedSearch ? { search: context.appliedSearch } : {}),
          ...(context.groupId ? { group_id: context.groupId } : {}),
        }),
        onDone: { target: 'ready', actions: { type: 'storePage', params: ({ event }) => event.output } },
        onError: { target: 'failed', actions: ['storeError', 'emitLoadFailedNotice'] },
      },
      on: {
        // A newer query replaces the one in flight (re-entering restarts the invoke).
        'table.page': { target: 'loading', reenter: true, actions: 'setPage' },
        'table.perPage': { target: 'loading', reenter: true, actions: 'setPerPage' },
        'table.sort': { target: 'loading', reenter: true, actions: 'setSort' },
        'table.group': { target: 'loading', reenter: true, actions: 'setGroup' },
        'table.refresh': { target: 'loading', reenter: true },
        'table.searchSettled': {
          guard: 'searchShouldQuery',
          target: 'loading',
          reenter: true,
          actions: 'applySearch',
        },
      },
    },
    ready: {
      on: {
        'table.page': { target: 'loading', actions: 'setPage' },
        'table.perPage': { target: 'loading', actions: 'setPerPage' },
        'table.sort': { target: 'loading', actions: 'setSort' },
        'table.group': { target: 'loading', actions: 'setGroup' },
        'table.refresh': { target: 'loading' },
        'table.searchSettled': { guard: 'searchShouldQuery', target: 'loading', actions: 'applySearch' },
      },
    },
    failed: {
      tags: ['error'],
      on: {
        'table.page': { target: 'loading', actions: 'setPage' },
        'table.perPage': { target: 'loading', actions: 'setPerPage' },
        'table.sort': { target: 'loading', actions: 'setSort' },
        'table.group': { target: 'loading', actions: 'setGroup' },
        'table.refresh': { target: 'loading' },
        'table.searchSettled': { guard: 'searchShouldQuery', target: 'loading', actions: 'applySearch' },
      },
    },
  },
});
