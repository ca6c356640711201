/**
 * Saved camera page (issue 3: the layout survives a reload and a new sign-in; §2, §3 Camera layout cell, §9)
 * and IP cameras as the console and the agents see them (§3 IP camera, §7 ip-cameras, agent-facing
 * device/ip-cameras), plus a stream limit set by the seed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from './helpers';

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
