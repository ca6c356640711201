/**
 * Alarms and events on a real server with PostgreSQL (src/server/routes/alarms.ts, events.ts,
 * src/server/events/): alarm CRUD with its validation texts, §7 calendar assignment, the per-device list of
 * alarm-new, a device posting events (recorded once per idempotency key; refused outside the alarm's
 * calendar, for a camera that is not a source, for another user's alarm), the snapshot upload and its signed
 * URL, timeline filters and keyset paging, bulk review and the dashboard summary.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let other: string;
let deviceToken: string;
let otherDeviceToken: string;
let device: { id: string; device_id: string };

/** A 1×1 JPEG (enough for the magic-number check and the byte round trip). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);

beforeAll(async () => {
  server = await startTestServer();
  const o = await server.seed.ensureUser({ email: 'owner@alarms.test', password: 'owner-pass-1' });
  const x = await server.seed.ensureUser({ email: 'other@alarms.test', password: 'other-pass-1' });
  owner = (await login(server, 'owner@alarms.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@alarms.test', 'other-pass-1')).token;
  device = await server.seed.ensureDevice({ ownerId: o.id, label: 'Alarm box', chipsetId: '0' });
  deviceToken = await server.seed.issueDeviceToken(device.id);
  const od = await server.seed.ensureDevice({ ownerId: x.id, label: 'Other box', chipsetId: '0' });
  otherDeviceToken = await server.seed.issueDeviceToken(od.id);
}, 60_000);
afterAll(() => server?.dispose());

const alarmBody = (over: Record<string, unknown> = {}) => ({
  name: 'Lobby intrusion',
  sources: [{ type: 'PHYSICAL', text: 'Lobby', value: `${device.device_id}_cam-1` }],
  classes: ['person'],
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
  severity: 'critical',
  ...over,
});

const eventBody = (alarmId: string, over: Record<string, unknown> = {}) => ({
  idempotency_key: `key-${Math.random().toString(36).slice(2)}`,
  alarm_id: alarmId,
  camera_id: `${device.device_id}_cam-1`,
  camera_kind: 'PHYSICAL',
  job_id: null,
  track_id: '3',
  at: new Date().toISOString(),
  class: 'person',
  score: 0.9,
  box: { x: 0.2, y: 0.4, w: 0.1, h: 0.3 },
  ...over,
});

describe('alarms REST', () => {
  let alarmId = '';
  let calendarId = '';

  it('creates, lists, refuses bad input and a taken name, and hides it from another user', async () => {
    const c = await api(server, 'POST', 'alarms', { token: owner, body: alarmBody() });
    expect(c.status).toBe(200);
    alarmId = c.body.id;
    expect(c.body).toMatchObject({
      name: 'Lobby intrusion',
      kind: 'object',
      classes: ['person'],
      min_score: 0.5,
      cooldown_seconds: 10,
      severity: 'critical',
      calendars: [],
      enabled: true,
      active: true,
    });
    const list = await api(server, 'GET', 'alarms', { token: owner });
    expect(list.body.alarms.map((a: { id: string }) => a.id)).toEqual([alarmId]);
    expect((await api(server, 'GET', 'alarms', { token: other })).body.alarms).toEqual([]);

    const dup = await api(server, 'POST', 'alarms', { token: owner, body: alarmBody() });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('You already have an alarm with this name.');
    const noCamera = await api(server, 'POST', 'alarms', {
      token: owner,
      body: alarmBody({ name: 'N', sources: [] }),
    });
    expect(noCamera.status).toBe(400);
    expect(JSON.stringify(noCamera.body)).toMatch(/Choose at least one camera/);
    const zone = await api(server, 'POST', 'alarms', {
      token: owner,
      body: alarmBody({
        name: 'Z',
        zones: [
          [
            [0, 0],
            [1.5, 0],
            [1, 1],
          ],
        ],
      }),
    });
    expect(zone.status).toBe(400);
    const twoPoints = await api(server, 'POST', 'alarms', {
      token: owner,
      body: alarmBody({
        name: 'Z2',
        zones: [
          [
            [0, 0],
            [1, 0],
          ],
        ],
      }),
    });
    expect(JSON.stringify(twoPoints.body)).toMatch(/at least 3 points/);
    const cal = await api(server, 'POST', 'alarms', {
      token: owner,
      body: alarmBody({ name: 'C', calendar_ids: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] }),
    });
    expect(cal.status).toBe(404);
    expect((await api(server, 'PUT', `alarms/${alarmId}`, { token: other, body: alarmBody() })).status).toBe(
      404,
    );
  });

  it('assigns calendars (§7 POST calendars/alarms/{id}/assign/) and the alarm is inactive outside them', async () => {
    // A calendar that is never active now: today's weekday in UTC, a minute that has passed or is far ahead.
    const now = new Date();
    const weekday = (now.getUTCDay() + 3) % 7; // three days away: not now
    const c = await api(server, 'POST', 'schedulers/calendars', {
      token: owner,
      body: {
        name: 'Other day',
        time_zone: 'UTC',
        intervals: [{ weekday, start: '00:00', end: '24:00' }],
        job_ids: [],
      },
    });
    expect(c.status).toBe(200);
    calendarId = c.body.id;
    const a = await api(server, 'POST', `calendars/alarms/${alarmId}/assign/`, {
      token: owner,
      body: { calendar_ids: [calendarId], job_id: null, physical_camera_id: `${device.device_id}_cam-1` },
    });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ calendars: [{ id: calendarId }], active: false });
    const foreign = await api(server, 'POST', `calendars/alarms/${alarmId}/assign/`, {
      token: other,
      body: { calendar_ids: [] },
    });
    expect(foreign.status).toBe(404);
    const job = await api(server, 'POST', `calendars/alarms/${alarmId}/assign/`, {
      token: owner,
      body: { calendar_ids: [], job_id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11' },
    });
    expect(job.status).toBe(404);
    expect(job.body.message).toBe('The job was not found among yours.');
  });

  it('gives the device its alarm list with calendars resolved, by the user and by the device token', async () => {
    const byUser = await api(server, 'GET', `alarms/device/${device.device_id}`, { token: owner });
    expect(byUser.status).toBe(200);
    expect(byUser.body.alarms).toHaveLength(1);
    expect(byUser.body.alarms[0]).toMatchObject({
      id: alarmId,
      calendars: [{ id: calendarId, time_zone: 'UTC' }],
      zones: alarmBody().zones,
      identities: [],
    });
    const byDevice = await api(server, 'GET', 'device/alarms', { token: deviceToken });
    expect(byDevice.body).toEqual(byUser.body);
    expect((await api(server, 'GET', `alarms/device/${device.device_id}`, { token: other })).status).toBe(
      404,
    );
    expect((await api(server, 'GET', 'device/alarms', { token: otherDeviceToken })).body.alarms).toEqual([]);
  });

  it('refuses an event outside the calendar (409 Alarm_inactive) and records it inside, once per key', async () => {
    const outside = await api(server, 'POST', 'device/events', {
      token: deviceToken,
      body: eventBody(alarmId),
    });
    expect(outside.status).toBe(409);
    expect(outside.body.code).toBe('Alarm_inactive');
    // Back to always active.
    await api(server, 'POST', `calendars/alarms/${alarmId}/assign/`, {
      token: owner,
      body: { calendar_ids: [] },
    });
    const body = eventBody(alarmId);
    const first = await api(server, 'POST', 'device/events', { token: deviceToken, body });
    expect(first.status).toBe(200);
    expect(first.body.created).toBe(true);
    const again = await api(server, 'POST', 'device/events', { token: deviceToken, body });
    expect(again.body).toEqual({ id: first.body.id, created: false });
    // recordEvent wrote the owner's §3 notification in the event's transaction, once for the two posts.
    const notes = await api(server, 'GET', 'notifications', { token: owner });
    expect(notes.status).toBe(200);
    expect(JSON.stringify(notes.body).split('Lobby intrusion').length - 1).toBe(1);

    const wrongCamera = await api(server, 'POST', 'device/events', {
      token: deviceToken,
      body: eventBody(alarmId, { camera_id: `${device.device_id}_cam-9` }),
    });
    expect(wrongCamera.status).toBe(409);
    expect(wrongCamera.body.code).toBe('Camera_not_in_alarm');
    const foreign = await api(server, 'POST', 'device/events', {
      token: otherDeviceToken,
      body: eventBody(alarmId),
    });
    expect(foreign.status).toBe(404);
    const byUser = await api(server, 'POST', 'device/events', { token: owner, body: eventBody(alarmId) });
    expect(byUser.status).toBe(401);
  });

  it('stores the snapshot (JPEG only, the device’s own event) and serves it by signed URL', async () => {
    const posted = await api(server, 'POST', 'device/events', {
      token: deviceToken,
      body: eventBody(alarmId),
    });
    const id = posted.body.id as string;
    const put = (token: string, bytes: Buffer, type = 'image/jpeg') =>
      fetch(`${server.url}/api/device/events/${id}/snapshot`, {
        method: 'PUT',
        headers: { authorization: `Token ${token}`, 'content-type': type },
        body: new Uint8Array(bytes),
      });
    expect((await put(deviceToken, Buffer.from('not a jpeg'))).status).toBe(400);
    expect((await put(otherDeviceToken, JPEG)).status).toBe(404);
    expect((await put(deviceToken, JPEG)).status).toBe(200);

    const ev = await api(server, 'GET', `events/${id}`, { token: owner });
    expect(ev.status).toBe(200);
    expect(ev.body).toMatchObject({
      id,
      class: 'person',
      severity: 'critical',
      reviewed: false,
      clip_url: null,
    });
    const url = ev.body.snapshot_url as string;
    expect(url).toMatch(/^\/api\/event-media\/.+\/snapshot\?exp=\d+&sig=/);
    const img = await fetch(`${server.url}${url}`);
    expect(img.status).toBe(200);
    expect(img.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await img.arrayBuffer()).equals(JPEG)).toBe(true);
    const forged = await fetch(`${server.url}${url.replace(/sig=[^&]+/, 'sig=AAAA')}`);
    expect(forged.status).toBe(404);
    expect((await api(server, 'GET', `events/${id}`, { token: other })).status).toBe(404);
  });

  it('lists with filters and keyset pages, reviews in bulk and summarises per alarm and severity', async () => {
    for (let i = 0; i < 3; i++) {
      await api(server, 'POST', 'device/events', {
        token: deviceToken,
        body: eventBody(alarmId, { class: 'car', at: new Date(Date.now() - (i + 1) * 60_000).toISOString() }),
      });
    }
    const cars = await api(server, 'GET', 'events?class=car&limit=2', { token: owner });
    expect(cars.body.events).toHaveLength(2);
    expect(cars.body.next).not.toBeNull();
    const next = await api(
      server,
      'GET',
      `events?class=car&limit=2&before_at=${encodeURIComponent(cars.body.next.before_at)}&before_id=${cars.body.next.before_id}`,
      { token: owner },
    );
    expect(next.body.events).toHaveLength(1);
    expect(next.body.next).toBeNull();
    const ids = [...cars.body.events, ...next.body.events].map((e: { id: string }) => e.id);
    expect(new Set(ids).size).toBe(3);

    const all = await api(server, 'GET', 'events', { token: owner });
    expect(all.body.events).toHaveLength(5);
    const reviewed = await api(server, 'POST', 'events/review', {
      token: owner,
      body: { ids, reviewed: true },
    });
    expect(reviewed.body.updated).toBe(3);
    expect(
      (await api(server, 'POST', 'events/review', { token: other, body: { ids, reviewed: false } })).body
        .updated,
    ).toBe(0);
    const unreviewed = await api(server, 'GET', 'events?reviewed=false', { token: owner });
    expect(unreviewed.body.events.every((e: { class: string }) => e.class === 'person')).toBe(true);

    const s = await api(server, 'GET', 'events/summary', { token: owner });
    expect(s.status).toBe(200);
    expect(s.body.per_alarm).toEqual([
      {
        alarm_id: alarmId,
        alarm_name: 'Lobby intrusion',
        info: 0,
        warning: 0,
        critical: 5,
        total: 5,
        unreviewed: 2,
      },
    ]);
    expect(s.body.per_severity).toEqual({ info: 0, warning: 0, critical: 5 });
    expect(s.body.unreviewed).toBe(2);
    expect(s.body.classes).toEqual(['car', 'person']);
    expect(s.body.per_hour.reduce((n: number, h: { count: number }) => n + h.count, 0)).toBe(5);
    expect(s.body.recent).toHaveLength(5);
  });

  it('deletes the alarm; its events stay without it', async () => {
    expect((await api(server, 'DELETE', `alarms/${alarmId}`, { token: other })).status).toBe(404);
    expect((await api(server, 'DELETE', `alarms/${alarmId}`, { token: owner })).body).toEqual({ ok: true });
    const all = await api(server, 'GET', 'events', { token: owner });
    expect(all.body.events).toHaveLength(5);
    expect(all.body.events.every((e: { alarm_id: string | null }) => e.alarm_id === null)).toBe(true);
  });
});
