/**
 * The image repositories screens (spec §2 /repositories and /repositories/{alias} "tag list"; §9 "Image
 * repository project name carries the suffix _prod"; anchor: Harbor's repositories and tags): what the
 * server reads from the configured registry — the project's repositories, or one repository's tags.
 *
 * idle → (repositories.show { alias: null | alias }) → loading → ready | failed; repositories.refresh loads
 * the same view again. `alias` null is the list; otherwise the tag list of that repository. A registry that is
 * not configured is `ready` with `configured` false (the screen says so). Pure: the server call is the
 * provided actor `loadRepositories` (src/console/features/repositories/actors.ts). Tags: `busy` while loading.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { RepositorySummary, TagInfo } from '../../src/protocol/repositories';
import { errorText } from '../notifications/emitted';

/** What one load answers: the registry facts and the list or the tag list. */
export interface RepositoriesLoaded {
  configured: boolean;
  registry: string | null;
  project: string | null;
  repositories: RepositorySummary[];
  repository: RepositorySummary | null;
  tags: TagInfo[];
}

export interface RepositoriesContext extends RepositoriesLoaded {
  /** The repository shown (its alias), null for the list. */
  alias: string | null;
  /** The last failure's text (the server's message), null when none. */
  error: string | null;
  /** Error code of the last failure (Not_found, Registry_unavailable, …). */
  errorCode: string | null;
}

export type RepositoriesEvent =
  | { type: 'repositories.show'; alias: string | null }
  | { type: 'repositories.refresh' }
  /** Sign-out: forget everything read. */
  | { type: 'repositories.reset' };

const EMPTY: RepositoriesLoaded = {
  configured: false,
  registry: null,
  project: null,
  repositories: [],
  repository: null,
  tags: [],
};

export const repositoriesMachine = setup({
  types: { context: {} as RepositoriesContext, events: {} as RepositoriesEvent },
  actors: {
    loadRepositories: fromPromise<RepositoriesLoaded, { alias: string | null }>(async () => {
      throw new Error('repositories: loadRepositories is not provided');
    }),
  },
  actions: {
    choose: assign(({ event, context }) =>
      event.type === 'repositories.show' && event.alias !== context.alias
        ? { ...EMPTY, alias: event.alias, error: null, errorCode: null }
        : {},
    ),
  },
}).createMachine({
  id: 'repositories',
  context: { ...EMPTY, alias: null, error: null, errorCode: null },
  initial: 'idle',
  on: {
    'repositories.show': { target: '.loading', actions: 'choose' },
    'repositories.reset': {
      target: '.idle',
      actions: assign({ ...EMPTY, alias: null, error: null, errorCode: null }),
    },
  },
  states: {
    idle: {},
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadRepositories',
        src: 'loadRepositories',
        input: ({ context }) => ({ alias: context.alias }),
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ ...event.output, error: null, errorCode: null })),
        },
        onError: {
          target: 'failed',
          actions: assign(({ event }) => ({
            error: errorText(event.error, 'The repositories could not be read.'),
            errorCode: (event.error as { code?: string } | null)?.code ?? null,
          })),
        },
      },
    },
    ready: { on: { 'repositories.refresh': 'loading' } },
    failed: { on: { 'repositories.refresh': 'loading' } },
  },
});
