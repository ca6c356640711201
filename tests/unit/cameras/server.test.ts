/**
 * Saved camera page (issue 3: the layout survives a reload and a new sign-in; §2, §3 Camera layout cell, §9)
 * and IP cameras as the console and the agents see them (§3 IP camera, §7 ip-cameras, agent-facing
 * device/ip-cameras), plus a stream limit set by the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let alice: { token: string; id: string };
let bob: { token: string; id: string };
let gate: { id: string; device_id: string };
let yard: { id: string; device_id: string };
let bobBox: { id: string; device_id: string };

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'alice@example.com', password: 'alice-pw-1' });
  const b = await server.seed.ensureUser({ email: 'bob@example.com', password: 'bob-pw-1' });
  gate = await server.seed.ensureDevice({ ownerId: a.id, label: 'Gate', chipsetId: '0' });
  yard = await server.seed.ensureDevice({ ownerId: a.id, label: 'Yard', chipsetId: '23' });
  bobBox = await server.seed.ensureDevice({ ownerId: b.id, label: 'Bob box', chipsetId: '0' });
  alice = { token: (await login(server, 'alice@example.com', 'alice-pw-1')).token, id: a.id };
  bob = { token: (await login(server, 'bob@example.com', 'bob-pw-1')).token, id: b.id };
});
afterAll(async () => {
  await server?.dispose();
});

const stream = (deviceId: string, cameraId: string, page = 0, x = 0) => ({
  key: `${deviceId}:${cameraId}`,
  deviceId,
  cameraId,
  page,
  cell: { i: `${deviceId}:${cameraId}`, x, y: 0, w: 3, h: 6 },
  resolution: { pixel_format: 'I420', width: 640, height: 480, fps: 30 },
});

describe('camera-layout', () => {
  it('is empty before the first save', async () => {
    const res = await api(server, 'GET', 'camera-layout', { token: alice.token });
    expect(res).toEqual({ status: 200, body: { streams: [], updated_at: null } });
  });

  it('saves the layout and gives it back after a new sign-in', async () => {
    const streams = [stream(gate.device_id, 'cam-1'), stream(yard.device_id, 'cam-2', 1, 3)];
    const put = await api(server, 'PUT', 'camera-layout', { token: alice.token, body: { streams } });
    expect(put.status).toBe(200);
    expect(put.body.streams).toEqual(streams);
    expect(new Date(put.body.updated_at).getTime()).toBeGreaterThan(0);

    const again = await login(server, 'alice@example.com', 'alice-pw-1');
    const res = await api(server, 'GET', 'camera-layout', { token: again.token });
    expect(res.body).toEqual({ streams, updated_at: put.body.updated_at });
  });

  it('replaces the whole layout on every save, and an empty list clears it', async () => {
    const one = [stream(gate.device_id, 'cam-2')];
    await api(server, 'PUT', 'camera-layout', { token: alice.token, body: { streams: one } });
    expect((await api(server, 'GET', 'camera-layout', { token: alice.token })).body.streams).toEqual(one);
    await api(server, 'PUT', 'camera-layout', { token: alice.token, body: { streams: [] } });
    expect((await api(server, 'GET', 'camera-layout', { token: alice.token })).body.streams).toEqual([]);
  });

  it('keeps each user’s layout apart', async () => {
    await api(server, 'PUT', 'camera-layout', {
      token: alice.token,
      body: { streams: [stream(gate.device_id, 'cam-1')] },
    });
    expect((await api(server, 'GET', 'camera-layout', { token: bob.token })).body.streams).toEqual([]);
  });

  it('refuses a stream on another user’s device with 400 and keeps the saved layout', async () => {
    const res = await api(server, 'PUT', 'camera-layout', {
      token: alice.token,
      body: { streams: [stream(bobBox.device_id, 'cam-1')] },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      code: 'Validation_error',
      message: expect.stringContaining(`device ${bobBox.device_id} is not one of your devices`),
    });
    expect((await api(server, 'GET', 'camera-layout', { token: alice.token })).body.streams).toEqual([
      stream(gate.device_id, 'cam-1'),
    ]);
  });

  it('refuses malformed layouts with a message naming the problem', async () => {
    const bad = async (body: unknown, text: RegExp) => {
      const res = await api(server, 'PUT', 'camera-layout', { token: alice.token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('Validation_error');
      expect(res.body.message).toMatch(text);
    };
    await bad({}, /body\.streams/);
    await bad({ streams: [{ ...stream(gate.device_id, 'cam-1'), page: -1 }] }, /body\.streams\.0\.page/);
    await bad(
      { streams: [{ ...stream(gate.device_id, 'cam-1'), cell: { i: 'a', x: 0, y: 0, w: 13, h: 6 } }] },
      /cell\.w/,
    );
    await bad({ streams: [stream(gate.device_id, 'cam-1', 0, 10)] }, /x \+ w must not exceed 12/);
    await bad({ streams: [stream(gate.device_id, 'cam-1'), stream(gate.device_id, 'cam-1', 1)] }, /twice/);
    const thirteen = Array.from({ length: 13 }, (_, n) => stream(gate.device_id, `cam-${n}`));
    await bad({ streams: thirteen }, /page 0 holds more than 12 streams/);
  });

  it('requires a signed-in user', async () => {
    expect((await api(server, 'GET', 'camera-layout')).status).toBe(401);
    expect((await api(server, 'PUT', 'camera-layout', { body: { streams: [] } })).status).toBe(401);
  });
});

describe('IP cameras', () => {
  let parking: { id: string };
  let gateToken: string;
  let yardToken: string;

  beforeAll(async () => {
    parking = await server.seed.ensureIpCamera({
      ownerId: alice.id,
      deviceRowId: gate.id,
      label: 'Parking entrance (IP)',
      url: 'sim://parking',
    });
    await server.seed.ensureIpCamera({
      ownerId: alice.id,
      deviceRowId: yard.id,
      label: 'Yard mast',
      url: 'rtsp://user:pw@10.0.0.5/stream1',
    });
    await server.seed.ensureIpCamera({
      ownerId: alice.id,
      deviceRowId: null,
      label: 'Orphan',
      url: 'sim://x',
    });
    await server.seed.ensureIpCamera({
      ownerId: bob.id,
      deviceRowId: bobBox.id,
      label: 'Bob cam',
      url: 'sim://bob',
    });
    gateToken = await server.seed.issueDeviceToken(gate.id);
    yardToken = await server.seed.issueDeviceToken(yard.id);
  });

  it('lists the owner’s IP cameras with the device_id of the device that reaches them', async () => {
    const res = await api(server, 'GET', 'ip-cameras', { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.body.data.data).toEqual([
      {
        id: expect.any(String),
        label: 'Orphan',
        url: 'sim://x',
        camera_type: 'ip',
        deviceId: null,
        group_id: null,
      },
      {
        id: parking.id,
        label: 'Parking entrance (IP)',
        url: 'sim://parking',
        camera_type: 'ip',
        deviceId: gate.device_id,
        group_id: null,
      },
      expect.objectContaining({ label: 'Yard mast', deviceId: yard.device_id }),
    ]);
    const bobs = await api(server, 'GET', 'ip-cameras', { token: bob.token });
    expect(bobs.body.data.data.map((c: { label: string }) => c.label)).toEqual(['Bob cam']);
  });

  it('seeding the same label again updates the camera instead of adding one', async () => {
    const again = await server.seed.ensureIpCamera({
      ownerId: alice.id,
      deviceRowId: gate.id,
      label: 'Parking entrance (IP)',
      url: 'sim://parking',
    });
    expect(again.id).toBe(parking.id);
    const res = await api(server, 'GET', 'ip-cameras', { token: alice.token });
    expect(res.body.data.data).toHaveLength(3);
  });

  it('refuses to seed a camera reached through another user’s device', async () => {
    await expect(
      server.seed.ensureIpCamera({
        ownerId: alice.id,
        deviceRowId: bobBox.id,
        label: 'Sneaky',
        url: 'sim://s',
      }),
    ).rejects.toThrow(/not a device of user/);
  });

  it('gives each agent only the IP cameras it reaches (device/ip-cameras)', async () => {
    const mine = await api(server, 'GET', 'device/ip-cameras', { token: gateToken });
    expect(mine).toEqual({
      status: 200,
      body: {
        cameras: [
          {
            id: parking.id,
            label: 'Parking entrance (IP)',
            url: 'sim://parking',
            username: null,
            password: null,
          },
        ],
      },
    });
    const yards = await api(server, 'GET', 'device/ip-cameras', { token: yardToken });
    expect(yards.body.cameras.map((c: { label: string }) => c.label)).toEqual(['Yard mast']);
  });

  it("hands a camera's credentials, unsealed, to the device that reaches it and to no other", async () => {
    const added = await api(server, 'POST', 'ip-cameras', {
      token: alice.token,
      body: {
        label: 'Loading bay (auth)',
        url: 'rtsp://10.0.0.9/stream1',
        device_id: gate.device_id,
        username: 'viewer',
        password: 'b4y-secret',
      },
    });
    expect(added.status).toBe(200);
    expect(JSON.stringify(added.body)).not.toContain('b4y-secret');
    const mine = await api(server, 'GET', 'device/ip-cameras', { token: gateToken });
    expect(mine.body.cameras).toContainEqual({
      id: added.body.camera.id,
      label: 'Loading bay (auth)',
      url: 'rtsp://10.0.0.9/stream1',
      username: 'viewer',
      password: 'b4y-secret',
    });
    const yards = await api(server, 'GET', 'device/ip-cameras', { token: yardToken });
    expect(JSON.stringify(yards.body)).not.toContain('b4y-secret');
    await api(server, 'DELETE', `ip-cameras/${added.body.camera.id}`, { token: alice.token });
  });

  it('refuses device/ip-cameras without a device token (a user token is not one)', async () => {
    expect((await api(server, 'GET', 'device/ip-cameras')).status).toBe(401);
    expect((await api(server, 'GET', 'device/ip-cameras', { token: alice.token })).status).toBe(401);
  });
});

describe('stream limit set by the seed', () => {
  it('makes check_stream_limit refuse more streams than the limit', async () => {
    const check = (n: number) =>
      api(server, 'GET', `usage/check_stream_limit?deviceId=${yard.device_id}&numOfCameras=${n}`, {
        token: alice.token,
      });
    expect((await check(2)).body).toEqual({ is_quota_available: true });
    await server.seed.setStreamLimit(yard.id, 1);
    expect((await check(1)).body).toEqual({ is_quota_available: true });
    expect((await check(2)).body).toEqual({ is_quota_available: false });
    await server.seed.setStreamLimit(yard.id, 0);
    expect((await check(1)).body).toEqual({ is_quota_available: false });
    const all = await api(server, 'GET', 'usage/all_stream_limits', { token: alice.token });
    expect(all.body.stream_limits).toContainEqual({ deviceId: yard.device_id, max_streams: 0 });
    await expect(server.seed.setStreamLimit(yard.id, -1)).rejects.toThrow(/non-negative/);
  });
});
