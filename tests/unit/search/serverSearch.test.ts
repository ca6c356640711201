/**
 * Quick search on the server (src/server/routes/search.ts; spec §5 minimum 2 characters): the caller's
 * devices (label or device_id), cameras of their devices, IP cameras and groups, never another user's; LIKE
 * wildcards match literally; short or missing queries are refused with a coded 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let other: string;
let gate = '';

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'owner@search.test', password: 'owner-pass-1' });
  const b = await server.seed.ensureUser({ email: 'other@search.test', password: 'other-pass-1' });
  const device = await server.seed.ensureDevice({
    ownerId: a.id,
    label: 'Loading dock gate',
    chipsetId: '0',
  });
  gate = device.device_id;
  await server.seed.ensureDevice({ ownerId: a.id, label: '100% uptime box', chipsetId: '7' });
  await server.seed.ensureDevice({ ownerId: b.id, label: 'Loading bay (not yours)', chipsetId: '0' });
  await server.seed.ensureIpCamera({
    ownerId: a.id,
    deviceRowId: device.id,
    label: 'Dock entrance',
    url: 'sim://dock',
  });
  const deviceToken = await server.seed.issueDeviceToken(device.id);
  const reg = await api(server, 'POST', 'device/register-cameras', {
    token: deviceToken,
    body: { cameras: [{ camera_id: 'cam-1', name: 'Dock overview', unique_id: 'u-1' }] },
  });
  expect(reg.status).toBe(200);
  owner = (await login(server, 'owner@search.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@search.test', 'other-pass-1')).token;
}, 60_000);
afterAll(() => server?.dispose());

const search = (q: string, token = owner) =>
  api(server, 'GET', `search?q=${encodeURIComponent(q)}`, { token });

describe('quick search', () => {
  it("finds the caller's devices, their cameras and IP cameras, each with where it opens", async () => {
    const res = await search('dock');
    expect(res.status).toBe(200);
    expect(res.body.hits).toEqual([
      {
        kind: 'device',
        id: gate,
        label: 'Loading dock gate',
        detail: gate,
        link: `/control-panel/devices?device=${gate}`,
      },
      expect.objectContaining({ kind: 'camera', label: 'Dock overview', detail: 'Loading dock gate' }),
      expect.objectContaining({ kind: 'ipCamera', label: 'Dock entrance', detail: 'Loading dock gate' }),
    ]);
    // By device id too.
    expect((await search(gate)).body.hits.map((h: { id: string }) => h.id)).toContain(gate);
  });

  it("never shows another user's things, and matches % literally", async () => {
    expect((await search('loading', other)).body.hits.map((h: { label: string }) => h.label)).toEqual([
      'Loading bay (not yours)',
    ]);
    expect((await search('100%')).body.hits.map((h: { label: string }) => h.label)).toEqual([
      '100% uptime box',
    ]);
    expect((await search('0%')).body.hits.map((h: { label: string }) => h.label)).toEqual([
      '100% uptime box',
    ]);
    expect((await search('%%')).body.hits).toEqual([]);
  });

  it("finds the caller's device and camera groups, each opening the list filtered by it", async () => {
    const made: Record<string, string> = {};
    for (const [name, type, token] of [
      ['Harbour devices', 'device', owner],
      ['Harbour cameras', 'camera', owner],
      ['Harbour (not yours)', 'device', other],
    ] as const) {
      const res = await api(server, 'POST', 'groups', { token, body: { name, group_type: type } });
      expect(res.status).toBe(200);
      made[name] = res.body.group.id;
    }
    expect((await search('harbour')).body.hits).toEqual([
      {
        kind: 'group',
        id: made['Harbour cameras'],
        label: 'Harbour cameras',
        detail: 'camera',
        link: `/control-panel/cameras?group=${made['Harbour cameras']}`,
      },
      {
        kind: 'group',
        id: made['Harbour devices'],
        label: 'Harbour devices',
        detail: 'device',
        link: `/control-panel/devices?group=${made['Harbour devices']}`,
      },
    ]);
  });

  it('refuses fewer than 2 characters (§5) and a signed-out caller', async () => {
    for (const q of ['d', '  d ', '']) {
      const res = await search(q);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: expect.any(String), message: expect.stringContaining('q') });
    }
    expect((await api(server, 'GET', 'search?q=dock')).status).toBe(401);
  });
});
