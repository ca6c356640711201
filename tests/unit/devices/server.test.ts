/**
 * Devices, groups, cameras and stream limits (spec §3, §7, §9) — and that a user never lists, sees or
 * reaches another user's devices.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let alice: { token: string; id: string };
let bob: { token: string; id: string };
const aliceDevices: { id: string; device_id: string; label: string }[] = [];
let bobDevice: { id: string; device_id: string };

const LABELS = ['Gate', 'alpha', 'Dock', 'Lobby', 'Bravo', 'Yard', 'Canteen'];

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'alice@example.com', password: 'alice-pw-1' });
  const b = await server.seed.ensureUser({ email: 'bob@example.com', password: 'bob-pw-1' });
  for (const [i, label] of LABELS.entries()) {
    const d = await server.seed.ensureDevice({
      ownerId: a.id,
      label,
      chipsetId: i % 2 === 0 ? '0' : '23',
      jetpack: i % 2 === 0 ? null : '6.0',
      clientName: label === 'Dock' ? 'harbour-client' : 'edge-client',
    });
    aliceDevices.push({ ...d, label });
  }
  bobDevice = await server.seed.ensureDevice({ ownerId: b.id, label: 'Bob box', chipsetId: '0' });
  alice = { token: (await login(server, 'alice@example.com', 'alice-pw-1')).token, id: a.id };
  bob = { token: (await login(server, 'bob@example.com', 'bob-pw-1')).token, id: b.id };
});
afterAll(async () => {
  await server?.dispose();
});

const labelsOf = (body: { res: { label: string }[] }) => body.res.map((d) => d.label);

describe('GET get_devices/', () => {
  it('defaults to page 1, 5 per page, label ascending (§9) with the total count', async () => {
    const res = await api(server, 'GET', 'get_devices/', { token: alice.token });
    expect(res.status).toBe(200);
    expect(labelsOf(res.body)).toEqual(['alpha', 'Bravo', 'Canteen', 'Dock', 'Gate']);
    expect(res.body.total_items).toBe(7);
    expect(res.body.active_devices_count).toBe(0);
    expect(res.body.res[0]).toMatchObject({
      device_id: expect.stringMatching(/^dev-[0-9a-f]{16}$/),
      is_active: false,
    });
  });

  it('pages and orders descending', async () => {
    const res = await api(server, 'GET', 'get_devices/?per_page=3&page=2&order_by=label&order_as=desc', {
      token: alice.token,
    });
    expect(labelsOf(res.body)).toEqual(['Dock', 'Canteen', 'Bravo']);
    const last = await api(server, 'GET', 'get_devices/?per_page=3&page=3&order_as=desc', {
      token: alice.token,
    });
    expect(labelsOf(last.body)).toEqual(['alpha']);
  });

  it('searches label, client name and device id, case-insensitively', async () => {
    expect(
      labelsOf((await api(server, 'GET', 'get_devices/?search=BRA', { token: alice.token })).body),
    ).toEqual(['Bravo']);
    expect(
      labelsOf((await api(server, 'GET', 'get_devices/?search=harbour', { token: alice.token })).body),
    ).toEqual(['Dock']);
    const byId = await api(server, 'GET', `get_devices/?search=${aliceDevices[5]!.device_id}`, {
      token: alice.token,
    });
    expect(labelsOf(byId.body)).toEqual(['Yard']);
    const wildcard = await api(server, 'GET', 'get_devices/?search=%25', { token: alice.token });
    expect(wildcard.body.total_items).toBe(0);
  });

  it('never lists another user’s devices, not even by searching their id', async () => {
    const res = await api(server, 'GET', `get_devices/?search=${bobDevice.device_id}`, {
      token: alice.token,
    });
    expect(res.body).toMatchObject({ res: [], total_items: 0 });
    const own = await api(server, 'GET', 'get_devices/', { token: bob.token });
    expect(labelsOf(own.body)).toEqual(['Bob box']);
  });

  it('filters by device group, including its sub-groups', async () => {
    await server.seed.ensureGroups(alice.id);
    const groups = await api(server, 'GET', 'groups?group_type=device', { token: alice.token });
    const hq = groups.body.groups.find((g: { name: string }) => g.name === 'Headquarters');
    expect(hq.children.map((c: { name: string }) => c.name)).toEqual(['Lab', 'Warehouse']);
    const none = await api(server, 'GET', `get_devices/?group_id=${hq.id}`, { token: alice.token });
    expect(none.body.total_items).toBe(0);
    // Bob cannot use Alice's group id to see anything.
    expect(
      (await api(server, 'GET', `get_devices/?group_id=${hq.id}`, { token: bob.token })).body.total_items,
    ).toBe(0);
  });

  it('answers 400 Validation_error for an invalid query', async () => {
    const res = await api(server, 'GET', 'get_devices/?per_page=0&order_by=password', { token: alice.token });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('Validation_error');
    expect(res.body.message).toMatch(/per_page/);
  });
});

describe('another user’s device is out of reach', () => {
  it('cannot be deleted', async () => {
    const res = await api(server, 'DELETE', 'device', {
      token: alice.token,
      body: { ids: [bobDevice.id, bobDevice.device_id] },
    });
    expect(res.status).toBe(404);
    expect((await api(server, 'GET', 'get_devices/', { token: bob.token })).body.total_items).toBe(1);
  });

  it('gets no device token', async () => {
    for (const id of [bobDevice.id, bobDevice.device_id]) {
      expect((await api(server, 'POST', 'generate_token', { token: alice.token, body: { id } })).status).toBe(
        404,
      );
    }
  });

  it('gets no grant', async () => {
    const res = await api(server, 'POST', 'device-grant', {
      token: alice.token,
      body: { device_id: bobDevice.device_id, browser_id: 'web-aaaaaaaaaaaaaaaa' },
    });
    expect(res).toMatchObject({ status: 404, body: { code: 'Not_found' } });
  });

  it('cannot be presence-queried', async () => {
    expect(
      (await api(server, 'GET', `peerjs/peerjs/${bobDevice.device_id}`, { token: alice.token })).status,
    ).toBe(404);
    expect(
      (await api(server, 'GET', `check/peerjs/${bobDevice.device_id}`, { token: alice.token })).status,
    ).toBe(404);
  });

  it('has no stream limit for them', async () => {
    const res = await api(
      server,
      'GET',
      `usage/check_stream_limit?deviceId=${bobDevice.device_id}&numOfCameras=1`,
      { token: alice.token },
    );
    expect(res.status).toBe(404);
  });
});

describe('own devices', () => {
  it('answers presence for an own device that is offline', async () => {
    const d = aliceDevices[0]!;
    expect((await api(server, 'GET', `peerjs/peerjs/${d.device_id}`, { token: alice.token })).body).toEqual({
      isOnline: false,
    });
    expect((await api(server, 'GET', `check/peerjs/${d.device_id}`, { token: alice.token })).body).toEqual({
      exist: false,
    });
    expect((await api(server, 'GET', 'get-online-devices', { token: alice.token })).body).toEqual({
      onlineDevices: [],
      ok: true,
      message: '',
    });
  });

  it('checks the stream quota against the device limit (16 by default)', async () => {
    const d = aliceDevices[1]!;
    const ok = await api(server, 'GET', `usage/check_stream_limit?deviceId=${d.device_id}&numOfCameras=16`, {
      token: alice.token,
    });
    expect(ok.body).toEqual({ is_quota_available: true });
    const over = await api(server, 'GET', `usage/check_stream_limit?deviceId=${d.id}&numOfCameras=17`, {
      token: alice.token,
    });
    expect(over.body).toEqual({ is_quota_available: false });
    const all = await api(server, 'GET', 'usage/all_stream_limits', { token: alice.token });
    expect(all.body.stream_limits).toHaveLength(7);
    expect(all.body.stream_limits[0]).toEqual({ deviceId: expect.any(String), max_streams: 16 });
  });

  it('generate_token rotates the device token: only the newest one is accepted', async () => {
    const d = aliceDevices[2]!;
    const first = await api(server, 'POST', 'generate_token', { token: alice.token, body: { id: d.id } });
    expect(first.status).toBe(200);
    const oldToken = first.body.result.access_token;
    const me = await api(server, 'GET', 'device/me', { token: oldToken });
    expect(me.body).toEqual({
      device_id: d.device_id,
      label: d.label,
      chipset_id: '0',
      jetpack: null,
      max_streams: 16,
    });
    const second = await api(server, 'POST', 'generate_token', {
      token: alice.token,
      body: { id: d.device_id },
    });
    expect((await api(server, 'GET', 'device/me', { token: second.body.result.access_token })).status).toBe(
      200,
    );
    expect((await api(server, 'GET', 'device/me', { token: oldToken })).body.code).toBe('invalid_token');
  });

  it('registers physical cameras for the device and lists them for the owner only', async () => {
    const d = aliceDevices[3]!;
    const deviceToken = await server.seed.issueDeviceToken(d.id);
    const cams = [
      { camera_id: '0', name: 'Front', unique_id: 'usb-1' },
      { camera_id: '1', name: 'Back', unique_id: 'usb-2' },
    ];
    expect(
      (await api(server, 'POST', 'device/register-cameras', { token: deviceToken, body: { cameras: cams } }))
        .body,
    ).toEqual({ ok: true });
    // Reported again without camera 1 and with a new name for camera 0: camera 1 is gone.
    await api(server, 'POST', 'device/register-cameras', {
      token: deviceToken,
      body: { cameras: [{ camera_id: '0', name: 'Front door', unique_id: 'usb-1' }] },
    });
    const list = await api(server, 'GET', 'physical-cameras', { token: alice.token });
    expect(list.body.data.data).toEqual([
      expect.objectContaining({
        camera_id: '0',
        name: 'Front door',
        label: 'Front door',
        device_id: d.device_id,
        camera_type: 'physical',
      }),
    ]);
    expect((await api(server, 'GET', 'physical-cameras', { token: bob.token })).body.data.data).toEqual([]);
    expect((await api(server, 'GET', 'ip-cameras', { token: alice.token })).body).toEqual({
      data: { data: [] },
    });
  });

  it('agent routes refuse a user access token', async () => {
    expect((await api(server, 'GET', 'device/me', { token: alice.token })).status).toBe(401);
  });

  it('ice-servers answers [] for a user and for a device', async () => {
    expect((await api(server, 'GET', 'ice-servers', { token: alice.token })).body).toEqual({ servers: [] });
    const deviceToken = await server.seed.issueDeviceToken(aliceDevices[4]!.id);
    expect((await api(server, 'GET', `ice-servers?deviceId=x`, { token: deviceToken })).body).toEqual({
      servers: [],
    });
  });

  it('deletes own devices and revokes their token', async () => {
    const d = aliceDevices[6]!;
    const deviceToken = await server.seed.issueDeviceToken(d.id);
    const res = await api(server, 'DELETE', 'device', { token: alice.token, body: { ids: [d.id] } });
    expect(res.body).toEqual({ ok: true, deleted: 1 });
    expect((await api(server, 'GET', 'device/me', { token: deviceToken })).status).toBe(401);
    expect((await api(server, 'GET', 'get_devices/', { token: alice.token })).body.total_items).toBe(6);
  });
});
