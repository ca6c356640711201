/**
 * PeerJS signalling (team brief "Signalling"): peers are authenticated on the WebSocket upgrade; device
 * presence follows the signalling socket (spec §7 isOnline / exist); grants verify against the JWKS.
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, login, openPeerSocket, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let alice: { token: string; id: string };
let bobToken: string;
let device: { id: string; device_id: string };
let deviceToken: string;
const BROWSER_ID = 'web-abcdefghijklmnop';

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'alice@example.com', password: 'alice-pw-1' });
  await server.seed.ensureUser({ email: 'bob@example.com', password: 'bob-pw-1' });
  device = await server.seed.ensureDevice({
    ownerId: a.id,
    label: 'Jetson 1',
    chipsetId: '23',
    jetpack: '6.0',
  });
  deviceToken = await server.seed.issueDeviceToken(device.id);
  alice = { token: (await login(server, 'alice@example.com', 'alice-pw-1')).token, id: a.id };
  bobToken = (await login(server, 'bob@example.com', 'bob-pw-1')).token;
});
afterAll(async () => {
  await server?.dispose();
});

async function browserToken(token: string, browserId: string): Promise<string> {
  const res = await api(server, 'POST', 'get_browser_token', { token, body: { browser_id: browserId } });
  expect(res.status).toBe(200);
  expect(res.body.servers).toEqual([]);
  return res.body.token;
}

describe('WebSocket upgrade at /peerjs/peerjs', () => {
  it('is refused with 401 without a token', async () => {
    expect(await openPeerSocket(server, BROWSER_ID, null)).toEqual({ opened: false, status: 401 });
  });

  it('is refused with 401 for a wrong or foreign token', async () => {
    expect(await openPeerSocket(server, BROWSER_ID, 'not-a-token')).toEqual({ opened: false, status: 401 });
    // An access token is not a signalling token.
    expect(await openPeerSocket(server, BROWSER_ID, alice.token)).toEqual({ opened: false, status: 401 });
    // A browser token only registers its own browser id.
    const other = await browserToken(alice.token, 'web-someoneelse0000');
    expect(await openPeerSocket(server, BROWSER_ID, other)).toEqual({ opened: false, status: 401 });
    // A device token only registers its own device id.
    expect(await openPeerSocket(server, 'dev-0000000000000000', deviceToken)).toEqual({
      opened: false,
      status: 401,
    });
  });

  it('never hands a browser a device peer id', async () => {
    const res = await api(server, 'POST', 'get_browser_token', {
      token: bobToken,
      body: { browser_id: device.device_id },
    });
    expect(res).toMatchObject({ status: 400, body: { code: 'Validation_error' } });
  });

  it('is accepted for a browser token on its own browser id (PeerJS OPEN)', async () => {
    const token = await browserToken(alice.token, BROWSER_ID);
    const open = await openPeerSocket(server, BROWSER_ID, token);
    expect(open.opened && open.first).toEqual({ type: 'OPEN' });
    if (open.opened) open.socket.close();
  });

  it('is refused for the wrong PeerJS key', async () => {
    const token = await browserToken(alice.token, BROWSER_ID);
    expect(await openPeerSocket(server, BROWSER_ID, token, 'other-key')).toEqual({
      opened: false,
      status: 401,
    });
  });

  it('refuses other WebSocket paths with 404', async () => {
    const { default: WebSocket } = await import('ws');
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}/api/login`);
    const status = await new Promise<number>((resolve) => {
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('error', () => resolve(-1));
    });
    expect(status).toBe(404);
  });
});

describe('device presence', () => {
  it('shows a connected device as online to its owner and offline after it leaves', async () => {
    const open = await openPeerSocket(server, device.device_id, deviceToken);
    expect(open.opened && open.first).toEqual({ type: 'OPEN' });
    const presence = () => api(server, 'GET', `peerjs/peerjs/${device.device_id}`, { token: alice.token });
    expect((await presence()).body).toEqual({ isOnline: true });
    expect(
      (await api(server, 'GET', `check/peerjs/${device.device_id}`, { token: alice.token })).body,
    ).toEqual({ exist: true });
    const list = await api(server, 'GET', 'get_devices/', { token: alice.token });
    expect(list.body).toMatchObject({
      active_devices_count: 1,
      res: [{ device_id: device.device_id, is_active: true }],
    });
    expect(
      (await api(server, 'GET', 'get-online-devices', { token: alice.token })).body.onlineDevices,
    ).toEqual([device.device_id]);
    // Bob still cannot ask about it.
    expect((await api(server, 'GET', `peerjs/peerjs/${device.device_id}`, { token: bobToken })).status).toBe(
      404,
    );

    if (open.opened) open.socket.close();
    await eventually(async () => (await presence()).body.isOnline === false);
  });

  it('takes a device token only in the Authorization header: in the URL it is refused (tokens never in URLs)', async () => {
    expect(await openPeerSocket(server, device.device_id, deviceToken, 'peerjs', 'url')).toEqual({
      opened: false,
      status: 401,
    });
    const open = await openPeerSocket(server, device.device_id, deviceToken);
    expect(open.opened && open.first).toEqual({ type: 'OPEN' });
    if (open.opened) open.socket.close();
    await eventually(
      async () =>
        (await api(server, 'GET', `peerjs/peerjs/${device.device_id}`, { token: alice.token })).body
          .isOnline === false,
    );
  });

  it('drops a device from signalling when its token is replaced, and refuses the old token', async () => {
    const open = await openPeerSocket(server, device.device_id, deviceToken);
    expect(open.opened).toBe(true);
    const closed = open.opened ? new Promise((r) => open.socket.on('close', r)) : Promise.resolve();
    const fresh = await api(server, 'POST', 'generate_token', {
      token: alice.token,
      body: { id: device.device_id },
    });
    await closed;
    expect(await openPeerSocket(server, device.device_id, deviceToken)).toEqual({
      opened: false,
      status: 401,
    });
    const again = await openPeerSocket(server, device.device_id, fresh.body.result.access_token);
    expect(again.opened).toBe(true);
    if (again.opened) again.socket.close();
    deviceToken = fresh.body.result.access_token;
  });
});

describe('POST device-grant', () => {
  it('issues a 60 s grant for an own device that verifies against the JWKS', async () => {
    const res = await api(server, 'POST', 'device-grant', {
      token: alice.token,
      body: { device_id: device.device_id, browser_id: BROWSER_ID },
    });
    expect(res.status).toBe(200);
    const jwks = await api(server, 'GET', '.well-known/jwks.json');
    expect(jwks.body.keys[0]).toMatchObject({ kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA' });
    expect(jwks.body.keys[0].d).toBeUndefined();
    const { payload } = await jwtVerify(res.body.grant, createLocalJWKSet(jwks.body));
    expect(payload).toMatchObject({
      typ: 'grant',
      sub: alice.id,
      device_id: device.device_id,
      browser_id: BROWSER_ID,
    });
    expect(payload.exp! - payload.iat!).toBe(60);
    expect(res.body.expires_at).toBe(payload.exp! * 1000);
  });
});
