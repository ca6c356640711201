/**
 * The calendars list machine of /schedulers on model-based paths (issue 10; §7 scheduling-calendar-operation):
 * load, fail and reload; the devices' answers of a calendar's last send kept (and dropped with the calendar);
 * delete asked (only a listed calendar), cancelled, confirmed (reload) or refused (error kept, toast).
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type EventObject, type SnapshotFrom } from 'xstate';
import { calendarsMachine, type CalendarsLoaded } from '../../../machines/schedulers/calendars.machine';
import type { Calendar } from '../../../src/protocol/schedulers';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof calendarsMachine>;

const CAL: Calendar = {
  id: 'c1',
  name: 'Opening hours',
  time_zone: 'Europe/Berlin',
  intervals: [{ weekday: 1, start: '08:00', end: '17:00' }],
  job_ids: [],
  active: false,
  next: { at: 1_767_596_400_000, kind: 'start' },
  updated_at: '2026-11-27T22:00:00.000Z',
};
const loaded: CalendarsLoaded = { calendars: [CAL], jobs: [] };
const ARMED = [
  {
    deviceId: 'dev-1',
    error: null,
    status: { id: 'c1', active: false, next: CAL.next, last_error: null },
  },
];

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'delete.ask':
      return [
        { type, id: 'c1' },
        { type, id: 'unknown' },
      ] as unknown as EventObject[];
    case 'schedulers.synced':
      // Once, on a loaded list (the page sends it after a save).
      return s.context.calendars.length && !s.context.devices.c1
        ? ([{ type, id: 'c1', results: ARMED }] as unknown as EventObject[])
        : [];
    case 'xstate.done.actor.loadCalendars':
      return [{ type, output: loaded }] as unknown as EventObject[];
    case 'xstate.error.actor.loadCalendars':
      return [{ type, error: new Error('Servers are unavailable.') }] as unknown as EventObject[];
    case 'xstate.done.actor.deleteCalendar':
      return [{ type, output: { ok: true } }] as unknown as EventObject[];
    case 'xstate.error.actor.deleteCalendar':
      return [{ type, error: new Error('Calendar not found.') }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.calendars.length,
    s.context.target?.id ?? null,
    s.context.error,
    s.context.lastUpdate !== null,
    Object.keys(s.context.devices),
  ]);

describe('calendars list machine (model-based paths)', () => {
  const paths = createMachineTestModel(calendarsMachine, { events: eventsFor, key }).getShortestPaths({
    allowDuplicatePaths: true,
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        calendarsMachine.provide({
          actors: {
            loadCalendars: driver.promise('loadCalendars'),
            deleteCalendar: driver.promise('deleteCalendar'),
          },
        }),
      ).start();
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['idle', 'loading', 'ready', 'failed', 'confirming', 'deleting'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    expect(ends.some((s) => s.matches('ready') && s.context.error === 'Calendar not found.')).toBe(true);
    expect(ends.some((s) => s.context.devices.c1?.[0]?.status?.next?.kind === 'start')).toBe(true);
    for (const p of paths)
      for (const st of p.steps)
        if (st.state.matches('confirming')) expect(st.state.context.target?.id).toBe('c1');
  });

  it('forgets the devices’ answers of a deleted calendar', async () => {
    const deleted: string[] = [];
    const actor = createActor(
      calendarsMachine.provide({
        actors: {
          loadCalendars: fromPromise(async () => (deleted.length ? { ...loaded, calendars: [] } : loaded)),
          deleteCalendar: fromPromise<unknown, { id: string }>(async ({ input }) => deleted.push(input.id)),
        },
      }),
    ).start();
    actor.send({ type: 'schedulers.load' });
    await waitFor(actor, (s) => s.matches('ready'));
    actor.send({ type: 'schedulers.synced', id: 'c1', results: ARMED });
    expect(actor.getSnapshot().context.devices.c1).toEqual(ARMED);
    actor.send({ type: 'delete.ask', id: 'c1' });
    actor.send({ type: 'delete.confirm' });
    await waitFor(actor, (s) => s.matches('ready') && s.context.calendars.length === 0);
    expect(deleted).toEqual(['c1']);
    expect(actor.getSnapshot().context.devices).toEqual({});
  });
});
