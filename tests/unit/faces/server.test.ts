/**
 * Faces on a real server with PostgreSQL (src/server/routes/faces.ts, src/server/faces/store.ts): enrolling
 * from an event (identity and snapshot copied; an event without identity refused with its clear text; another
 * user's event unknown; a second enrolment of a person 409), the raw upload (JPEG / PNG by their first bytes,
 * anything else refused, size cap, an identity never seen refused, credentials before the body), rename and
 * blacklist toggle, delete, the signed picture URL, the identities seen, the face alarms' events with the
 * gallery label and the person filter, and the device list `alarm-new` sends carrying the blacklist as it
 * changes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FACE_PICTURE_MAX_BYTES, FACE_TEXTS } from '../../../src/protocol/faces';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let other: string;
let deviceToken: string;
let device: { id: string; device_id: string };
let objectAlarm = '';
let faceAlarm = '';

/** A 1×1 JPEG and the first bytes of a PNG (the checks read the magic numbers). */
const JPEG = Buffer.from(
  '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAgGBgcGBQgHBwcJCQgKDBQNDAsLDBkSEw8UHRofHh0aHBwgJC4nICIsIxwcKDcpLDAxNDQ0Hyc5PTgyPC4zNDL/wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAACf/EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AKp//2Q==',
  'base64',
);
const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.alloc(64, 1),
]);

const cam = () => `${device.device_id}_cam-1`;

async function postEvent(alarmId: string, identity: string | null, snapshot = true): Promise<string> {
  const r = await api(server, 'POST', 'device/events', {
    token: deviceToken,
    body: {
      idempotency_key: `key-${Math.random().toString(36).slice(2)}`,
      alarm_id: alarmId,
      camera_id: cam(),
      camera_kind: 'PHYSICAL',
      job_id: null,
      track_id: '1',
      at: new Date().toISOString(),
      class: 'person',
      score: 0.9,
      box: { x: 0.2, y: 0.4, w: 0.1, h: 0.3 },
      identity,
    },
  });
  expect(r.status).toBe(200);
  if (snapshot) {
    const put = await fetch(`${server.url}/api/device/events/${r.body.id}/snapshot`, {
      method: 'PUT',
      headers: { authorization: `Token ${deviceToken}`, 'content-type': 'image/jpeg' },
      body: JPEG,
    });
    expect(put.status).toBe(200);
  }
  return r.body.id as string;
}

async function upload(
  query: Record<string, string>,
  bytes: Buffer,
  token: string | null = owner,
  type = 'image/jpeg',
) {
  const headers: Record<string, string> = { 'content-type': type };
  if (token) headers.authorization = `Token ${token}`;
  const res = await fetch(`${server.url}/api/faces/upload?${new URLSearchParams(query)}`, {
    method: 'POST',
    headers,
    body: new Uint8Array(bytes),
  });
  return { status: res.status, body: await res.json() };
}

beforeAll(async () => {
  server = await startTestServer();
  const o = await server.seed.ensureUser({ email: 'owner@faces.test', password: 'owner-pass-1' });
  await server.seed.ensureUser({ email: 'other@faces.test', password: 'other-pass-1' });
  owner = (await login(server, 'owner@faces.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@faces.test', 'other-pass-1')).token;
  device = await server.seed.ensureDevice({ ownerId: o.id, label: 'Face box', chipsetId: '0' });
  deviceToken = await server.seed.issueDeviceToken(device.id);
  const sources = [{ type: 'PHYSICAL', text: 'Lobby', value: `${device.device_id}_cam-1` }];
  const a = await api(server, 'POST', 'alarms', {
    token: owner,
    body: { name: 'People', sources, classes: ['person'], cooldown_seconds: 1 },
  });
  objectAlarm = a.body.id;
  const f = await api(server, 'POST', 'alarms', {
    token: owner,
    body: { name: 'Blacklist', kind: 'face', sources, cooldown_seconds: 1 },
  });
  faceAlarm = f.body.id;
}, 60_000);
afterAll(() => server?.dispose());

const blacklistSent = async () => {
  const r = await api(server, 'GET', `alarms/device/${device.device_id}`, { token: owner });
  expect(r.status).toBe(200);
  return (r.body.alarms as { id: string; identities: string[] }[]).find((x) => x.id === faceAlarm)!
    .identities;
};

