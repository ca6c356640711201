/**
 * Detection matching on the device (src/agent/alarms/match.ts): point in polygon (inside, outside, edge,
 * concave), the bottom centre rule, sources naming the camera, class / score / zone / blacklist, calendars and
 * silences (alarmActiveAt), and the cooldown per alarm and track.
 */
import { describe, expect, it } from 'vitest';
import { Cooldowns, firingsOf, pointInPolygon, sourceOf } from '../../../src/agent/alarms/match';
import { alarmActiveAt, type DeviceAlarm } from '../../../src/protocol/alarms';
import type { Detection } from '../../../src/protocol/inference';

const camera = { deviceId: 'dev-a', cameraId: 'cam-1', kind: 'PHYSICAL' as const };
const alarm = (over: Partial<DeviceAlarm> = {}): DeviceAlarm => ({
  id: 'a1',
  name: 'Door',
  kind: 'object',
  sources: [{ type: 'PHYSICAL', text: 'Lobby', value: 'dev-a_cam-1' }],
  calendars: [],
  classes: ['person'],
  // The lower half of the frame.
  zones: [
    [
      [0, 0.5],
      [1, 0.5],
      [1, 1],
      [0, 1],
    ],
  ],
  min_score: 0.5,
  cooldown_seconds: 10,
  severity: 'warning',
  silences: [],
  enabled: true,
  identities: [],
  ...over,
});
const det = (over: Partial<Detection> = {}): Detection => ({
  class_id: 0,
  class_name: 'person',
  score: 0.8,
  track_id: 1,
  // Top at 0.3, bottom at 0.6: the bottom centre (0.45, 0.6) is in the lower half, the centre is not.
  box: [0.4, 0.3, 0.1, 0.3],
  ...over,
});
const T = Date.parse('2026-11-25T10:00:00Z'); // a Wednesday

describe('pointInPolygon', () => {
  const square: [number, number][] = [
    [0.2, 0.2],
    [0.8, 0.2],
    [0.8, 0.8],
    [0.2, 0.8],
  ];
  it('inside, outside and on an edge', () => {
    expect(pointInPolygon(0.5, 0.5, square)).toBe(true);
    expect(pointInPolygon(0.1, 0.5, square)).toBe(false);
    expect(pointInPolygon(0.9, 0.9, square)).toBe(false);
    expect(pointInPolygon(0.8, 0.5, square)).toBe(true);
    expect(pointInPolygon(0.5, 0.2, square)).toBe(true);
  });
  it('a concave polygon (an L) leaves its notch out', () => {
    const l: [number, number][] = [
      [0, 0],
      [0.5, 0],
      [0.5, 0.5],
      [1, 0.5],
      [1, 1],
      [0, 1],
    ];
    expect(pointInPolygon(0.75, 0.25, l)).toBe(false);
    expect(pointInPolygon(0.25, 0.25, l)).toBe(true);
    expect(pointInPolygon(0.75, 0.75, l)).toBe(true);
  });
});

describe('firingsOf', () => {
  it('fires on the bottom centre in the zone, not on a box standing above it', () => {
    expect(firingsOf([alarm()], camera, [det()], T, new Cooldowns())).toHaveLength(1);
    const above = det({ box: [0.4, 0.1, 0.1, 0.3] }); // bottom at 0.4
    expect(firingsOf([alarm()], camera, [above], T, new Cooldowns())).toHaveLength(0);
  });

  it('needs the camera among the sources, the class and the score', () => {
    const c = new Cooldowns();
    expect(firingsOf([alarm()], { ...camera, cameraId: 'cam-2' }, [det()], T, c)).toHaveLength(0);
    expect(firingsOf([alarm()], { ...camera, deviceId: 'dev-b' }, [det()], T, c)).toHaveLength(0);
    expect(firingsOf([alarm()], camera, [det({ class_name: 'car' })], T, c)).toHaveLength(0);
    expect(firingsOf([alarm()], camera, [det({ score: 0.49 })], T, c)).toHaveLength(0);
    expect(firingsOf([alarm({ classes: [] })], camera, [det({ class_name: 'car' })], T, c)).toHaveLength(1);
    const ip = alarm({ sources: [{ type: 'IP', text: 'Gate', value: 'ip-9' }] });
    expect(sourceOf(ip, { ...camera, cameraId: 'ip-9', kind: 'IP' })?.value).toBe('ip-9');
  });

  it('a new alarm list keeps the cooldowns of the alarms it still holds and forgets the others', () => {
    const c = new Cooldowns();
    const other = alarm({ id: 'a2' });
    expect(firingsOf([alarm(), other], camera, [det()], T, c)).toHaveLength(2);
    c.retain(new Set(['a1']));
    // a1 is still cooling down; a2 left the list, so its cooldown is gone.
    expect(firingsOf([alarm()], camera, [det()], T + 1_000, c)).toHaveLength(0);
    expect(firingsOf([other], camera, [det()], T + 1_000, c)).toHaveLength(1);
  });

  it('holds a tracked object for cooldown_seconds; another track fires at once', () => {
    const c = new Cooldowns();
    expect(firingsOf([alarm()], camera, [det()], T, c)).toHaveLength(1);
    expect(firingsOf([alarm()], camera, [det()], T + 9_999, c)).toHaveLength(0);
    expect(firingsOf([alarm()], camera, [det({ track_id: 2 })], T + 5_000, c)).toHaveLength(1);
    expect(firingsOf([alarm()], camera, [det()], T + 10_000, c)).toHaveLength(1);
  });

  it('fires only inside a calendar and outside silences, and not when disabled', () => {
    const wednesdayMorning = {
      id: 'c1',
      time_zone: 'UTC',
      intervals: [{ weekday: 3, start: '09:00', end: '11:00' }],
    };
    const thursday = {
      id: 'c2',
      time_zone: 'UTC',
      intervals: [{ weekday: 4, start: '00:00', end: '24:00' }],
    };
    expect(
      firingsOf([alarm({ calendars: [wednesdayMorning] })], camera, [det()], T, new Cooldowns()),
    ).toHaveLength(1);
    expect(firingsOf([alarm({ calendars: [thursday] })], camera, [det()], T, new Cooldowns())).toHaveLength(
      0,
    );
    // The same wall-clock interval read in Tokyo (UTC+9) is 00:00–02:00 UTC: 10:00 UTC is outside.
    const tokyo = { ...wednesdayMorning, time_zone: 'Asia/Tokyo' };
    expect(firingsOf([alarm({ calendars: [tokyo] })], camera, [det()], T, new Cooldowns())).toHaveLength(0);
    const silenced = alarm({ silences: [{ start: '2026-11-25T09:30:00Z', end: '2026-11-25T10:30:00Z' }] });
    expect(firingsOf([silenced], camera, [det()], T, new Cooldowns())).toHaveLength(0);
    expect(alarmActiveAt(silenced, T + 3_600_000)).toBe(true);
    expect(firingsOf([alarm({ enabled: false })], camera, [det()], T, new Cooldowns())).toHaveLength(0);
  });

  it('a face alarm fires on blacklisted identities only', () => {
    const face = alarm({ kind: 'face', identities: ['person-7'], zones: [] });
    const known = { ...det(), attributes: { identity: 'person-7' } } as Detection;
    const stranger = { ...det({ track_id: 5 }), attributes: { identity: 'person-8' } } as Detection;
    expect(firingsOf([face], camera, [known, stranger], T, new Cooldowns()).map((f) => f.detection)).toEqual([
      known,
    ]);
  });
});
