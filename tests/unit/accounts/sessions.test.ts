/**
 * Refresh-token reuse (issue 15 "Refresh-token reuse after rotation revokes the whole family and is logged";
 * OWASP ASVS 3.5) on the real server with embedded PostgreSQL: a rotated-away refresh token presented again ends
 * its whole session — the replacement refresh token and every access token of the session stop working — and an
 * audit record `session.refresh_reuse` is written. Other sessions of the user go on. The grace after a rotation
 * (two tabs refreshing at once) is 0 here so the reuse counts at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
const PASSWORD = 'session-pass-1';

beforeAll(async () => {
  server = await startTestServer({ refreshReuseGraceS: 0 });
  await server.seed.ensureUser({ email: 'sam@example.com', password: PASSWORD });
  await server.seed.ensureUser({ email: 'root@example.com', password: PASSWORD, roles: ['admin', 'user'] });
});
afterAll(async () => {
  await server?.dispose();
});

const refresh = (refreshToken: string) =>
  api(server, 'POST', 'new_access_token', { headers: { 'refresh-token': refreshToken } });

describe('refresh-token reuse', () => {
  it('ends the whole session and writes session.refresh_reuse; other sessions go on', async () => {
    const stolen = await login(server, 'sam@example.com', PASSWORD);
    const other = await login(server, 'sam@example.com', PASSWORD);
    const legit = await refresh(stolen.refresh_token);
    expect(legit.status).toBe(200);
    const next = legit.body.data as { token: string; refresh_token: string };

    const reuse = await refresh(stolen.refresh_token);
    expect(reuse.status).toBe(401);
    expect(reuse.body.code).toBe('Invalid_refresh_token');
    // The family is gone: the replacement refresh token, and the session's access tokens old and new.
    expect((await refresh(next.refresh_token)).status).toBe(401);
    expect((await api(server, 'GET', 'user-info', { token: next.token })).status).toBe(401);
    expect((await api(server, 'GET', 'user-info', { token: stolen.token })).status).toBe(401);
    // Another sign-in of the same user is untouched.
    expect((await api(server, 'GET', 'user-info', { token: other.token })).status).toBe(200);
    expect((await refresh(other.refresh_token)).status).toBe(200);

    const admin = await login(server, 'root@example.com', PASSWORD);
    const log = await api(server, 'GET', 'admin/audit-log?action=session.refresh_reuse', {
      token: admin.token,
    });
    expect(log.status).toBe(200);
    expect(log.body.entries).toHaveLength(1);
    expect(log.body.entries[0]).toMatchObject({
      action: 'session.refresh_reuse',
      target_type: 'session',
      details: { refresh_tokens_revoked: 1 },
    });
  });

  it('a token that was signed out (not rotated) is only refused: nothing else ends, nothing is logged', async () => {
    const a = await login(server, 'sam@example.com', PASSWORD);
    const b = await login(server, 'sam@example.com', PASSWORD);
    await api(server, 'POST', 'logout', { headers: { 'refresh-token': a.refresh_token } });
    expect((await refresh(a.refresh_token)).status).toBe(401);
    expect((await api(server, 'GET', 'user-info', { token: b.token })).status).toBe(200);
    const admin = await login(server, 'root@example.com', PASSWORD);
    const log = await api(server, 'GET', 'admin/audit-log?action=session.refresh_reuse', {
      token: admin.token,
    });
    expect(log.body.entries).toHaveLength(1);
  });
});
