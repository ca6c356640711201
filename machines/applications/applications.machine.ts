/**
 * The applications list — spec §2 /applications; §3 "Model/application list: data, lastUpdate, loading,
 * page_info. Features list"; §7 POST applications (pages = -1 → app, page_info) and GET features: every
 * application of the user with the features list, and deleting one after a confirmation.
 *
 * idle → (applications.load) → loading → ready | failed; applications.refresh reloads from ready or failed;
 * delete.ask → confirming → delete.confirm → deleting → loading (or ready with the error and a toast);
 * delete.cancel → ready. Pure: the calls are the provided actors `loadApplications` and `deleteApplication`.
 * Tags: `busy` (the §3 `loading` flag) while loading or deleting.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { Application, Feature } from '../../src/protocol/applications';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** §3 page_info. */
export interface PageInfo {
  page: number;
  per_page: number;
  total_items: number;
  pages: number;
}

/** What one load answers: every application (pages -1) and the features list. */
export interface ApplicationsLoaded {
  app: Application[];
  page_info: PageInfo;
  features: Feature[];
}

export interface ApplicationsContext {
  /** §3 data. */
  data: Application[];
  page_info: PageInfo | null;
  /** §3 lastUpdate: ms since the epoch of the last successful load, null before. */
  lastUpdate: number | null;
  features: Feature[];
  error: string | null;
  /** The application asked to be deleted. */
  target: Application | null;
}

export type ApplicationsEvent =
  | { type: 'applications.load' }
  | { type: 'applications.refresh' }
  | { type: 'delete.ask'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** Sign-out: forget everything. */
  | { type: 'applications.reset' };

const INITIAL: ApplicationsContext = {
  data: [],
  page_info: null,
  lastUpdate: null,
  features: [],
  error: null,
  target: null,
};

export const applicationsMachine = setup({
  types: {
    context: {} as ApplicationsContext,
    events: {} as ApplicationsEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    loadApplications: fromPromise<ApplicationsLoaded>(async () => {
      throw new Error('applications: loadApplications is not provided');
    }),
    deleteApplication: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('applications: deleteApplication is not provided');
    }),
  },
  guards: {
    known: ({ context, event }) => event.type === 'delete.ask' && context.data.some((a) => a.id === event.id),
  },
}).createMachine({
  id: 'applications',
  context: INITIAL,
  initial: 'idle',
  on: { 'applications.reset': { target: '.idle', actions: assign(INITIAL) } },
  states: {
    idle: { on: { 'applications.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadApplications',
        src: 'loadApplications',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            data: event.output.app,
            page_info: event.output.page_info,
            features: event.output.features,
            lastUpdate: Date.now(),
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The applications could not be read.'),
          }),
        },
      },
    },
    ready: {
      on: {
        'applications.load': 'loading',
        'applications.refresh': 'loading',
        'delete.ask': {
          guard: 'known',
          target: 'confirming',
          actions: assign(({ context, event }) => ({
            target: context.data.find((a) => a.id === event.id) ?? null,
            error: null,
          })),
        },
      },
    },
    failed: { on: { 'applications.load': 'loading', 'applications.refresh': 'loading' } },
    confirming: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteApplication',
        src: 'deleteApplication',
        input: ({ context }) => ({ id: context.target!.id }),
        onDone: {
          target: 'loading',
          actions: [
            emit(({ context }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Application deleted',
              message: context.target!.name,
              i18n: { title: { key: 'applications.deleted' } },
            })),
            assign({ target: null }),
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign({
              error: ({ event }) => errorText(event.error, 'The application could not be deleted.'),
              target: null,
            }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'danger' as const,
              title: 'Delete failed',
              message: errorText(event.error, 'The application could not be deleted.'),
              i18n: { title: { key: 'applications.deleteFailed' } },
            })),
          ],
        },
      },
    },
  },
});
