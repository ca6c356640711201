/**
 * A list of named things with create, rename and delete — issue 11 "Analytics": the dashboard collections of
 * `/analytics/dashboard-collections-manager` and the dashboards of `/analytics/dashboard-collection/{id}` (spec
 * §2 Analytics routes; src/protocol/analytics.ts). The same machine serves both; the provided actors differ.
 *
 * loading (actor `loadList` with the parent id) → ready | failed; list.retry / list.refresh reload.
 * ready: create.open → editing (mode create); rename.open { id } (a listed item) → editing (mode rename);
 * edit.change { name }; edit.submit → saving (actor `saveItem`) → loading (`lastSaved` = the saved item), or
 * back to editing with the server's error ('A collection with this name already exists.'); an empty name
 * stays in editing with 'Name is required' (the contract's text); edit.cancel → ready.
 * delete.ask { id } → confirming → delete.confirm → deleting (actor `removeItem`) → loading, or ready with the
 * error; delete.cancel → ready. Tags: `busy` while loading, saving or deleting. Pure: no fetch, no DOM.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';

/** One row: id, name, how many children it has (dashboards, charts) and a last-change time (ISO). */
export interface NamedItem {
  id: string;
  name: string;
  count: number;
  updatedAt: string;
}

/** What a load answers: the parent's name (a collection's, null for the top list) and the items by name. */
export interface NamedListLoaded {
  title: string | null;
  items: NamedItem[];
}

export interface NamedListInput {
  /** The collection whose dashboards are listed; null for the collections themselves. */
  parentId: string | null;
}

export interface SaveItemInput {
  parentId: string | null;
  /** null: create. */
  id: string | null;
  name: string;
}

export interface NamedListContext {
  parentId: string | null;
  title: string | null;
  items: NamedItem[];
  error: string | null;
  /** The open name form. */
  edit: { id: string | null; name: string; error: string | null } | null;
  /** The item asked to be deleted. */
  target: NamedItem | null;
  /** The last item created or renamed (the screen may open it). */
  lastSaved: NamedItem | null;
}

export type NamedListEvent =
  | { type: 'list.retry' }
  | { type: 'list.refresh' }
  | { type: 'create.open' }
  | { type: 'rename.open'; id: string }
  | { type: 'edit.change'; name: string }
  | { type: 'edit.submit' }
  | { type: 'edit.cancel' }
  | { type: 'delete.ask'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

/** The contract's own text for an empty name (src/protocol/analytics.ts Name). */
export const NAME_REQUIRED = 'Name is required';
export const NAME_MAX = 120;

export const namedListMachine = setup({
  types: {
    context: {} as NamedListContext,
    events: {} as NamedListEvent,
    input: {} as NamedListInput,
  },
  actors: {
    loadList: fromPromise<NamedListLoaded, { parentId: string | null }>(async () => {
      throw new Error('analytics: loadList is not provided');
    }),
    saveItem: fromPromise<NamedItem, SaveItemInput>(async () => {
      throw new Error('analytics: saveItem is not provided');
    }),
    removeItem: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('analytics: removeItem is not provided');
    }),
  },
  guards: {
    listed: ({ context, event }) =>
      (event.type === 'rename.open' || event.type === 'delete.ask') &&
      context.items.some((i) => i.id === event.id),
    nameValid: ({ context }) => {
      const name = context.edit?.name.trim() ?? '';
      return name.length > 0 && name.length <= NAME_MAX;
    },
  },
}).createMachine({
  id: 'namedList',
  context: ({ input }) => ({
    parentId: input.parentId,
    title: null,
    items: [],
    error: null,
    edit: null,
    target: null,
    lastSaved: null,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadList',
        src: 'loadList',
        input: ({ context }) => ({ parentId: context.parentId }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ title: event.output.title, items: event.output.items })),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The list could not be read.') }),
        },
      },
    },
    failed: { on: { 'list.retry': 'loading', 'list.refresh': 'loading' } },
    ready: {
      on: {
        'list.refresh': 'loading',
        'create.open': {
          target: 'editing',
          actions: assign({ edit: { id: null, name: '', error: null }, error: null }),
        },
        'rename.open': {
          guard: 'listed',
          target: 'editing',
          actions: assign(({ context, event }) => ({
            edit: { id: event.id, name: context.items.find((i) => i.id === event.id)!.name, error: null },
            error: null,
          })),
        },
        'delete.ask': {
          guard: 'listed',
          target: 'confirming',
          actions: assign(({ context, event }) => ({
            target: context.items.find((i) => i.id === event.id) ?? null,
            error: null,
          })),
        },
      },
    },
    editing: {
      on: {
        'edit.change': {
          actions: assign({
            edit: ({ context, event }) => ({ ...context.edit!, name: event.name, error: null }),
          }),
        },
        'edit.submit': [
          { guard: 'nameValid', target: 'saving' },
          { actions: assign({ edit: ({ context }) => ({ ...context.edit!, error: NAME_REQUIRED }) }) },
        ],
        'edit.cancel': { target: 'ready', actions: assign({ edit: null }) },
      },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'saveItem',
        src: 'saveItem',
        input: ({ context }) => ({
          parentId: context.parentId,
          id: context.edit!.id,
          name: context.edit!.name.trim(),
        }),
        onDone: {
          target: 'loading',
          actions: assign(({ event }) => ({ edit: null, lastSaved: event.output })),
        },
        onError: {
          target: 'editing',
          actions: assign({
            edit: ({ context, event }) => ({
              ...context.edit!,
              error: errorText(event.error, 'It could not be saved.'),
            }),
          }),
        },
      },
    },
    confirming: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'removeItem',
        src: 'removeItem',
        input: ({ context }) => ({ id: context.target!.id }),
        onDone: { target: 'loading', actions: assign({ target: null }) },
        onError: {
          target: 'ready',
          actions: assign({
            target: null,
            error: ({ event }) => errorText(event.error, 'It could not be deleted.'),
          }),
        },
      },
    },
  },
});
