/**
 * Pure helpers of the calendar editor's week (issue 10 `/schedulers`; src/protocol/schedulers.ts
 * CalendarInterval: weekday 0 Sunday … 6 Saturday, "HH:MM" start inclusive, end exclusive, "24:00" the end of
 * the day). The grid shows Monday first, one cell per hour; a drag over cells of one day is an interval of
 * whole hours. Intervals of one day that overlap or touch are merged, so the list stays short and the device
 * sees no duplicate edges.
 */
import { minutesOf, type CalendarInterval } from '../../../protocol/schedulers';

/** Weekdays in the grid's order (ISO: Monday first). */
export const WEEK_ORDER = [1, 2, 3, 4, 5, 6, 0] as const;

/** "HH:MM" of minutes since midnight (1440 → "24:00"). */
export const hhmm = (minutes: number): string =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The interval a drag from hour cell `a` to hour cell `b` (either order, 0–23) of `weekday` covers. */
export function dragInterval(weekday: number, a: number, b: number): CalendarInterval {
  const lo = Math.max(0, Math.min(23, Math.min(a, b)));
  const hi = Math.max(0, Math.min(23, Math.max(a, b)));
  return { weekday, start: hhmm(lo * 60), end: hhmm((hi + 1) * 60) };
}

/** Sorted by weekday (Monday first) then start; same-day intervals that overlap or touch merged. */
export function normalize(intervals: readonly CalendarInterval[]): CalendarInterval[] {
  const order = (d: number) => WEEK_ORDER.indexOf(d as (typeof WEEK_ORDER)[number]);
  const sorted = [...intervals].sort(
    (x, y) => order(x.weekday) - order(y.weekday) || minutesOf(x.start) - minutesOf(y.start),
  );
  const out: CalendarInterval[] = [];
  for (const i of sorted) {
    const last = out[out.length - 1];
    if (last && last.weekday === i.weekday && minutesOf(i.start) <= minutesOf(last.end)) {
      if (minutesOf(i.end) > minutesOf(last.end)) out[out.length - 1] = { ...last, end: i.end };
    } else out.push({ ...i });
  }
  return out;
}

/** The intervals with `add` added (normalized). */
export const addInterval = (intervals: readonly CalendarInterval[], add: CalendarInterval) =>
  normalize([...intervals, add]);

/** For one weekday, 24 flags: the hour cell overlaps one of the intervals. */
export function hourCells(intervals: readonly CalendarInterval[], weekday: number): boolean[] {
  return Array.from({ length: 24 }, (_, h) =>
    intervals.some(
      (i) => i.weekday === weekday && minutesOf(i.start) < (h + 1) * 60 && minutesOf(i.end) > h * 60,
    ),
  );
}

/** Why a picked interval cannot be added (i18n key under schedulers.), or null. */
export function intervalProblem(start: string, end: string): 'badTime' | 'endBeforeStart' | null {
  const ok = (s: string) => /^(?:[01]\d|2[0-3]):[0-5]\d$|^24:00$/.test(s);
  if (!ok(start) || !ok(end)) return 'badTime';
  return minutesOf(end) > minutesOf(start) ? null : 'endBeforeStart';
}

/** The IANA zones the picker offers (the engine's list), with `current` and UTC always in it. */
export function timeZones(current: string): string[] {
  const intl = Intl as unknown as { supportedValuesOf?: (k: string) => string[] };
  const list = intl.supportedValuesOf ? intl.supportedValuesOf('timeZone') : [];
  return [...new Set([...list, 'UTC', current])].sort();
}

/** The browser's zone (the picker's default); UTC when the engine does not say. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}
