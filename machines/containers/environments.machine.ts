/**
 * The environment catalogue — spec §2 /containers (environments), /containers/{alias}, the public named
 * route environment-detail (readable signed out), /admin-panel/dockers (admin); §3 Docker images.
 *
 * Long-lived (systemId 'environments'). Three parallel regions:
 * - `list`: `environments.load` reads the catalogue (containers.environments); tags 'listLoading',
 *   'listFailed'.
 * - `detail`: `environments.open` { alias } reads one environment (containers.environment), or with
 *   `public: true` its public facts (containers.publicEnvironment, signed out); 404 → `notFound`.
 *   Tags 'detailLoading', 'detailMissing', 'detailFailed'.
 * - `edit` (admin): `environments.save` { id | null, input } creates or updates
 *   (containers.createEnvironment | updateEnvironment), `environments.delete` { id } removes; on success the
 *   list is read again and a notice emitted; a failure stays in `edit.failed` with `editError` (409: the
 *   alias is taken) for the form to show inline. Tags 'saving', 'editFailed', 'saved'.
 * Sign-out (`environments.reset`) forgets the catalogue.
 */
import { assign, emit, fromPromise, raise, setup } from 'xstate';
import type { Environment, EnvironmentInput, PublicEnvironment } from '../../src/protocol/containers';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** What the catalogue shows when a call fails without words. */
export const ENVIRONMENT_TEXTS = {
  loadFailed: 'The environments could not be loaded.',
  saved: 'Environment saved',
  deleted: 'Environment deleted',
  saveFailed: 'The environment could not be saved.',
  aliasTaken: 'This alias is already used by another environment.',
} as const;

export interface EnvironmentsContext {
  environments: Environment[];
  listError: string | null;
  /** The alias the detail region shows. */
  alias: string | null;
  /** Signed-in detail (full entry), or the public facts (environment-detail). */
  detail: Environment | PublicEnvironment | null;
  detailError: string | null;
  /** The last admin save / delete failure, for the form. */
  editError: string | null;
  /** Which field the failure names ('alias' for 409), for inline display. */
  editField: keyof EnvironmentInput | null;
}

export type EnvironmentsEvent =
  | { type: 'environments.load' }
  | { type: 'environments.open'; alias: string; public?: boolean }
  | { type: 'environments.save'; id: string | null; input: EnvironmentInput }
  | { type: 'environments.delete'; id: string }
  /** The form was closed or opened again: forget the last failure. */
  | { type: 'environments.editReset' }
  | { type: 'environments.reset' };

/** An error as http.ts reports it (ApiRequestError has `status`). */
const statusOf = (error: unknown): number | null =>
  error && typeof error === 'object' && typeof (error as { status?: unknown }).status === 'number'
    ? (error as { status: number }).status
    : null;

const notProvided = (name: string): never => {
  throw new Error(`environments: actor '${name}' is not provided`);
};

export const environmentsActors = {
  /** GET containers.environments. */
  loadEnvironments: fromPromise<Environment[]>(async () => notProvided('loadEnvironments')),
  /** GET containers.environment (public false) or containers.publicEnvironment (public true). */
  loadEnvironment: fromPromise<Environment | PublicEnvironment, { alias: string; public: boolean }>(
    async () => notProvided('loadEnvironment'),
  ),
  /** POST containers.createEnvironment (id null) or PUT containers.updateEnvironment. */
  saveEnvironment: fromPromise<Environment, { id: string | null; input: EnvironmentInput }>(async () =>
    notProvided('saveEnvironment'),
  ),
  /** DELETE containers.deleteEnvironment. */
  deleteEnvironment: fromPromise<void, { id: string }>(async () => notProvided('deleteEnvironment')),
};

