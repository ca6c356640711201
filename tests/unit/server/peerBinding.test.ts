/**
 * Issue 15 on the device-link contracts: sizes bounded (device-grant's browser_id as get_browser_token's, a
 * 1 MB one refused with a clear 400), every grant single-use (a distinct jti), and a browser peer id bound to
 * the user who registered it: another user can neither get a token or a grant for it nor take its socket over.
 */
import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, openPeerSocket, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let alice: string;
let bob: string;
let aliceDevice: string;
let bobDevice: string;
const PEER = 'web-alicepeer00000001';

beforeAll(async () => {
  server = await startTestServer();
  const a = await server.seed.ensureUser({ email: 'alice@bind.test', password: 'alice-pw-1' });
  const b = await server.seed.ensureUser({ email: 'bob@bind.test', password: 'bob-pw-1' });
  aliceDevice = (
    await server.seed.ensureDevice({ ownerId: a.id, label: 'A box', chipsetId: '23', jetpack: '6.0' })
  ).device_id;
  bobDevice = (
    await server.seed.ensureDevice({ ownerId: b.id, label: 'B box', chipsetId: '23', jetpack: '6.0' })
  ).device_id;
  alice = (await login(server, 'alice@bind.test', 'alice-pw-1')).token;
  bob = (await login(server, 'bob@bind.test', 'bob-pw-1')).token;
});
afterAll(async () => {
  await server?.dispose();
});

const grant = (token: string, device_id: string, browser_id: string) =>
  api(server, 'POST', 'device-grant', { token, body: { device_id, browser_id } });

describe('sizes', () => {
  it('refuses a 1 MB browser_id on device-grant with a clear 400 and signs nothing', async () => {
    const res = await grant(alice, aliceDevice, 'w'.repeat(1_000_000));
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('Validation_error');
    expect(typeof res.body.message).toBe('string');
    expect(res.body.grant).toBeUndefined();
  });

  it('bounds browser_id on device-grant like get_browser_token (8–64 of A–Z a–z 0–9 _ -)', async () => {
    for (const id of ['short', 'w'.repeat(65), 'web-with space00', 'web-<script>0000']) {
      const res = await grant(alice, aliceDevice, id);
      expect(res.status, id).toBe(400);
      expect(res.body.message).toContain('browser_id');
    }
    expect((await grant(alice, aliceDevice, 'w'.repeat(64))).status).toBe(200);
  });
});

describe('grants', () => {
  it('carries a new jti in every grant, so the agent can take each once', async () => {
    const jwks = createLocalJWKSet((await api(server, 'GET', '.well-known/jwks.json')).body);
    const jtis = new Set<string>();
    for (let i = 0; i < 3; i++) {
      const res = await grant(alice, aliceDevice, 'web-grantpeer0000001');
      expect(res.status).toBe(200);
      const { payload } = await jwtVerify(res.body.grant, jwks);
      expect(payload.jti).toMatch(/^[0-9a-f-]{36}$/);
      jtis.add(payload.jti!);
    }
    expect(jtis.size).toBe(3);
  });
});

describe('a browser peer id is bound to its user', () => {
  it("refuses another user's token, grant and socket for a registered peer id; frees it when it leaves", async () => {
    const token = (
      await api(server, 'POST', 'get_browser_token', { token: alice, body: { browser_id: PEER } })
    ).body.token as string;
    const open = await openPeerSocket(server, PEER, token);
    expect(open.opened && open.first).toEqual({ type: 'OPEN' });

    const bobToken = await api(server, 'POST', 'get_browser_token', {
      token: bob,
      body: { browser_id: PEER },
    });
    expect(bobToken).toEqual({
      status: 409,
      body: { code: 'Peer_id_taken', message: 'This browser peer id is registered by another user.' },
    });
    const bobGrant = await grant(bob, bobDevice, PEER);
    expect(bobGrant.status).toBe(409);
    expect(bobGrant.body.code).toBe('Peer_id_taken');
    // Alice herself still gets both.
    expect((await grant(alice, aliceDevice, PEER)).status).toBe(200);
    expect(
      (await api(server, 'POST', 'get_browser_token', { token: alice, body: { browser_id: PEER } })).status,
    ).toBe(200);

    // A browser token Bob got earlier for the same id (before Alice registered) cannot take the socket over.
    const other = 'web-bobearlier000001';
    const bobEarly = (
      await api(server, 'POST', 'get_browser_token', { token: bob, body: { browser_id: other } })
    ).body.token as string;
    const aliceOnOther = (
      await api(server, 'POST', 'get_browser_token', { token: alice, body: { browser_id: other } })
    ).body.token as string;
    const aliceOpen = await openPeerSocket(server, other, aliceOnOther);
    expect(aliceOpen.opened).toBe(true);
    expect(await openPeerSocket(server, other, bobEarly)).toEqual({ opened: false, status: 409 });

    if (open.opened) {
      const closed = new Promise((r) => open.socket.on('close', r));
      open.socket.close();
      await closed;
    }
    if (aliceOpen.opened) aliceOpen.socket.close();
    // Once Alice's peer has left, the id is free again.
    let status = 0;
    for (let i = 0; i < 50 && status !== 200; i++) {
      status = (await api(server, 'POST', 'get_browser_token', { token: bob, body: { browser_id: PEER } }))
        .status;
      if (status !== 200) await new Promise((r) => setTimeout(r, 100));
    }
    expect(status).toBe(200);
  });
});
