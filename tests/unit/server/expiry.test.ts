/** Access-token expiry (spec §4: Token_expired → one refresh, then retry). Server with a 1 s access TTL. */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { api, eventually, login, startTestServer, type TestServer } from './helpers';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ accessTokenTtlS: 1 });
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
