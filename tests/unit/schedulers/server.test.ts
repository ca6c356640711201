/**
 * The calendar REST calls on a real server with PostgreSQL (src/server/routes/schedulers.ts): create, list with
 * the state and next edge, the §-less validation texts, name taken (409), jobs not the caller's (404), another
 * user's calendar (404), update, the per-device sync payload, delete; the device route for a scheduled job's
 * state (device token only, 404 for a job not on the device).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { calendarState } from '../../../src/protocol/schedulers';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let other: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'owner@sched.test', password: 'owner-pass-1' });
  await server.seed.ensureUser({ email: 'other@sched.test', password: 'other-pass-1' });
  owner = (await login(server, 'owner@sched.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@sched.test', 'other-pass-1')).token;
}, 60_000);
afterAll(() => server?.dispose());

const BODY = {
  name: 'Opening hours',
  time_zone: 'Europe/Paris',
  intervals: [
    { weekday: 1, start: '09:00', end: '17:00' },
    { weekday: 6, start: '10:00', end: '12:30' },
  ],
  job_ids: [],
};

describe('scheduler calendars REST', () => {
  let id = '';

  it('creates a calendar and lists it with its state and next edge', async () => {
    const before = Date.now();
    const c = await api(server, 'POST', 'schedulers/calendars', { token: owner, body: BODY });
    expect(c.status).toBe(200);
    id = c.body.id;
    expect(c.body).toMatchObject({ name: 'Opening hours', time_zone: 'Europe/Paris', job_ids: [] });
    const l = await api(server, 'GET', 'schedulers/calendars', { token: owner });
    expect(l.body.calendars.map((x: { id: string }) => x.id)).toEqual([id]);
    const expected = calendarState(BODY, before);
    expect(l.body.calendars[0].active).toBe(expected.active);
    expect(l.body.calendars[0].next.kind).toBe(expected.next?.kind);
    expect((await api(server, 'GET', 'schedulers/calendars', { token: other })).body.calendars).toEqual([]);
  });

  it('refuses a bad zone, an end before its start, a taken name and jobs that are not the caller’s', async () => {
    const zone = await api(server, 'POST', 'schedulers/calendars', {
      token: owner,
      body: { ...BODY, name: 'Z', time_zone: 'Mars/Olympus' },
    });
    expect(zone.status).toBe(400);
    expect(JSON.stringify(zone.body)).toMatch(/Unknown time zone/);
    const order = await api(server, 'POST', 'schedulers/calendars', {
      token: owner,
      body: { ...BODY, name: 'O', intervals: [{ weekday: 1, start: '10:00', end: '09:00' }] },
    });
    expect(order.status).toBe(400);
    const dup = await api(server, 'POST', 'schedulers/calendars', { token: owner, body: BODY });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('A calendar with this name already exists.');
    const jobs = await api(server, 'POST', 'schedulers/calendars', {
      token: owner,
      body: { ...BODY, name: 'J', job_ids: ['2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11'] },
    });
    expect(jobs.status).toBe(404);
    expect(jobs.body.message).toBe('Some of these jobs were not found.');
  });

  it('updates, gives the (empty) per-device sync payload, and deletes; another user gets 404', async () => {
    const u = await api(server, 'PUT', `schedulers/calendars/${id}`, {
      token: owner,
      body: { ...BODY, name: 'Weekends', time_zone: 'America/New_York' },
    });
    expect(u.status).toBe(200);
    expect(u.body).toMatchObject({ id, name: 'Weekends', time_zone: 'America/New_York' });
    expect(
      (await api(server, 'PUT', `schedulers/calendars/${id}`, { token: other, body: BODY })).status,
    ).toBe(404);
    const s = await api(server, 'GET', `schedulers/calendars/${id}/sync`, { token: owner });
    expect(s.body).toEqual({ devices: [] });
    expect((await api(server, 'DELETE', `schedulers/calendars/${id}`, { token: other })).status).toBe(404);
    expect((await api(server, 'DELETE', `schedulers/calendars/${id}`, { token: owner })).body).toEqual({
      ok: true,
    });
    expect((await api(server, 'GET', 'schedulers/calendars', { token: owner })).body.calendars).toEqual([]);
  });

  it('takes a scheduled job’s state from a device token only; a job not on that device is 404', async () => {
    const ownerRow = await server.seed.ensureUser({ email: 'owner@sched.test', password: 'owner-pass-1' });
    const device = await server.seed.ensureDevice({
      ownerId: ownerRow.id,
      label: 'Sched box',
      chipsetId: '0',
    });
    const deviceToken = await server.seed.issueDeviceToken(device.id);
    const path = 'device/jobs/2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11/state';
    const body = { state: 'started', runtime: { port: 8554 } };
    const missing = await api(server, 'PUT', path, { token: deviceToken, body });
    expect(missing.status).toBe(404);
    expect(missing.body.code).toBeTruthy();
    expect((await api(server, 'PUT', path, { token: owner, body })).status).toBe(401);
    const bad = await api(server, 'PUT', path, { token: deviceToken, body: { state: 'flying' } });
    expect(bad.status).toBe(400);
  });
});
