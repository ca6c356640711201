/**
 * The /schedulers views (src/console/features/schedulers/selectors.ts) from real machine snapshots: each
 * calendar's state and next edge read in its zone ("starts Mon 08:00" in Europe/Berlin), its jobs with their
 * state, each device's answer (timer armed, or the error), the editor's jobs with the calendar holding them,
 * and the edit machine's view.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import { calendarEditMachine } from '../../../machines/schedulers/calendarEdit.machine';
import { calendarsMachine } from '../../../machines/schedulers/calendars.machine';
import {
  calendarEditToView,
  calendarsToView,
  edgeText,
  weekdayName,
} from '../../../src/console/features/schedulers/selectors';
import type { Job } from '../../../src/protocol/inference';
import type { Calendar } from '../../../src/protocol/schedulers';

// Sunday 4 January 2026, 12:00 UTC (13:00 in Berlin).
const NOW = Date.parse('2026-01-04T12:00:00Z');
const CAL: Calendar = {
  id: 'c1',
  name: 'Shop',
  time_zone: 'Europe/Berlin',
  intervals: [
    { weekday: 1, start: '12:00', end: '17:00' },
    { weekday: 1, start: '08:00', end: '12:00' },
  ],
  job_ids: ['j1'],
  active: false,
  next: null,
  updated_at: '2026-01-01T00:00:00.000Z',
};
const JOB = {
  id: 'j1',
  job_name: 'Door',
  application_name: 'people',
  device_id: 'dev-1',
  device_label: 'Box B',
  cameras: ['cam-1'],
  camera_label: 'Front',
  state: 'stopped',
} as unknown as Job;
const OTHER = { ...JOB, id: 'j2', job_name: 'Yard', camera_label: '' } as Job;

describe('schedulers views', () => {
  it('reads a calendar, its jobs and the devices’ answers from the list snapshot', async () => {
    const actor = createActor(
      calendarsMachine.provide({
        actors: { loadCalendars: fromPromise(async () => ({ calendars: [CAL], jobs: [JOB, OTHER] })) },
      }),
    ).start();
    actor.send({ type: 'schedulers.load' });
    await waitFor(actor, (s) => s.matches('ready'));
    const before = calendarsToView(actor.getSnapshot(), NOW, 'en');
    const row = before.rows[0]!;
    expect(row).toMatchObject({ name: 'Shop', zone: 'Europe/Berlin', active: false, devices: null });
    // Monday 5 January 08:00 in Berlin is 07:00 UTC.
    expect(row.next).toEqual({ kind: 'start', at: Date.parse('2026-01-05T07:00:00Z'), when: 'Mon 08:00' });
    expect(row.intervals).toEqual([{ weekday: 1, day: 'Mon', start: '08:00', end: '17:00' }]);
    expect(row.jobs).toEqual([
      { id: 'j1', name: 'Door', device: 'Box B', camera: 'Front', state: 'stopped' },
    ]);
    expect(before.jobs).toEqual([
      { id: 'j1', label: 'Door · people · Box B · Front', calendar: 'Shop' },
      { id: 'j2', label: 'Yard · people · Box B', calendar: null },
    ]);

    const next = { at: Date.parse('2026-01-05T07:00:00Z'), kind: 'start' as const };
    actor.send({
      type: 'schedulers.synced',
      id: 'c1',
      results: [
        { deviceId: 'dev-1', error: null, status: { id: 'c1', active: false, next, last_error: null } },
        { deviceId: 'dev-9', error: 'Could not get an answer from the device', status: null },
      ],
    });
    const after = calendarsToView(actor.getSnapshot(), NOW, 'en').rows[0]!;
    expect(after.devices).toEqual([
      { deviceId: 'dev-1', label: 'Box B', armed: true, next: { ...next, when: 'Mon 08:00' }, error: null },
      {
        deviceId: 'dev-9',
        label: 'dev-9',
        armed: false,
        next: null,
        error: 'Could not get an answer from the device',
      },
    ]);
    // Inside the interval, the next edge is its stop.
    const monday = calendarsToView(actor.getSnapshot(), Date.parse('2026-01-05T10:00:00Z'), 'de').rows[0]!;
    expect(monday.active).toBe(true);
    expect(monday.next?.kind).toBe('stop');
    expect(monday.next?.when).toBe('Mo. 17:00');
  });

  it('formats edges in the calendar’s zone and names weekdays in the language', () => {
    expect(edgeText(Date.parse('2026-07-06T06:00:00Z'), 'Europe/Berlin', 'en')).toBe('Mon 08:00');
    expect(edgeText(Date.parse('2026-07-06T06:00:00Z'), 'America/New_York', 'en')).toBe('Mon 02:00');
    expect(weekdayName(0, 'en')).toBe('Sun');
    expect(weekdayName(1, 'fr', 'long')).toBe('lundi');
  });

  it('reads the editor: a new draft in the given zone, saveable once named', () => {
    const actor = createActor(calendarEditMachine, {
      input: { calendar: null, timeZone: 'Europe/Berlin' },
    }).start();
    const empty = calendarEditToView(actor.getSnapshot());
    expect(empty).toMatchObject({ state: 'editing', isNew: true, canSave: false, savedId: null });
    expect(empty.draft.time_zone).toBe('Europe/Berlin');
    actor.send({
      type: 'calendar.edit',
      draft: { ...empty.draft, name: 'Shop', intervals: CAL.intervals },
    });
    const named = calendarEditToView(actor.getSnapshot());
    expect(named.canSave).toBe(true);
    expect(named.intervals).toEqual([{ weekday: 1, start: '08:00', end: '17:00' }]);
  });
});
