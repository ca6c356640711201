/**
 * A container's log — spec §2 /control-panel/containers (logs per container), §9 "Container log cleared
 * after 3 s".
 *
 * Long-lived (systemId 'containerLogs'), one log shown at a time. `logs.open` { deviceId, containerId }
 * reads the last lines (docker-logs, `readLogs` provided) and reads them again every LOG_REFRESH_MS while
 * the log is open. `logs.close` hides it; the lines are cleared CONTAINER_LOG_CLEAR_MS (3 s, §9) later,
 * unless the log is opened again before. Tags: 'open', 'loading'; a failed read keeps `error` (the lines stay).
 */
import { assign, fromPromise, setup } from 'xstate';

/** §9 "Container log cleared after 3 s", ms. */
export const CONTAINER_LOG_CLEAR_MS = 3_000;
/** How often an open log is read again, ms. */
export const LOG_REFRESH_MS = 5_000;
/** Lines asked for (docker-logs `tail`). */
export const LOG_TAIL_LINES = 200;

export interface ContainerLogsContext {
  deviceId: string | null;
  containerId: string | null;
  /** What the container is called in the dialog title (name or short id). */
  title: string;
  /** Log lines, oldest first. */
  lines: string[];
  error: string | null;
}

export type ContainerLogsEvent =
  | { type: 'logs.open'; deviceId: string; containerId: string; title: string }
  | { type: 'logs.refresh' }
  | { type: 'logs.close' }
  | { type: 'logs.reset' };

export interface ReadLogsInput {
  deviceId: string;
  containerId: string;
  tail: number;
}

const notProvided = (name: string): never => {
  throw new Error(`containerLogs: actor '${name}' is not provided`);
};

export const containerLogsActors = {
  /** docker-logs → the lines, oldest first. */
  readLogs: fromPromise<string[], ReadLogsInput>(async () => notProvided('readLogs')),
};

const EMPTY: ContainerLogsContext = { deviceId: null, containerId: null, title: '', lines: [], error: null };

export const containerLogsMachine = setup({
  types: {
    context: {} as ContainerLogsContext,
    events: {} as ContainerLogsEvent,
  },
  actors: containerLogsActors,
  actions: {
    target: assign(({ context, event }) => {
      if (event.type !== 'logs.open') return {};
      const same = event.deviceId === context.deviceId && event.containerId === context.containerId;
      return {
        deviceId: event.deviceId,
        containerId: event.containerId,
        title: event.title,
        lines: same ? context.lines : [],
        error: null,
      };
    }),
    keepLines: assign((_, params: { lines: string[] }) => ({ lines: params.lines, error: null })),
    keepError: assign((_, params: { error: unknown }) => ({
      error: params.error instanceof Error ? params.error.message : String(params.error),
    })),
    clear: assign(() => EMPTY),
  },
  delays: {
    refresh: LOG_REFRESH_MS,
    clear: CONTAINER_LOG_CLEAR_MS,
  },
}).createMachine({
  id: 'containerLogs',
  context: EMPTY,
  initial: 'closed',
  on: {
    'logs.reset': { target: '.closed', actions: 'clear' },
  },
  states: {
    closed: {
      on: { 'logs.open': { target: 'open', actions: 'target' } },
    },
    open: {
      tags: ['open'],
      initial: 'reading',
      on: {
        'logs.open': { target: '.reading', actions: 'target', reenter: true },
        'logs.close': { target: 'clearing' },
      },
      states: {
        reading: {
          tags: ['loading'],
          invoke: {
            id: 'readLogs',
            src: 'readLogs',
            input: ({ context }) => ({
              deviceId: context.deviceId!,
              containerId: context.containerId!,
              tail: LOG_TAIL_LINES,
            }),
            onDone: {
              target: 'shown',
              actions: { type: 'keepLines', params: ({ event }) => ({ lines: event.output }) },
            },
            onError: {
              target: 'shown',
              actions: { type: 'keepError', params: ({ event }) => ({ error: event.error }) },
            },
          },
        },
        shown: {
          after: { refresh: { target: 'reading' } },
          on: { 'logs.refresh': { target: 'reading' } },
        },
      },
    },
    /** §9: the log stays 3 s after it is closed, then is cleared. */
    clearing: {
      after: { clear: { target: 'closed', actions: 'clear' } },
      on: { 'logs.open': { target: 'open', actions: 'target' } },
    },
  },
});
