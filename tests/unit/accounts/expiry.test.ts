/**
 * Token expiry (spec §4: Token_expired → one refresh, then retry; §8 expired_refresh_token → log in again).
 * Server with a 1 s access TTL and a 3 s refresh TTL.
 */
import { decodeJwt } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, eventually, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ accessTokenTtlS: 1, refreshTokenTtlS: 3 });
  await server.seed.ensureUser({ email: 'ttl@example.com', password: 'pw-123456' });
});
afterAll(async () => {
  await server?.dispose();
});

it('answers 401 Token_expired once the access token expired, and the refresh token still works', async () => {
  const { token, refresh_token } = await login(server, 'ttl@example.com', 'pw-123456');
  let last = { status: 0, body: {} as { code?: string } };
  await eventually(async () => {
    last = await api(server, 'GET', 'user-info', { token });
    return last.status === 401;
  }, 4000);
  expect(last.body.code).toBe('Token_expired');
  const refreshed = await api(server, 'POST', 'new_access_token', {
    headers: { 'Refresh-Token': refresh_token },
  });
  expect(refreshed.status).toBe(200);
  expect(typeof refreshed.body.data.token).toBe('string');
});

it('answers 401 expired_refresh_token for an expired refresh token', async () => {
  const { refresh_token } = await login(server, 'ttl@example.com', 'pw-123456');
  const expiresAtMs = decodeJwt(refresh_token).exp! * 1000;
  await new Promise((r) => setTimeout(r, Math.max(0, expiresAtMs - Date.now()) + 50));
  const res = await api(server, 'POST', 'new_access_token', { headers: { 'Refresh-Token': refresh_token } });
  expect(res).toMatchObject({ status: 401, body: { code: 'expired_refresh_token' } });
});
