/**
 * Groups on the server (src/server/routes/groups.ts; issue 16 §7 groups): create, rename, move (no cycles, same
 * type only), delete with descendants (members become ungrouped), assign devices and cameras; all scoped to
 * the caller; bad input is a coded 4xx and changes nothing. The device list and camera lists filter by group.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let owner: string;
let other: string;
let gateRowId = '';
let gateId = '';
let ipCamId = '';
let physCamId = '';

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'owner@groups.test', password: 'owner-pass-1' });
  await server.seed.ensureUser({ email: 'other@groups.test', password: 'other-pass-1' });
  const gate = await server.seed.ensureDevice({ ownerId: a.id, label: 'Gate', chipsetId: '0' });
  gateRowId = gate.id;
  gateId = gate.device_id;
  await server.seed.ensureDevice({ ownerId: a.id, label: 'Yard', chipsetId: '0' });
  ipCamId = (
    await server.seed.ensureIpCamera({
      ownerId: a.id,
      deviceRowId: gate.id,
      label: 'Door',
      url: 'sim://door',
    })
  ).id;
  const token = await server.seed.issueDeviceToken(gate.id);
  const reg = await api(server, 'POST', 'device/register-cameras', {
    token,
    body: { cameras: [{ camera_id: 'cam-1', name: 'Overview', unique_id: 'u-1' }] },
  });
  expect(reg.status).toBe(200);
  owner = (await login(server, 'owner@groups.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@groups.test', 'other-pass-1')).token;
  const cams = await api(server, 'GET', 'physical-cameras', { token: owner });
  physCamId = cams.body.data.data[0].id;
}, 60_000);
afterAll(() => server?.dispose());

const create = (body: unknown, token = owner) => api(server, 'POST', 'groups', { token, body });
const tree = (type: string, token = owner) => api(server, 'GET', `groups?group_type=${type}`, { token });

describe('groups', () => {
  let site = '';
  let hall = '';

  it('creates a root group and a nested one, listed as a tree', async () => {
    const a = await create({ name: '  Site A ', group_type: 'device' });
    expect(a.status).toBe(200);
    expect(a.body.group).toMatchObject({ name: 'Site A', group_type: 'device', parent_id: null });
    site = a.body.group.id;
    const b = await create({ name: 'Hall', group_type: 'device', parent_id: site });
    expect(b.status).toBe(200);
    hall = b.body.group.id;
    const t = await tree('device');
    expect(t.body.groups).toEqual([
      {
        id: site,
        name: 'Site A',
        group_type: 'device',
        children: [{ id: hall, name: 'Hall', group_type: 'device', children: [] }],
      },
    ]);
  });

  it('refuses a duplicate name, an empty name, a parent of the other type or of another user', async () => {
    expect((await create({ name: 'Site A', group_type: 'device' })).status).toBe(409);
    const empty = await create({ name: '   ', group_type: 'device' });
    expect(empty.status).toBe(400);
    expect(empty.body.code).toBe('Validation_error');
    const cam = await create({ name: 'Cams', group_type: 'camera' });
    expect(cam.status).toBe(200);
    expect((await create({ name: 'X', group_type: 'device', parent_id: cam.body.group.id })).status).toBe(
      400,
    );
    expect((await create({ name: 'X', group_type: 'device', parent_id: site }, other)).status).toBe(404);
    expect((await create({ name: 'X', group_type: 'device', parent_id: 'not-a-uuid' })).status).toBe(404);
  });

  it('renames and moves, refusing cycles with a 409', async () => {
    const renamed = await api(server, 'PUT', `groups/${hall}`, { token: owner, body: { name: 'Hall 1' } });
    expect(renamed.body.group).toMatchObject({ name: 'Hall 1', parent_id: site });
    const cycle = await api(server, 'PUT', `groups/${site}`, { token: owner, body: { parent_id: hall } });
    expect(cycle.status).toBe(409);
    expect(cycle.body.message).toMatch(/cannot be moved into itself/);
    const self = await api(server, 'PUT', `groups/${site}`, { token: owner, body: { parent_id: site } });
    expect(self.status).toBe(409);
    const root = await api(server, 'PUT', `groups/${hall}`, { token: owner, body: { parent_id: null } });
    expect(root.body.group.parent_id).toBeNull();
    const back = await api(server, 'PUT', `groups/${hall}`, { token: owner, body: { parent_id: site } });
    expect(back.body.group.parent_id).toBe(site);
    expect((await api(server, 'PUT', `groups/${hall}`, { token: owner, body: {} })).status).toBe(400);
    expect(
      (await api(server, 'PUT', `groups/${hall}`, { token: other, body: { name: 'Mine' } })).status,
    ).toBe(404);
  });

  it('assigns a device to a nested group; the device list of the parent includes it', async () => {
    const res = await api(server, 'POST', 'groups/assign', {
      token: owner,
      body: { group_type: 'device', group_id: hall, devices: [gateId] },
    });
    expect(res.body).toEqual({ ok: true, assigned: 1 });
    const list = await api(server, 'GET', `get_devices/?per_page=10&group_id=${site}`, { token: owner });
    expect(list.body.res.map((d: { label: string }) => d.label)).toEqual(['Gate']);
    // Another user's device, cameras in a device group, a camera group for devices: refused, nothing changes.
    const wrong = await api(server, 'POST', 'groups/assign', {
      token: other,
      body: { group_type: 'device', group_id: null, devices: [gateRowId] },
    });
    expect(wrong.status).toBe(404);
    const mixed = await api(server, 'POST', 'groups/assign', {
      token: owner,
      body: { group_type: 'device', group_id: hall, ip_cameras: [ipCamId] },
    });
    expect(mixed.status).toBe(400);
    const partly = await api(server, 'POST', 'groups/assign', {
      token: owner,
      body: { group_type: 'device', group_id: null, devices: [gateId, 'no-such-device'] },
    });
    expect(partly.status).toBe(404);
    const still = await api(server, 'GET', `get_devices/?per_page=10&group_id=${hall}`, { token: owner });
    expect(still.body.total_items).toBe(1);
  });

  it('assigns physical and IP cameras to a camera group; the camera lists filter by it', async () => {
    const cams = await create({ name: 'Entrances', group_type: 'camera' });
    const id = cams.body.group.id;
    const res = await api(server, 'POST', 'groups/assign', {
      token: owner,
      body: { group_type: 'camera', group_id: id, ip_cameras: [ipCamId], physical_cameras: [physCamId] },
    });
    expect(res.body).toEqual({ ok: true, assigned: 2 });
    const ip = await api(server, 'GET', `ip-cameras?group_id=${id}`, { token: owner });
    expect(ip.body.data.data.map((c: { label: string }) => c.label)).toEqual(['Door']);
    const phys = await api(server, 'GET', `physical-cameras?group_id=${id}`, { token: owner });
    expect(phys.body.data.data).toHaveLength(1);
    const none = await api(server, 'POST', 'groups/assign', {
      token: owner,
      body: { group_type: 'camera', group_id: null, ip_cameras: [ipCamId] },
    });
    expect(none.body.assigned).toBe(1);
    const after = await api(server, 'GET', `ip-cameras?group_id=${id}`, { token: owner });
    expect(after.body.data.data).toHaveLength(0);
  });

  it('deletes a group with its subgroups; members become ungrouped; another user cannot', async () => {
    expect((await api(server, 'DELETE', `groups/${site}`, { token: other })).status).toBe(404);
    const res = await api(server, 'DELETE', `groups/${site}`, { token: owner });
    expect(res.body).toEqual({ ok: true, deleted: 2 });
    expect((await tree('device')).body.groups).toEqual([]);
    const list = await api(server, 'GET', 'get_devices/?per_page=10', { token: owner });
    const gate = list.body.res.find((d: { label: string }) => d.label === 'Gate');
    expect(gate.group_id).toBeNull();
    expect((await api(server, 'DELETE', `groups/${site}`, { token: owner })).status).toBe(404);
  });
});
