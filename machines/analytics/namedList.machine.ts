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
 * error; delete.cancel → ready (the shared list machine, machines/shared/listMachine.ts). Tags: `busy`
 * while loading, saving or deleting. Pure: no fetch, no DOM.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';
import { listMachineConfig } from '../shared/listMachine';

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

const namedListSetup = setup({
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
});

const editing = namedListSetup.createStateConfig({
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
});

const saving = namedListSetup.createStateConfig({
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
});

export const namedListMachine = namedListSetup.createMachine(
  listMachineConfig(namedListSetup, {
    id: 'namedList',
    items: 'items',
    context: ({ input }: { input: NamedListInput }): NamedListContext => ({
      parentId: input.parentId,
      title: null,
      items: [],
      error: null,
      edit: null,
      target: null,
      lastSaved: null,
    }),
    start: null,
    reload: { ready: ['list.refresh'], failed: ['list.retry', 'list.refresh'] },
    load: {
      src: 'loadList',
      input: ({ context }: { context: NamedListContext }) => ({ parentId: context.parentId }),
      loaded: (output: NamedListLoaded) => ({ title: output.title, items: output.items }),
      failedText: 'The list could not be read.',
    },
    ready: namedListSetup.createStateConfig({
      on: {
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
      },
    }),
    states: { editing, saving },
    remove: {
      src: 'removeItem',
      guard: 'listed',
      failedText: 'It could not be deleted.',
      keepError: true,
    },
  }),
);
