/**
 * IP cameras on the server (src/server/routes/ipCameras.ts; issue 16 §2 IP cameras; §7 ip-cameras,
 * remove-ip-camera): add, edit, remove, scoped to the caller; the password is sealed in the database and never
 * returned to a browser; bad input is a coded 4xx that changes nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let other: string;
let gateId = '';
let gateToken = '';
let yardId = '';
let strangerDeviceId = '';

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'owner@ipcam.test', password: 'owner-pass-1' });
  const b = await server.seed.ensureUser({ email: 'other@ipcam.test', password: 'other-pass-1' });
  const gate = await server.seed.ensureDevice({ ownerId: a.id, label: 'Gate', chipsetId: '0' });
  gateId = gate.device_id;
  gateToken = await server.seed.issueDeviceToken(gate.id);
  yardId = (await server.seed.ensureDevice({ ownerId: a.id, label: 'Yard', chipsetId: '0' })).device_id;
  strangerDeviceId = (await server.seed.ensureDevice({ ownerId: b.id, label: 'Theirs', chipsetId: '0' }))
    .device_id;
  owner = (await login(server, 'owner@ipcam.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@ipcam.test', 'other-pass-1')).token;
}, 60_000);
afterAll(() => server?.dispose());

const add = (body: unknown, token = owner) => api(server, 'POST', 'ip-cameras', { token, body });
const list = (token = owner) => api(server, 'GET', 'ip-cameras/manage', { token });

describe('IP cameras', () => {
  let doorId = '';

  it('adds a camera with credentials: the password is sealed and never returned', async () => {
    const r = await add({
      label: ' Door ',
      url: 'http://10.0.0.5/snapshot.jpg',
      device_id: gateId,
      username: 'admin',
      password: 's3cret-pass',
    });
    expect(r.status).toBe(200);
    expect(r.body.camera).toMatchObject({
      label: 'Door',
      url: 'http://10.0.0.5/snapshot.jpg',
      device_id: gateId,
      device_label: 'Gate',
      username: 'admin',
      has_password: true,
    });
    expect(JSON.stringify(r.body)).not.toContain('s3cret-pass');
    doorId = r.body.camera.id;
    const l = await list();
    expect(JSON.stringify(l.body)).not.toContain('s3cret-pass');
    // Only the device that reaches the camera gets the password (unsealed for it).
    const forDevice = await api(server, 'GET', 'device/ip-cameras', { token: gateToken });
    expect(forDevice.body.cameras).toEqual([
      expect.objectContaining({ id: doorId, username: 'admin', password: 's3cret-pass' }),
    ]);
    const cams = await api(server, 'GET', 'ip-cameras', { token: owner });
    expect(JSON.stringify(cams.body)).not.toContain('s3cret-pass');
    expect(cams.body.data.data).toEqual([expect.objectContaining({ id: doorId, deviceId: gateId })]);
  });

  it('refuses bad input with a clear 4xx and changes nothing', async () => {
    const bad = [
      { label: 'X', url: 'ftp://cam', device_id: gateId },
      { label: 'X', url: 'http://admin:pw@cam/snap.jpg', device_id: gateId },
      { label: '', url: 'sim://x', device_id: gateId },
    ];
    for (const body of bad) expect((await add(body)).status).toBe(400);
    const theirs = await add({ label: 'X', url: 'sim://x', device_id: strangerDeviceId });
    expect(theirs.body).toEqual({ code: 'Not_found', message: 'Device not found.' });
    const dup = await add({ label: 'Door', url: 'sim://door', device_id: gateId });
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe('An IP camera with this name already exists.');
    expect((await list()).body.cameras).toHaveLength(1);
  });

  it('edits: a missing password keeps the stored one, null removes it, another device reaches it', async () => {
    const keep = await api(server, 'PUT', `ip-cameras/${doorId}`, {
      token: owner,
      body: { label: 'Front door', url: 'sim://door', device_id: yardId, username: 'admin' },
    });
    expect(keep.status).toBe(200);
    expect(keep.body.camera).toMatchObject({ label: 'Front door', device_label: 'Yard', has_password: true });
    const drop = await api(server, 'PUT', `ip-cameras/${doorId}`, {
      token: owner,
      body: { label: 'Front door', url: 'sim://door', device_id: yardId, username: '', password: null },
    });
    expect(drop.body.camera).toMatchObject({ username: null, has_password: false });
  });

  it('another user can neither see, edit nor remove it', async () => {
    expect((await list(other)).body.cameras).toEqual([]);
    const put = await api(server, 'PUT', `ip-cameras/${doorId}`, {
      token: other,
      body: { label: 'Mine', url: 'sim://door', device_id: strangerDeviceId },
    });
    expect(put.status).toBe(404);
    expect((await api(server, 'DELETE', `ip-cameras/${doorId}`, { token: other })).status).toBe(404);
    expect((await list()).body.cameras).toHaveLength(1);
  });

  it('removes (§7 remove-ip-camera); a second remove is a 404', async () => {
    expect((await api(server, 'DELETE', `ip-cameras/${doorId}`, { token: owner })).body).toEqual({
      ok: true,
    });
    expect((await api(server, 'DELETE', `ip-cameras/${doorId}`, { token: owner })).status).toBe(404);
    expect((await list()).body.cameras).toEqual([]);
  });
});
