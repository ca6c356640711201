/**
 * The calendar math (src/protocol/schedulers.ts calendarState): inside or not, and the next edge, in real IANA
 * zones across summer-time changes (Europe/Paris 2026: 29 March 02:00→03:00, 25 October 03:00→02:00;
 * America/New_York 2026: 8 March, 1 November).
 */
import { describe, expect, it } from 'vitest';
import { calendarState, CalendarInput, isInside, zoned } from '../../../src/protocol/schedulers';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | undefined) => (ms === undefined ? undefined : new Date(ms).toISOString());
const paris = (intervals: { weekday: number; start: string; end: string }[]) => ({
  time_zone: 'Europe/Paris',
  intervals,
});

describe('calendarState', () => {
  const workday = paris([{ weekday: 1, start: '09:00', end: '17:00' }]);

  it('reads winter time (UTC+1): Monday 09:00–17:00 Paris is 08:00–16:00 UTC', () => {
    expect(calendarState(workday, at('2026-01-05T07:59:00Z'))).toEqual({
      active: false,
      next: { at: at('2026-01-05T08:00:00Z'), kind: 'start' },
    });
    const s = calendarState(workday, at('2026-01-05T08:00:00Z'));
    expect(s.active).toBe(true);
    expect(iso(s.next?.at)).toBe('2026-01-05T16:00:00.000Z');
    expect(s.next?.kind).toBe('stop');
  });

  it('reads summer time (UTC+2) and finds next week’s start after the stop', () => {
    expect(isInside(workday, at('2026-07-06T07:00:00Z'))).toBe(true);
    expect(isInside(workday, at('2026-07-06T06:59:59Z'))).toBe(false);
    const s = calendarState(workday, at('2026-07-06T15:00:00Z'));
    expect(s).toEqual({ active: false, next: { at: at('2026-07-13T07:00:00Z'), kind: 'start' } });
  });

  it('crosses the spring-forward change: the week’s start moves by an hour in UTC', () => {
    // Saturday 28 March (winter) → next Monday 30 March is summer time.
    const s = calendarState(workday, at('2026-03-28T12:00:00Z'));
    expect(iso(s.next?.at)).toBe('2026-03-30T07:00:00.000Z');
  });

  it('starts an interval that begins in the spring-forward gap at the end of the gap', () => {
    // 02:30 on 29 March does not exist in Paris; 03:00 CEST (01:00 UTC) is the first instant inside.
    const gap = paris([{ weekday: 0, start: '02:30', end: '04:00' }]);
    const before = calendarState(gap, at('2026-03-29T00:30:00Z'));
    expect(before).toEqual({ active: false, next: { at: at('2026-03-29T01:00:00Z'), kind: 'start' } });
    const inside = calendarState(gap, at('2026-03-29T01:00:00Z'));
    expect(inside).toEqual({ active: true, next: { at: at('2026-03-29T02:00:00Z'), kind: 'stop' } });
  });

  it('runs an interval in the repeated fall-back hour twice', () => {
    // 02:15–02:45 on 25 October happens at 00:15–00:45 UTC (CEST) and again at 01:15–01:45 UTC (CET).
    const twice = paris([{ weekday: 0, start: '02:15', end: '02:45' }]);
    const edges: string[] = [];
    let t = at('2026-10-25T00:00:00Z');
    for (let n = 0; n < 4; n++) {
      const s = calendarState(twice, t);
      if (!s.next) break;
      edges.push(`${s.next.kind} ${iso(s.next.at)}`);
      t = s.next.at;
    }
    expect(edges).toEqual([
      'start 2026-10-25T00:15:00.000Z',
      'stop 2026-10-25T00:45:00.000Z',
      'start 2026-10-25T01:15:00.000Z',
      'stop 2026-10-25T01:45:00.000Z',
    ]);
  });

  it('follows New York’s own change dates, not Europe’s', () => {
    const ny = { time_zone: 'America/New_York', intervals: [{ weekday: 1, start: '09:00', end: '10:00' }] };
    expect(iso(calendarState(ny, at('2026-03-07T00:00:00Z')).next?.at)).toBe('2026-03-09T13:00:00.000Z');
    expect(iso(calendarState(ny, at('2026-03-01T00:00:00Z')).next?.at)).toBe('2026-03-02T14:00:00.000Z');
  });

  it('reads half-hour zones (Asia/Kolkata, UTC+5:30)', () => {
    const k = { time_zone: 'Asia/Kolkata', intervals: [{ weekday: 3, start: '00:00', end: '00:30' }] };
    // Wednesday 00:00 IST = Tuesday 18:30 UTC.
    expect(calendarState(k, at('2026-06-02T18:00:00Z')).next).toEqual({
      at: at('2026-06-02T18:30:00Z'),
      kind: 'start',
    });
    expect(zoned(at('2026-06-02T18:30:00Z'), 'Asia/Kolkata')).toEqual({
      weekday: 3,
      minute: 0,
      offsetMs: 19_800_000,
    });
  });

  it('joins intervals that meet at midnight into one period', () => {
    const night = paris([
      { weekday: 1, start: '22:00', end: '24:00' },
      { weekday: 2, start: '00:00', end: '06:00' },
    ]);
    const s = calendarState(night, at('2026-01-05T22:00:00Z')); // Monday 23:00 Paris
    expect(s).toEqual({ active: true, next: { at: at('2026-01-06T05:00:00Z'), kind: 'stop' } });
  });

  it('has no edge with no intervals, nor when the whole week is inside', () => {
    expect(calendarState(paris([]), at('2026-01-05T00:00:00Z'))).toEqual({ active: false, next: null });
    const always = paris([0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' })));
    expect(calendarState(always, at('2026-03-29T01:30:00Z'))).toEqual({ active: true, next: null });
  });
});

describe('CalendarInput', () => {
  const ok = { name: 'Opening hours', time_zone: 'Europe/Paris', intervals: [], job_ids: [] };
  it('accepts a calendar and refuses an unknown zone, an end before the start, a bad time', () => {
    expect(CalendarInput.safeParse(ok).success).toBe(true);
    const zone = CalendarInput.safeParse({ ...ok, time_zone: 'Mars/Olympus' });
    expect(zone.error?.issues[0]?.message).toMatch(/Unknown time zone/);
    const order = CalendarInput.safeParse({
      ...ok,
      intervals: [{ weekday: 1, start: '10:00', end: '09:00' }],
    });
    expect(order.error?.issues[0]?.message).toBe('The end must be after the start');
    expect(
      CalendarInput.safeParse({ ...ok, intervals: [{ weekday: 7, start: '10:00', end: '11:00' }] }).success,
    ).toBe(false);
    expect(
      CalendarInput.safeParse({ ...ok, intervals: [{ weekday: 1, start: '24:30', end: '25:00' }] }).success,
    ).toBe(false);
    expect(CalendarInput.safeParse({ ...ok, name: '  ' }).success).toBe(false);
  });
});
