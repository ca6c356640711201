/**
 * Editing one calendar and sending it to the devices — issue 10 `/schedulers`, §7 scheduling-calendar-operation,
 * src/protocol/schedulers.ts. The flow:
 *
 * - `editing`: `calendar.edit` { draft } replaces the draft (name, zone, intervals, job_ids); `calendar.save`
 *   (guard: the draft has a name) → `saving`.
 * - `saving` (actor `saveCalendar`: POST or PUT schedulers/calendars) → `syncing` with the saved calendar; a
 *   refusal goes back to `editing` with `error` (the server's { code, message }: 409 name taken, 404 jobs).
 * - `syncing` (actor `syncDevices`: GET …/sync, then scheduling-calendar-operation to every device holding one
 *   of the calendar's jobs) → `synced` with one result per device; when the sync call itself fails →
 *   `syncFailed` (`calendar.retry` sends again). A device that refused or was unreachable is a result with its
 *   error: the calendar is saved, the page shows which devices do not hold it yet.
 * - From `synced` or `syncFailed`, `calendar.edit` starts a new edit of the saved calendar.
 *
 * Pure: no fetch or peer link here; the console provides the actors.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { Calendar, CalendarInput, DeviceCalendarStatus } from '../../src/protocol/schedulers';

/**
 * One device's answer to scheduling-calendar-operation: error null when it holds the calendar now; status:
 * the device's state of this calendar (active, its next edge: the timer it armed, last_error), when it held it.
 */
export interface DeviceSyncResult {
  deviceId: string;
  error: string | null;
  status?: DeviceCalendarStatus | null;
}

export interface CalendarEditContext {
  id: string | null;
  draft: CalendarInput;
  saved: Calendar | null;
  results: DeviceSyncResult[];
  error: { code: string; message: string } | null;
}

export type CalendarEditEvent =
  { type: 'calendar.edit'; draft: CalendarInput } | { type: 'calendar.save' } | { type: 'calendar.retry' };

const errorOf = (e: unknown): { code: string; message: string } => {
  const x = e as { code?: unknown; message?: unknown };
  return {
    code: typeof x?.code === 'string' ? x.code : 'Error',
    message: typeof x?.message === 'string' ? x.message : String(e),
  };
};

export const calendarEditMachine = setup({
  types: {
    context: {} as CalendarEditContext,
    events: {} as CalendarEditEvent,
    input: {} as { calendar: Calendar | null; timeZone: string } | undefined,
  },
  actors: {
    saveCalendar: fromPromise<Calendar, { id: string | null; draft: CalendarInput }>(async () => {
      throw new Error('saveCalendar is provided by the console');
    }),
    syncDevices: fromPromise<DeviceSyncResult[], { id: string }>(async () => {
      throw new Error('syncDevices is provided by the console');
    }),
  },
  guards: {
    hasName: ({ context }) => context.draft.name.trim().length > 0,
  },
  actions: {
    setDraft: assign({
      draft: ({ event }) => (event.type === 'calendar.edit' ? event.draft : undefined) as CalendarInput,
      error: null,
    }),
  },
}).createMachine({
  id: 'calendarEdit',
  // input: the calendar to edit (null: a new one) and the zone a new one starts in (default UTC).
  context: ({ input }) => {
    const calendar = input?.calendar ?? null;
    return {
      id: calendar?.id ?? null,
      draft: calendar
        ? {
            name: calendar.name,
            time_zone: calendar.time_zone,
            intervals: calendar.intervals,
            job_ids: calendar.job_ids,
          }
        : { name: '', time_zone: input?.timeZone ?? 'UTC', intervals: [], job_ids: [] },
      saved: calendar,
      results: [],
      error: null,
    };
  },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'calendar.edit': { actions: 'setDraft' },
        'calendar.save': { guard: 'hasName', target: 'saving' },
      },
    },
    saving: {
      invoke: {
        id: 'saveCalendar',
        src: 'saveCalendar',
        input: ({ context }) => ({ id: context.id, draft: context.draft }),
        onDone: {
          target: 'syncing',
          actions: assign({
            saved: ({ event }) => event.output,
            id: ({ event }) => event.output.id,
            error: null,
          }),
        },
        onError: { target: 'editing', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
      },
    },
    syncing: {
      invoke: {
        id: 'syncDevices',
        src: 'syncDevices',
        input: ({ context }) => ({ id: context.id! }),
        onDone: { target: 'synced', actions: assign({ results: ({ event }) => event.output }) },
        onError: { target: 'syncFailed', actions: assign({ error: ({ event }) => errorOf(event.error) }) },
      },
    },
    synced: {
      on: { 'calendar.edit': { target: 'editing', actions: 'setDraft' } },
    },
    syncFailed: {
      on: {
        'calendar.retry': { target: 'syncing', actions: assign({ error: null }) },
        'calendar.edit': { target: 'editing', actions: 'setDraft' },
      },
    },
  },
});
