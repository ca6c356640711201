/**
 * The engine backends table — /admin-panel/engines/engine-backends (issue 13; §7 inference-url reads it): the
 * (JetPack version | driver version) → inference engine image rows, added, changed and removed by an admin.
 *
 * idle → (backends.load) → loading → ready | failed. In ready: edit.open { backend | null } → editing (a draft;
 * edit.change patches it; edit.save → saving → loading, or editing with the server's error, e.g. 409 for a
 * taken version; edit.cancel → ready); delete.ask { id } → confirming → delete.confirm → deleting → loading
 * (or ready with the error); delete.cancel → ready (the shared list machine, machines/shared/listMachine.ts). backends.reset (sign-out) forgets everything.
 * Pure: calls are the provided actors `loadBackends`, `saveBackend`, `deleteBackend`. Tags: `busy`.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { EngineBackend, EnginePlatform } from '../../src/protocol/admin';
import { errorText } from '../notifications/emitted';
import { listMachineConfig } from '../shared/listMachine';

export interface BackendDraft {
  platform: EnginePlatform;
  version: string;
  image: string;
  note: string;
}

export interface EngineBackendsContext {
  backends: EngineBackend[];
  /** The row being edited (null: a new one) while editing or saving. */
  editingId: string | null;
  draft: BackendDraft;
  target: EngineBackend | null;
  error: string | null;
}

export type EngineBackendsEvent =
  | { type: 'backends.load' }
  | { type: 'backends.reset' }
  | { type: 'edit.open'; id: string | null }
  | { type: 'edit.change'; patch: Partial<BackendDraft> }
  | { type: 'edit.save' }
  | { type: 'edit.cancel' }
  | { type: 'delete.ask'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' };

const EMPTY_DRAFT: BackendDraft = { platform: 'jetpack', version: '', image: '', note: '' };

const engineBackendsSetup = setup({
  types: {
    context: {} as EngineBackendsContext,
    events: {} as EngineBackendsEvent,
  },
  actors: {
    loadBackends: fromPromise<EngineBackend[]>(async () => {
      throw new Error('admin: loadBackends is not provided');
    }),
    saveBackend: fromPromise<unknown, { id: string | null; draft: BackendDraft }>(async () => {
      throw new Error('admin: saveBackend is not provided');
    }),
    deleteBackend: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('admin: deleteBackend is not provided');
    }),
  },
  guards: {
    known: ({ context, event }) =>
      (event.type === 'delete.ask' || event.type === 'edit.open') &&
      (event.id === null ? event.type === 'edit.open' : context.backends.some((b) => b.id === event.id)),
    complete: ({ context }) => context.draft.version.trim() !== '' && context.draft.image.trim() !== '',
  },
});

const INITIAL: EngineBackendsContext = {
  backends: [],
  editingId: null,
  draft: EMPTY_DRAFT,
  target: null,
  error: null,
};

const editing = engineBackendsSetup.createStateConfig({
  on: {
    'edit.change': {
      actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.patch } })),
    },
    'edit.save': { guard: 'complete', target: 'saving' },
    'edit.cancel': { target: 'ready', actions: assign({ error: null }) },
  },
});

const saving = engineBackendsSetup.createStateConfig({
  tags: ['busy'],
  invoke: {
    id: 'saveBackend',
    src: 'saveBackend',
    input: ({ context }) => ({ id: context.editingId, draft: context.draft }),
    onDone: 'loading',
    onError: {
      target: 'editing',
      actions: assign({
        error: ({ event }) => errorText(event.error, 'The engine backend could not be saved.'),
      }),
    },
  },
});

export const engineBackendsMachine = engineBackendsSetup.createMachine(
  listMachineConfig(engineBackendsSetup, {
    id: 'engineBackends',
    items: 'backends',
    context: INITIAL,
    start: 'backends.load',
    reload: { ready: ['backends.load'], failed: ['backends.load'] },
    reset: { event: 'backends.reset', context: INITIAL },
    load: {
      src: 'loadBackends',
      loaded: (output: EngineBackend[]) => ({ backends: output }),
      failedText: 'The engine backends could not be read.',
    },
    ready: engineBackendsSetup.createStateConfig({
      on: {
        'edit.open': {
          guard: 'known',
          target: 'editing',
          actions: assign(({ context, event }) => {
            const row = context.backends.find((b) => b.id === event.id);
            return {
              editingId: row?.id ?? null,
              draft: row
                ? { platform: row.platform, version: row.version, image: row.image, note: row.note }
                : EMPTY_DRAFT,
              error: null,
            };
          }),
        },
      },
    }),
    states: { editing, saving },
    remove: {
      src: 'deleteBackend',
      guard: 'known',
      failedText: 'The engine backend could not be removed.',
      keepError: true,
    },
  }),
);
