/**
 * The applications list — spec §2 /applications; §3 "Model/application list: data, lastUpdate, loading,
 * page_info. Features list"; §7 POST applications (pages = -1 → app, page_info) and GET features: every
 * application of the user with the features list, and deleting one after a confirmation.
 *
 * idle → (applications.load) → loading → ready | failed; applications.refresh reloads from ready or failed;
 * delete.ask → confirming → delete.confirm → deleting → loading (or ready with the error and a toast);
 * delete.cancel → ready (the shared list machine, machines/shared/listMachine.ts). Pure: the calls are the provided actors `loadApplications` and `deleteApplication`.
 * Tags: `busy` (the §3 `loading` flag) while loading or deleting.
 */
import { fromPromise, setup } from 'xstate';
import type { Application, Feature } from '../../src/protocol/applications';
import type { ConsoleEmitted } from '../notifications/emitted';
import { listMachineConfig } from '../shared/listMachine';

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

const applicationsSetup = setup({
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
});

export const applicationsMachine = applicationsSetup.createMachine(
  listMachineConfig(applicationsSetup, {
    id: 'applications',
    items: 'data',
    context: INITIAL,
    start: 'applications.load',
    reload: {
      ready: ['applications.load', 'applications.refresh'],
      failed: ['applications.load', 'applications.refresh'],
    },
    reset: { event: 'applications.reset', context: INITIAL },
    load: {
      src: 'loadApplications',
      loaded: (output: ApplicationsLoaded) => ({
        data: output.app,
        page_info: output.page_info,
        features: output.features,
        lastUpdate: Date.now(),
        error: null,
      }),
      failedText: 'The applications could not be read.',
    },
    remove: {
      src: 'deleteApplication',
      guard: 'known',
      deleted: {
        title: 'Application deleted',
        key: 'applications.deleted',
        message: (target: Application) => target.name,
      },
      failedText: 'The application could not be deleted.',
      keepError: true,
      failedNotice: { title: 'Delete failed', key: 'applications.deleteFailed' },
    },
  }),
);
