/**
 * Accounts: login, rate limit, user-info, refresh rotation, logout, error shapes (spec §4, §5, §7, §8);
 * service routes and production serving of the built console (spec §2 routes, cache headers).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let dist: string;
const PASSWORD = 'correct horse battery';

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'server-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-3f2a1b.js'), 'console.log(1)');
  server = await startTestServer({
    staticDir: dist,
    demoAccount: { email: 'demo@example.com', password: 'demo-password' },
  });
  await server.seed.ensureUser({ email: 'ada@example.com', password: PASSWORD, username: 'ada' });
  await server.seed.ensureUser({ email: 'root@example.com', password: PASSWORD, roles: ['admin', 'user'] });
  await server.seed.ensureUser({ email: 'new@example.com', password: PASSWORD, emailConfirmed: false });
});
afterAll(async () => {
  await server?.dispose();
  rmSync(dist, { recursive: true, force: true });
});

describe('POST login', () => {
  it('answers status 2 with tokens and the user info for the right password', async () => {
    const res = await api(server, 'POST', 'login', {
      body: { email: 'Ada@Example.com', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      status: 2,
      user_info: { email: 'ada@example.com', username: 'ada', roles: ['user'] },
    });
    expect(typeof res.body.token).toBe('string');
    expect(typeof res.body.refresh_token).toBe('string');
  });

  it('refuses a wrong password with 401 Login_failed and the §8 text', async () => {
    const res = await api(server, 'POST', 'login', { body: { email: 'ada@example.com', password: 'nope' } });
    expect(res).toEqual({
      status: 401,
      body: { code: 'Login_failed', message: 'The login detail is incorrect' },
    });
  });

  it('refuses an unknown email exactly like a wrong password', async () => {
    const res = await api(server, 'POST', 'login', {
      body: { email: 'ghost@example.com', password: PASSWORD },
    });
    expect(res).toEqual({
      status: 401,
      body: { code: 'Login_failed', message: 'The login detail is incorrect' },
    });
  });

  it('answers status 1 with a message and no tokens when the email is not confirmed', async () => {
    const res = await api(server, 'POST', 'login', {
      body: { email: 'new@example.com', password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe(1);
    expect(res.body.message).toMatch(/confirm/i);
    expect(res.body.token).toBeUndefined();
  });

  it('answers 429 Rate_limited after too many attempts for one email', async () => {
    const attempt = () =>
      api(server, 'POST', 'login', { body: { email: 'target@example.com', password: 'guess' } });
    const statuses: number[] = [];
    // 20 attempts per minute per (address, email) are answered normally.
    for (let i = 0; i < 20; i++) statuses.push((await attempt()).status);
    expect(new Set(statuses)).toEqual(new Set([401]));
    const limited = await attempt();
    expect(limited.status).toBe(429);
    expect(limited.body.code).toBe('Rate_limited');
    expect(typeof limited.body.message).toBe('string');
    // Other accounts from the same address still sign in.
    await expect(login(server, 'ada@example.com', PASSWORD)).resolves.toHaveProperty('token');
  });

  it('answers 400 Validation_error with a message for a malformed body', async () => {
    const res = await api(server, 'POST', 'login', { body: { email: 'not-an-email' } });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('Validation_error');
    expect(res.body.message).toMatch(/email/);
    expect(res.body.message).toMatch(/password/);
  });

  it('answers 400 for a body that is not JSON and keeps serving', async () => {
    const res = await api(server, 'POST', 'login', { rawBody: '{"email": ' });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('Validation_error');
    expect((await api(server, 'GET', 'demo-account')).status).toBe(200);
  });
});

describe('GET user-info and access tokens', () => {
  it('returns the signed-in user', async () => {
    const { token } = await login(server, 'root@example.com', PASSWORD);
    const res = await api(server, 'GET', 'user-info', { token });
    expect(res.status).toBe(200);
    expect(res.body.user_info).toMatchObject({
      email: 'root@example.com',
      roles: ['admin', 'user'],
      bio: null,
    });
  });

  it('answers 401 Unauthorized "Authorization is missing." without a token', async () => {
    const res = await api(server, 'GET', 'user-info');
    expect(res).toEqual({
      status: 401,
      body: { code: 'Unauthorized', message: 'Authorization is missing.' },
    });
  });

  it('answers 401 invalid_token for a forged or non-access token', async () => {
    expect((await api(server, 'GET', 'user-info', { token: 'abc.def.ghi' })).body.code).toBe('invalid_token');
    const { refresh_token } = await login(server, 'ada@example.com', PASSWORD);
    expect((await api(server, 'GET', 'user-info', { token: refresh_token })).body.code).toBe('invalid_token');
  });
});

describe('POST new_access_token', () => {
  it('rotates: a new pair works and the used refresh token is refused afterwards', async () => {
    const first = await login(server, 'ada@example.com', PASSWORD);
    const res = await api(server, 'POST', 'new_access_token', {
      headers: { 'Refresh-Token': first.refresh_token },
    });
    expect(res.status).toBe(200);
    const { token, refresh_token } = res.body.data;
    expect(refresh_token).not.toBe(first.refresh_token);
    expect((await api(server, 'GET', 'user-info', { token })).status).toBe(200);

    const reused = await api(server, 'POST', 'new_access_token', {
      headers: { 'Refresh-Token': first.refresh_token },
    });
    expect(reused.status).toBe(401);
    expect(reused.body.code).toBe('Invalid_refresh_token');

    const next = await api(server, 'POST', 'new_access_token', {
      headers: { 'Refresh-Token': refresh_token },
    });
    expect(next.status).toBe(200);
  });

  it('refuses a missing or garbage refresh token with Invalid_refresh_token', async () => {
    expect((await api(server, 'POST', 'new_access_token')).body.code).toBe('Invalid_refresh_token');
    const garbage = await api(server, 'POST', 'new_access_token', { headers: { 'Refresh-Token': 'x.y.z' } });
    expect(garbage).toMatchObject({ status: 401, body: { code: 'Invalid_refresh_token' } });
  });

  it('refuses an access token used as a refresh token', async () => {
    const { token } = await login(server, 'ada@example.com', PASSWORD);
    const res = await api(server, 'POST', 'new_access_token', { headers: { 'Refresh-Token': token } });
    expect(res).toMatchObject({ status: 401, body: { code: 'Invalid_refresh_token' } });
  });
});

describe('POST logout', () => {
  it('revokes the presented refresh token', async () => {
    const { token, refresh_token } = await login(server, 'ada@example.com', PASSWORD);
    const out = await api(server, 'POST', 'logout', { token, headers: { 'Refresh-Token': refresh_token } });
    expect(out).toEqual({ status: 200, body: { ok: true, revoked: true } });
    const res = await api(server, 'POST', 'new_access_token', {
      headers: { 'Refresh-Token': refresh_token },
    });
    expect(res).toMatchObject({ status: 401, body: { code: 'Invalid_refresh_token' } });
  });
});

describe('service routes', () => {
  it('answers unknown /api paths with 404 { code, message }', async () => {
    const res = await api(server, 'GET', 'no-such-route');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 'Not_found', message: expect.any(String) });
  });

  it('serves an OpenAPI document listing the routes', async () => {
    const res = await api(server, 'GET', 'openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\./);
    expect(Object.keys(res.body.paths)).toEqual(
      expect.arrayContaining([
        '/api/login',
        '/api/get_devices/',
        '/api/device-grant',
        '/api/peerjs/peerjs/{device_id}',
      ]),
    );
  });

  it('shows the demo credentials when started with a demo account, and they sign in', async () => {
    const res = await api(server, 'GET', 'demo-account');
    expect(res.body).toEqual({ enabled: true, email: 'demo@example.com', password: 'demo-password' });
    await expect(login(server, 'demo@example.com', 'demo-password')).resolves.toHaveProperty('token');
  });

  it('never publishes the demo password on a server that listens beyond loopback', async () => {
    const open = await startTestServer({
      host: '0.0.0.0',
      demoAccount: { email: 'demo@example.com', password: 'demo-password' },
    });
    try {
      expect((await api(open, 'GET', 'demo-account')).body).toEqual({ enabled: false });
    } finally {
      await open.dispose();
    }
  }, 60_000);
});

describe('built console', () => {
  it('serves index.html for console routes, never cached', async () => {
    for (const route of ['/', '/dashboard', '/control-panel/cameras?x=1']) {
      const res = await fetch(server.url + route);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/text\/html/);
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(await res.text()).toContain('id="root"');
    }
  });

  it('serves hashed assets with a long immutable cache', async () => {
    const res = await fetch(server.url + '/assets/index-3f2a1b.js');
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('answers a missing asset and unknown API paths with 404 JSON, not the page', async () => {
    for (const route of ['/assets/index-missing.js', '/api/nothing-here']) {
      const res = await fetch(server.url + route);
      expect(res.status).toBe(404);
      expect(await res.json()).toMatchObject({ code: 'Not_found' });
    }
  });
});
