/**
 * The calendars list of `/schedulers` — issue 10 "`/schedulers` (calendars; `scheduling-calendar-operation`;
 * jobs that start and stop on schedule)", spec §7 scheduling-calendar-operation, src/protocol/schedulers.ts:
 * the user's calendars with the jobs they may schedule, and what the devices last answered for each calendar.
 *
 * idle → (schedulers.load) → loading → ready | failed; schedulers.refresh reloads from ready or failed;
 * delete.ask → confirming → delete.confirm → deleting (actor `deleteCalendar`: the REST delete, then
 * scheduling-calendar-operation delete on the devices that held it) → loading, or ready with the error;
 * delete.cancel → ready. `schedulers.synced` { id, results } keeps the devices' answers of a calendar's last
 * send (the edit machine's, calendarEdit.machine.ts): whether each device's timer is armed. Tags: `busy` while
 * loading or deleting. Pure: the calls are the provided actors `loadCalendars` and `deleteCalendar`.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { Job } from '../../src/protocol/inference';
import type { Calendar } from '../../src/protocol/schedulers';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';
import type { DeviceSyncResult } from './calendarEdit.machine';

/** What one load answers: the calendars (by name) and the user's jobs (§3 Job). */
export interface CalendarsLoaded {
  calendars: Calendar[];
  jobs: Job[];
}

export interface CalendarsContext {
  calendars: Calendar[];
  jobs: Job[];
  /** ms since the epoch of the last successful load, null before. */
  lastUpdate: number | null;
  /** By calendar id: each device's answer to the calendar's last scheduling-calendar-operation. */
  devices: Record<string, DeviceSyncResult[]>;
  error: string | null;
  /** The calendar asked to be deleted. */
  target: Calendar | null;
}

export type CalendarsEvent =
  | { type: 'schedulers.load' }
  | { type: 'schedulers.refresh' }
  | { type: 'schedulers.synced'; id: string; results: DeviceSyncResult[] }
  | { type: 'delete.ask'; id: string }
  | { type: 'delete.confirm' }
  | { type: 'delete.cancel' }
  /** Sign-out: forget everything. */
  | { type: 'schedulers.reset' };

const INITIAL: CalendarsContext = {
  calendars: [],
  jobs: [],
  lastUpdate: null,
  devices: {},
  error: null,
  target: null,
};

export const calendarsMachine = setup({
  types: {
    context: {} as CalendarsContext,
    events: {} as CalendarsEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    loadCalendars: fromPromise<CalendarsLoaded>(async () => {
      throw new Error('schedulers: loadCalendars is not provided');
    }),
    deleteCalendar: fromPromise<unknown, { id: string }>(async () => {
      throw new Error('schedulers: deleteCalendar is not provided');
    }),
  },
  guards: {
    known: ({ context, event }) =>
      event.type === 'delete.ask' && context.calendars.some((c) => c.id === event.id),
  },
  actions: {
    keepDevices: assign({
      devices: ({ context, event }) =>
        event.type === 'schedulers.synced'
          ? { ...context.devices, [event.id]: event.results }
          : context.devices,
    }),
  },
}).createMachine({
  id: 'calendars',
  context: INITIAL,
  initial: 'idle',
  on: {
    'schedulers.reset': { target: '.idle', actions: assign(INITIAL) },
    'schedulers.synced': { actions: 'keepDevices' },
  },
  states: {
    idle: { on: { 'schedulers.load': 'loading' } },
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadCalendars',
        src: 'loadCalendars',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({
            calendars: event.output.calendars,
            jobs: event.output.jobs,
            lastUpdate: Date.now(),
            error: null,
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The calendars could not be read.'),
          }),
        },
      },
    },
    ready: {
      on: {
        'schedulers.load': 'loading',
        'schedulers.refresh': 'loading',
        'delete.ask': {
          guard: 'known',
          target: 'confirming',
          actions: assign(({ context, event }) => ({
            target: context.calendars.find((c) => c.id === event.id) ?? null,
            error: null,
          })),
        },
      },
    },
    failed: { on: { 'schedulers.load': 'loading', 'schedulers.refresh': 'loading' } },
    confirming: {
      on: {
        'delete.confirm': 'deleting',
        'delete.cancel': { target: 'ready', actions: assign({ target: null }) },
      },
    },
    deleting: {
      tags: ['busy'],
      invoke: {
        id: 'deleteCalendar',
        src: 'deleteCalendar',
        input: ({ context }) => ({ id: context.target!.id }),
        onDone: {
          target: 'loading',
          actions: [
            emit(({ context }) => ({
              type: 'notice' as const,
              variant: 'success' as const,
              title: 'Calendar deleted',
              message: context.target!.name,
              i18n: { title: { key: 'schedulers.deleted' } },
            })),
            assign(({ context }) => {
              const devices = { ...context.devices };
              delete devices[context.target!.id];
              return { devices, target: null };
            }),
          ],
        },
        onError: {
          target: 'ready',
          actions: [
            assign({
              error: ({ event }) => errorText(event.error, 'The calendar could not be deleted.'),
              target: null,
            }),
            emit(({ event }) => ({
              type: 'notice' as const,
              variant: 'danger' as const,
              title: 'Delete failed',
              message: errorText(event.error, 'The calendar could not be deleted.'),
              i18n: { title: { key: 'schedulers.deleteFailed' } },
            })),
          ],
        },
      },
    },
  },
});
