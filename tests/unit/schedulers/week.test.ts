/**
 * The calendar editor's week helpers (src/console/features/schedulers/week.ts): a drag is whole hours of one
 * day, same-day intervals that overlap or touch merge, hour cells light where an interval covers them, a
 * picked interval is checked, and the zone list holds the browser's zone.
 */
import { describe, expect, it } from 'vitest';
import {
  addInterval,
  dragInterval,
  hourCells,
  intervalProblem,
  normalize,
  timeZones,
} from '../../../src/console/features/schedulers/week';

describe('week helpers', () => {
  it('turns a drag into an interval of whole hours, either direction', () => {
    expect(dragInterval(1, 8, 16)).toEqual({ weekday: 1, start: '08:00', end: '17:00' });
    expect(dragInterval(0, 23, 22)).toEqual({ weekday: 0, start: '22:00', end: '24:00' });
    expect(dragInterval(3, 5, 5)).toEqual({ weekday: 3, start: '05:00', end: '06:00' });
  });

  it('merges same-day intervals that overlap or touch, Monday first', () => {
    const list = normalize([
      { weekday: 0, start: '10:00', end: '11:00' },
      { weekday: 1, start: '12:00', end: '14:00' },
      { weekday: 1, start: '08:00', end: '12:00' },
      { weekday: 1, start: '09:00', end: '10:00' },
      { weekday: 2, start: '08:00', end: '09:00' },
    ]);
    expect(list).toEqual([
      { weekday: 1, start: '08:00', end: '14:00' },
      { weekday: 2, start: '08:00', end: '09:00' },
      { weekday: 0, start: '10:00', end: '11:00' },
    ]);
    expect(addInterval(list, { weekday: 2, start: '10:30', end: '11:15' })).toHaveLength(4);
  });

  it('lights the hour cells an interval covers, partly covered ones too', () => {
    const cells = hourCells([{ weekday: 5, start: '08:30', end: '10:00' }], 5);
    expect(cells.flatMap((on, h) => (on ? [h] : []))).toEqual([8, 9]);
    expect(hourCells([{ weekday: 5, start: '08:30', end: '10:00' }], 4).some(Boolean)).toBe(false);
  });

  it('checks a picked interval', () => {
    expect(intervalProblem('08:00', '17:00')).toBeNull();
    expect(intervalProblem('08:00', '24:00')).toBeNull();
    expect(intervalProblem('17:00', '08:00')).toBe('endBeforeStart');
    expect(intervalProblem('8', '17:00')).toBe('badTime');
  });

  it('offers the engine’s zones with the current one and UTC', () => {
    const zones = timeZones('Europe/Berlin');
    expect(zones).toContain('Europe/Berlin');
    expect(zones).toContain('UTC');
    expect(zones.length).toBeGreaterThan(100);
  });
});
