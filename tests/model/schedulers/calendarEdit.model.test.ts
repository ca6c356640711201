/**
 * The calendar edit-and-sync machine on model-based paths: a draft saved and sent to the devices (every
 * device holds it, or one refused), a save refused (name taken) back to editing with its error, a sync call
 * failing and retried, and a new edit after the sync.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  calendarEditMachine,
  type DeviceSyncResult,
} from '../../../machines/schedulers/calendarEdit.machine';
import type { Calendar, CalendarInput } from '../../../src/protocol/schedulers';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof calendarEditMachine>;

const DRAFT: CalendarInput = {
  name: 'Opening hours',
  time_zone: 'Europe/Paris',
  intervals: [{ weekday: 1, start: '09:00', end: '17:00' }],
  job_ids: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'],
};
const SAVED: Calendar = {
  ...DRAFT,
  id: '7e0d1f2a-1b2c-4d3e-8f40-5a6b7c8d9e0f',
  active: false,
  next: { at: 1_767_600_000_000, kind: 'start' },
  updated_at: '2026-11-27T22:00:00.000Z',
};
const ALL_OK: DeviceSyncResult[] = [{ deviceId: 'dev-1', error: null }];
const ONE_REFUSED: DeviceSyncResult[] = [
  { deviceId: 'dev-1', error: null },
  { deviceId: 'dev-2', error: 'Could not get an answer from the device' },
];

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'calendar.edit':
      return s.context.draft.name === '' ? [{ type, draft: DRAFT } as EventObject] : [];
    case 'xstate.done.actor.saveCalendar':
      return [{ type, output: SAVED } as EventObject];
    case 'xstate.error.actor.saveCalendar':
      return [
        {
          type,
          error: { code: 'Calendar_exists', message: 'A calendar with this name already exists.' },
        } as EventObject,
      ];
    case 'xstate.done.actor.syncDevices':
      return [{ type, output: ALL_OK } as EventObject, { type, output: ONE_REFUSED } as EventObject];
    case 'xstate.error.actor.syncDevices':
      return [{ type, error: new Error('Not found') } as EventObject];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.draft.name,
    s.context.id,
    s.context.error?.code,
    s.context.results.length,
  ]);

describe('calendar edit-and-sync machine (model-based paths)', () => {
  const model = createMachineTestModel(calendarEditMachine, {
    events: eventsFor,
    key,
    input: { calendar: null, timeZone: 'Europe/Paris' },
    transitionCoverage: true,
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches synced (all devices and one refusing), a refused save and a failed sync', () => {
    const ends = paths.map((p) => p.state);
    expect(ends.some((s) => s.matches('synced') && s.context.results.every((r) => r.error === null))).toBe(
      true,
    );
    expect(ends.some((s) => s.matches('synced') && s.context.results.some((r) => r.error !== null))).toBe(
      true,
    );
    expect(ends.some((s) => s.matches('editing') && s.context.error?.code === 'Calendar_exists')).toBe(true);
    expect(ends.some((s) => s.matches('syncFailed') && s.context.id === SAVED.id)).toBe(true);
  });

  it('does not save a draft with no name', () => {
    const actor = createActor(calendarEditMachine, { input: { calendar: null, timeZone: 'UTC' } }).start();
    actor.send({ type: 'calendar.save' });
    expect(actor.getSnapshot().value).toBe('editing');
  });

  it('follows every modelled path on the real machine', async () => {
    const start = (driver: Driver) =>
      createActor(
        calendarEditMachine.provide({
          actors: {
            saveCalendar: driver.promise<Calendar, { id: string | null; draft: CalendarInput }>(
              'saveCalendar',
            ),
            syncDevices: driver.promise<DeviceSyncResult[], { id: string }>('syncDevices'),
          },
        }),
        { clock: driver.clock, input: { calendar: null, timeZone: 'Europe/Paris' } },
      ).start();
    expect(await runPaths(paths, start, key)).toBeGreaterThan(0);
  });
});