export const environmentsMachine = setup({
  types: {
    context: {} as EnvironmentsContext,
    events: {} as EnvironmentsEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: environmentsActors,
  actions: {
    keepList: assign((_, params: { environments: Environment[] }) => ({
      environments: params.environments,
      listError: null,
    })),
    keepListError: assign((_, params: { error: unknown }) => ({
      listError: errorText(params.error, ENVIRONMENT_TEXTS.loadFailed),
    })),
    openAlias: assign(({ context, event }) =>
      event.type === 'environments.open'
        ? {
            alias: event.alias,
            detailError: null,
            detail: context.detail && context.detail.alias === event.alias ? context.detail : null,
          }
        : {},
    ),
    keepDetail: assign((_, params: { detail: Environment | PublicEnvironment }) => ({
      detail: params.detail,
      detailError: null,
    })),
    keepDetailError: assign((_, params: { error: unknown }) => ({
      detail: null,
      detailError: errorText(params.error, ENVIRONMENT_TEXTS.loadFailed),
    })),
    keepEditError: assign((_, params: { error: unknown }) => {
      const taken = statusOf(params.error) === 409;
      return {
        editError: taken
          ? ENVIRONMENT_TEXTS.aliasTaken
          : errorText(params.error, ENVIRONMENT_TEXTS.saveFailed),
        editField: taken ? ('alias' as const) : null,
      };
    }),
    clearEditError: assign({ editError: null, editField: null }),
    reloadList: raise({ type: 'environments.load' }),
    notify: emit((_, params: { title: string }) => ({
      type: 'notice' as const,
      title: params.title,
      message: '',
      variant: 'success' as const,
    })),
    clear: assign(() => initial()),
  },
  guards: {
    isPublic: ({ event }) => event.type === 'environments.open' && event.public === true,
    notFound: (_, params: { error: unknown }) => statusOf(params.error) === 404,
  },
}).createMachine({
  id: 'environments',
  context: () => initial(),
  type: 'parallel',
  on: {
    'environments.reset': { target: ['.list.idle', '.detail.idle', '.edit.idle'], actions: 'clear' },
  },
  states: {
    list: {
      initial: 'idle',
      on: { 'environments.load': { target: '.loading' } },
      states: {
        idle: {},
        loading: {
          tags: ['listLoading'],
          invoke: {
            id: 'loadEnvironments',
            src: 'loadEnvironments',
            onDone: {
              target: 'ready',
              actions: { type: 'keepList', params: ({ event }) => ({ environments: event.output }) },
            },
            onError: {
              target: 'failed',
              actions: { type: 'keepListError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        ready: {},
        failed: { tags: ['listFailed'] },
      },
    },
    detail: {
      initial: 'idle',
      on: { 'environments.open': { target: '.loading', actions: 'openAlias' } },
      states: {
        idle: {},
        loading: {
          tags: ['detailLoading'],
          invoke: {
            id: 'loadEnvironment',
            src: 'loadEnvironment',
            input: ({ context, event }) => ({
              alias: context.alias ?? '',
              public: event.type === 'environments.open' && event.public === true,
            }),
            onDone: {
              target: 'ready',
              actions: { type: 'keepDetail', params: ({ event }) => ({ detail: event.output }) },
            },
            onError: [
              {
                guard: { type: 'notFound', params: ({ event }) => ({ error: event.error }) },
                target: 'notFound',
                actions: assign({ detail: null }),
              },
              {
                target: 'failed',
                actions: { type: 'keepDetailError', params: ({ event }) => ({ error: event.error }) },
              },
            ],
          },
        },
        ready: {},
        notFound: { tags: ['detailMissing'] },
        failed: { tags: ['detailFailed'] },
      },
    },
    edit: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'environments.save': { target: 'saving' },
            'environments.delete': { target: 'deleting' },
          },
        },
        saving: {
          tags: ['saving'],
          entry: 'clearEditError',
          invoke: {
            id: 'saveEnvironment',
            src: 'saveEnvironment',
            input: ({ event }) =>
              event.type === 'environments.save'
                ? { id: event.id, input: event.input }
                : { id: null, input: {} as EnvironmentInput },
            onDone: {
              target: 'saved',
              actions: ['reloadList', { type: 'notify', params: { title: ENVIRONMENT_TEXTS.saved } }],
            },
            onError: {
              target: 'failed',
              actions: { type: 'keepEditError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        deleting: {
          tags: ['saving'],
          entry: 'clearEditError',
          invoke: {
            id: 'deleteEnvironment',
            src: 'deleteEnvironment',
            input: ({ event }) => ({ id: event.type === 'environments.delete' ? event.id : '' }),
            onDone: {
              target: 'saved',
              actions: ['reloadList', { type: 'notify', params: { title: ENVIRONMENT_TEXTS.deleted } }],
            },
            onError: {
              target: 'failed',
              actions: { type: 'keepEditError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        saved: {
          tags: ['saved'],
          on: {
            'environments.save': { target: 'saving' },
            'environments.delete': { target: 'deleting' },
            'environments.editReset': { target: 'idle' },
          },
        },
        failed: {
          tags: ['editFailed'],
          on: {
            'environments.save': { target: 'saving' },
            'environments.delete': { target: 'deleting' },
            'environments.editReset': { target: 'idle', actions: 'clearEditError' },
          },
        },
      },
    },
  },
});

function initial(): EnvironmentsContext {
  return {
    environments: [],
    listError: null,
    alias: null,
    detail: null,
    detailError: null,
    editError: null,
    editField: null,
  };
}