describe('faces REST', () => {
  let fromEvent = '';
  let uploaded = '';

  it('enrolls a person from an event with its snapshot; refuses no identity, another user, a second time', async () => {
    const ev = await postEvent(objectAlarm, 'person-3');
    const none = await postEvent(objectAlarm, null);

    const noId = await api(server, 'POST', 'faces/from-event', { token: owner, body: { event_id: none } });
    expect(noId.status).toBe(400);
    expect(noId.body).toEqual({ code: 'Validation_error', message: FACE_TEXTS.noIdentity });

    const foreign = await api(server, 'POST', 'faces/from-event', { token: other, body: { event_id: ev } });
    expect(foreign.status).toBe(404);
    const bad = await api(server, 'POST', 'faces/from-event', { token: owner, body: { event_id: 'x' } });
    expect(bad.status).toBe(400);

    const ok = await api(server, 'POST', 'faces/from-event', {
      token: owner,
      body: { event_id: ev, blacklisted: false },
    });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      identity: 'person-3',
      label: 'person-3',
      blacklisted: false,
      source_event_id: ev,
    });
    fromEvent = ok.body.id;
    const pic = await fetch(`${server.url}${ok.body.picture_url}`);
    expect(pic.status).toBe(200);
    expect(pic.headers.get('content-type')).toBe('image/jpeg');
    expect(Buffer.from(await pic.arrayBuffer()).equals(JPEG)).toBe(true);
    // A tampered signature reads nothing.
    const forged = await fetch(`${server.url}${ok.body.picture_url.replace(/sig=.{4}/, 'sig=AAAA')}`);
    expect(forged.status).toBe(404);

    const again = await api(server, 'POST', 'faces/from-event', { token: owner, body: { event_id: ev } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(FACE_TEXTS.duplicate);
    // Not blacklisted yet: the face alarm the device gets carries nobody.
    expect(await blacklistSent()).toEqual([]);
  });

  it('uploads a JPEG or PNG for a person seen in events; refuses other bytes, too large, unseen, no token', async () => {
    await postEvent(objectAlarm, 'person-5', false);
    const text = await upload({ identity: 'person-5', label: 'Eve' }, Buffer.from('not a picture at all'));
    expect(text.status).toBe(400);
    expect(text.body).toEqual({ code: 'Validation_error', message: FACE_TEXTS.badPicture });
    // The header is not believed: a text sent as a PNG, or as text, is refused the same way.
    const claimed = await upload(
      { identity: 'person-5', label: 'Eve' },
      Buffer.from('GIF89a…'),
      owner,
      'image/png',
    );
    expect(claimed.body.message).toBe(FACE_TEXTS.badPicture);
    const plain = await upload(
      { identity: 'person-5', label: 'Eve' },
      Buffer.from('hello'),
      owner,
      'text/plain',
    );
    expect(plain.status).toBe(400);
    expect(plain.body.message).toBe(FACE_TEXTS.badPicture);
    const big = Buffer.concat([JPEG, Buffer.alloc(FACE_PICTURE_MAX_BYTES)]);
    const large = await upload({ identity: 'person-5', label: 'Eve' }, big);
    expect(large.status).toBe(413);
    expect(large.body.message).toBe(FACE_TEXTS.tooLarge);
    const unseen = await upload({ identity: 'person-99', label: 'Nobody' }, JPEG);
    expect(unseen.status).toBe(404);
    expect(unseen.body.message).toBe(FACE_TEXTS.identityUnknown);
    const noLabel = await upload({ identity: 'person-5', label: '  ' }, JPEG);
    expect(noLabel.status).toBe(400);
    expect(noLabel.body.message).toContain('Label is required');
    const nul = await upload({ identity: 'person-5', label: 'a\u0000b' }, JPEG);
    expect(nul.status).toBe(400);
    const anon = await upload({ identity: 'person-5', label: 'Eve' }, big, null);
    expect(anon.status).toBe(401);

    const ok = await upload({ identity: 'person-5', label: 'Eve' }, PNG);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ identity: 'person-5', label: 'Eve', blacklisted: true });
    uploaded = ok.body.id;
    const pic = await fetch(`${server.url}${ok.body.picture_url}`);
    expect(pic.headers.get('content-type')).toBe('image/png');
    const again = await upload({ identity: 'person-5', label: 'Eve 2' }, JPEG);
    expect(again.status).toBe(409);
    expect(await blacklistSent()).toEqual(['person-5']);
  });

  it('lists the gallery by label, renames and toggles the blacklist (the device list follows), deletes', async () => {
    const list = await api(server, 'GET', 'faces', { token: owner });
    expect(list.body.faces.map((f: { label: string }) => f.label)).toEqual(['Eve', 'person-3']);
    expect((await api(server, 'GET', 'faces', { token: other })).body.faces).toEqual([]);

    const renamed = await api(server, 'PUT', `faces/${fromEvent}`, {
      token: owner,
      body: { label: 'Mallory', blacklisted: true },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ label: 'Mallory', blacklisted: true });
    expect((await blacklistSent()).sort()).toEqual(['person-3', 'person-5']);

    const empty = await api(server, 'PUT', `faces/${fromEvent}`, { token: owner, body: {} });
    expect(empty.status).toBe(400);
    const foreign = await api(server, 'PUT', `faces/${fromEvent}`, {
      token: other,
      body: { blacklisted: false },
    });
    expect(foreign.status).toBe(404);

    const off = await api(server, 'PUT', `faces/${uploaded}`, { token: owner, body: { blacklisted: false } });
    expect(off.body.blacklisted).toBe(false);
    expect(await blacklistSent()).toEqual(['person-3']);

    expect((await api(server, 'DELETE', `faces/${uploaded}`, { token: other })).status).toBe(404);
    expect((await api(server, 'DELETE', `faces/${uploaded}`, { token: owner })).status).toBe(200);
    expect((await api(server, 'DELETE', `faces/${uploaded}`, { token: owner })).status).toBe(404);
  });

  it('lists the people seen (one recent event each, snapshot first) and every identity with its count', async () => {
    const seen = await api(server, 'GET', 'faces/seen', { token: owner });
    expect(seen.status).toBe(200);
    const ids = seen.body.identities.map((i: { identity: string }) => i.identity).sort();
    expect(ids).toEqual(['person-3', 'person-5']);
    const p3 = seen.body.events.find((e: { identity: string }) => e.identity === 'person-3');
    expect(p3.snapshot_url).toMatch(/^\/api\/event-media\//);
    expect(seen.body.events).toHaveLength(2);
    expect((await api(server, 'GET', 'faces/seen', { token: other })).body).toEqual({
      events: [],
      identities: [],
    });
  });

  it('lists the face alarms’ events with the gallery label, filtered by person, paged', async () => {
    await postEvent(faceAlarm, 'person-3');
    await postEvent(faceAlarm, 'person-5', false);
    const all = await api(server, 'GET', 'faces/alarm-events', { token: owner });
    expect(all.status).toBe(200);
    // Only the face alarm's events, newest first; person-5 is not in the gallery any more.
    expect(
      all.body.events.map((e: { identity: string; label: string | null }) => [e.identity, e.label]),
    ).toEqual([
      ['person-5', null],
      ['person-3', 'Mallory'],
    ]);
    expect(all.body.events[1]).toMatchObject({
      alarm_name: 'Blacklist',
      device_label: 'Face box',
      reviewed: false,
    });
    const one = await api(server, 'GET', 'faces/alarm-events?identity=person-3&limit=1', { token: owner });
    expect(one.body.events).toHaveLength(1);
    expect(one.body.next).toBeNull();
    const paged = await api(server, 'GET', 'faces/alarm-events?limit=1', { token: owner });
    expect(paged.body.next).not.toBeNull();
    const next = await api(
      server,
      'GET',
      `faces/alarm-events?limit=1&before_at=${encodeURIComponent(paged.body.next.before_at)}&before_id=${paged.body.next.before_id}`,
      { token: owner },
    );
    expect(next.body.events[0].identity).toBe('person-3');
    expect((await api(server, 'GET', 'faces/alarm-events?limit=0', { token: owner })).status).toBe(400);
    expect((await api(server, 'GET', 'faces/alarm-events', { token: other })).body.events).toEqual([]);
  });
});
