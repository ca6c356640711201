/**
 * Profile routes on the real server with embedded PostgreSQL (spec §7 PUT user, §5 "password only when
 * provided"; issue 13 keys-secrets): profile changes, the current password for email/password changes, API
 * keys as `Authorization: Token edk_…` within their scope (read vs write, key management, admin), revocation
 * (401 Api_key_revoked), last use, device token issue times (the trigger), storage usage from real rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let token: string;
let adminKeyOwner: string;
const PASSWORD = 'profile-pass-1';

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'pat@example.com', password: PASSWORD, username: 'pat' });
  await server.seed.ensureUser({ email: 'taken@example.com', password: PASSWORD, username: 'taken' });
  await server.seed.ensureUser({ email: 'boss@example.com', password: PASSWORD, roles: ['admin', 'user'] });
  token = (await login(server, 'pat@example.com', PASSWORD)).token;
  adminKeyOwner = (await login(server, 'boss@example.com', PASSWORD)).token;
});
afterAll(async () => {
  await server?.dispose();
});

describe('PUT user', () => {
  it('changes username and bio without a password, and user-info reads them back', async () => {
    const res = await api(server, 'PUT', 'user', {
      token,
      body: { username: 'Pat Q', bio: 'Edge tinkerer' },
    });
    expect(res.status).toBe(200);
    expect(res.body.user_info).toMatchObject({
      username: 'Pat Q',
      bio: 'Edge tinkerer',
      email: 'pat@example.com',
    });
    const info = await api(server, 'GET', 'user-info', { token });
    expect(info.body.user_info).toMatchObject({ username: 'Pat Q', bio: 'Edge tinkerer' });
  });

  it('refuses an email or password change without the right current password (403 Wrong_password)', async () => {
    for (const body of [
      { email: 'pat2@example.com' },
      { email: 'pat2@example.com', current_password: 'wrong-one' },
      { password: 'new-password-1', current_password: 'wrong-one' },
    ]) {
      const res = await api(server, 'PUT', 'user', { token, body });
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('Wrong_password');
    }
    // Nothing changed: the old password still signs in.
    expect((await login(server, 'pat@example.com', PASSWORD)).token).toBeTruthy();
  });

  it('refuses a taken address with 409 Email_taken, and validates fields with 400', async () => {
    const res = await api(server, 'PUT', 'user', {
      token,
      body: { email: 'Taken@example.com', current_password: PASSWORD },
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('Email_taken');
    const bad = await api(server, 'PUT', 'user', { token, body: { username: '   ' } });
    expect(bad.status).toBe(400);
    const unknown = await api(server, 'PUT', 'user', { token, body: { roles: ['admin'] } });
    expect(unknown.status).toBe(400);
  });

  it('changes the password with the current one; the new one signs in', async () => {
    const res = await api(server, 'PUT', 'user', {
      token,
      body: { password: 'second-pass-2', current_password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect((await login(server, 'pat@example.com', 'second-pass-2')).token).toBeTruthy();
    await api(server, 'PUT', 'user', {
      token,
      body: { password: PASSWORD, current_password: 'second-pass-2' },
    });
  });
});

describe('sessions', () => {
  const refresh = (refreshToken: string) =>
    api(server, 'POST', 'new_access_token', { headers: { 'refresh-token': refreshToken } });

  it('a rotated session keeps working; a signed-out session refuses its access token at once', async () => {
    const first = await login(server, 'pat@example.com', PASSWORD);
    const rotated = await refresh(first.refresh_token);
    expect(rotated.status).toBe(200);
    // The access token from before the rotation belongs to the same, still live, session.
    expect((await api(server, 'GET', 'user-info', { token: first.token })).status).toBe(200);
    expect((await api(server, 'GET', 'user-info', { token: rotated.body.data.token })).status).toBe(200);
    const out = await api(server, 'POST', 'logout', {
      headers: { 'refresh-token': rotated.body.data.refresh_token },
    });
    expect(out.body).toEqual({ ok: true, revoked: true });
    expect((await api(server, 'GET', 'user-info', { token: first.token })).status).toBe(401);
    expect((await api(server, 'GET', 'user-info', { token: rotated.body.data.token })).status).toBe(401);
  });

  it('a password change ends the other sessions (access and refresh) and keeps the one that made it', async () => {
    const mine = await login(server, 'pat@example.com', PASSWORD);
    const other = await login(server, 'pat@example.com', PASSWORD);
    const res = await api(server, 'PUT', 'user', {
      token: mine.token,
      body: { password: 'third-pass-3', current_password: PASSWORD },
    });
    expect(res.status).toBe(200);
    expect((await api(server, 'GET', 'user-info', { token: other.token })).status).toBe(401);
    expect((await refresh(other.refresh_token)).status).toBe(401);
    expect((await api(server, 'GET', 'user-info', { token: mine.token })).status).toBe(200);
    const mineRotated = await refresh(mine.refresh_token);
    expect(mineRotated.status).toBe(200);
    // A username change is not a sign-in fact: it ends nothing.
    const third = await login(server, 'pat@example.com', 'third-pass-3');
    await api(server, 'PUT', 'user', { token: mineRotated.body.data.token, body: { username: 'Pat R' } });
    expect((await api(server, 'GET', 'user-info', { token: third.token })).status).toBe(200);
    await api(server, 'PUT', 'user', {
      token: mineRotated.body.data.token,
      body: { password: PASSWORD, current_password: 'third-pass-3' },
    });
    // The shared `token` of this file was another session: sign in again for the tests that follow.
    token = (await login(server, 'pat@example.com', PASSWORD)).token;
  });
});

describe('API keys', () => {
  it('a read key reads (200) but may not write (403 Api_key_scope); revoked it gets 401 Api_key_revoked', async () => {
    const created = await api(server, 'POST', 'api-keys', {
      token,
      body: { name: 'ci read', scope: 'read' },
    });
    expect(created.status).toBe(200);
    const secret: string = created.body.secret;
    expect(secret).toMatch(/^edk_[A-Za-z0-9_-]{43}$/);
    expect(created.body.key).toMatchObject({
      name: 'ci read',
      scope: 'read',
      state: 'active',
      prefix: secret.slice(0, 12),
    });

    const read = await api(server, 'GET', 'user-info', { token: secret });
    expect(read.status).toBe(200);
    expect(read.body.user_info.email).toBe('pat@example.com');
    const write = await api(server, 'PUT', 'user', { token: secret, body: { bio: 'written by a key' } });
    expect(write.status).toBe(403);
    expect(write.body.code).toBe('Api_key_scope');

    // Listed without the secret, with its last use.
    const list = await api(server, 'GET', 'api-keys', { token });
    const listed = list.body.keys.find((k: { id: string }) => k.id === created.body.key.id);
    expect(listed.last_used_at).not.toBeNull();
    expect(JSON.stringify(list.body)).not.toContain(secret);

    const revoked = await api(server, 'DELETE', `api-keys/${created.body.key.id}`, { token });
    expect(revoked.status).toBe(200);
    expect(revoked.body.key.state).toBe('revoked');
    const after = await api(server, 'GET', 'user-info', { token: secret });
    expect(after.status).toBe(401);
    expect(after.body.code).toBe('Api_key_revoked');
  });

  it('a full key writes, but cannot manage keys; unknown keys get 401 Api_key_invalid', async () => {
    const created = await api(server, 'POST', 'api-keys', {
      token,
      body: { name: 'deploy', scope: 'full', expires_in_days: 30 },
    });
    const secret: string = created.body.secret;
    expect(created.body.key.expires_at).not.toBeNull();
    const write = await api(server, 'PUT', 'user', { token: secret, body: { bio: 'written by a key' } });
    expect(write.status).toBe(200);
    const mint = await api(server, 'POST', 'api-keys', { token: secret, body: { name: 'x', scope: 'full' } });
    expect(mint.status).toBe(403);
    expect(mint.body.code).toBe('Api_key_scope');
    const unknown = await api(server, 'GET', 'user-info', { token: `edk_${'A'.repeat(43)}` });
    expect(unknown.status).toBe(401);
    expect(unknown.body.code).toBe('Api_key_invalid');
    // A second active key with the same name is refused.
    const dup = await api(server, 'POST', 'api-keys', { token, body: { name: 'Deploy', scope: 'read' } });
    expect(dup.status).toBe(409);
  });

  it('an admin’s full key cannot call admin routes; another user cannot revoke the key (404)', async () => {
    const created = await api(server, 'POST', 'api-keys', {
      token: adminKeyOwner,
      body: { name: 'admin key', scope: 'full' },
    });
    const admin = await api(server, 'GET', 'dev/mailbox-status', { token: created.body.secret });
    expect(admin.status).toBe(403);
    expect(admin.body.code).toBe('Api_key_scope');
    // The same route with the admin's own session answers.
    expect((await api(server, 'GET', 'dev/mailbox-status', { token: adminKeyOwner })).status).toBe(200);
    const stolen = await api(server, 'DELETE', `api-keys/${created.body.key.id}`, { token });
    expect(stolen.status).toBe(404);
  });
});

describe('device tokens and usage', () => {
  it('lists when each device’s token was issued (60 days to expiry), from the trigger on token_jti', async () => {
    const owner = await server.seed.ensureUser({ email: 'dev@example.com', password: PASSWORD });
    const device = await server.seed.ensureDevice({ ownerId: owner.id, label: 'Gate', chipsetId: '0' });
    const t = (await login(server, 'dev@example.com', PASSWORD)).token;
    const before = Date.now();
    await server.seed.issueDeviceToken(device.id);
    const res = await api(server, 'GET', 'profile/device-tokens', { token: t });
    expect(res.status).toBe(200);
    const row = res.body.tokens.find((x: { id: string }) => x.id === device.id);
    expect(row.has_token).toBe(true);
    const issued = Date.parse(row.issued_at);
    expect(issued).toBeGreaterThanOrEqual(before - 2000);
    expect(Date.parse(row.expires_at) - issued).toBe(5_184_000_000);
  });

  it('storage usage is zero for a user without files; network usage says TURN is not counted', async () => {
    const storage = await api(server, 'GET', 'usage/storage', { token });
    expect(storage.status).toBe(200);
    expect(storage.body.total_bytes).toBe(0);
    expect(storage.body.history).toHaveLength(30);
    const network = await api(server, 'GET', 'usage/network?days=7', { token });
    expect(network.status).toBe(200);
    expect(network.body).toMatchObject({ days: 7, rows: [], turn_counted: false });
  });
});
