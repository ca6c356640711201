/**
 * The admin panel's server routes on a real server and PostgreSQL (issue 13 "Admin panel"): disable / enable
 * (sign-in refused, open tokens refused at once, refresh refused), roles and the last-admin rule, two-factor
 * reset, the audit log (records, filters, paging, request address), engine backends and §7 inference-url, the
 * clients list.
 */
import { TOTP, Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ACCOUNT_DISABLED_TEXT } from '../../../src/protocol/admin';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
const PASSWORD = 'correct horse battery';
let root: { token: string; id: string };

beforeAll(async () => {
  server = await startTestServer();
  const { id } = await server.seed.ensureUser({
    email: 'root@example.com',
    password: PASSWORD,
    roles: ['admin', 'user'],
  });
  root = { token: (await login(server, 'root@example.com', PASSWORD)).token, id };
});
afterAll(async () => {
  await server?.dispose();
});

const asRoot = (method: string, path: string, body?: unknown) =>
  api(server, method, path, { token: root.token, body });

describe('disable and enable', () => {
  it('refuses the disabled user at sign-in and refuses their open session at once; enable lets them in again', async () => {
    const { id } = await server.seed.ensureUser({ email: 'victim@example.com', password: PASSWORD });
    const session = await login(server, 'victim@example.com', PASSWORD);
    expect((await api(server, 'GET', 'user-info', { token: session.token })).status).toBe(200);

    const disabled = await asRoot('POST', `admin/users/${id}/disable`);
    expect(disabled.status).toBe(200);
    expect(disabled.body.user.disabled_at).not.toBeNull();

    const next = await api(server, 'GET', 'user-info', { token: session.token });
    expect(next).toEqual({ status: 401, body: { code: 'invalid_token', message: ACCOUNT_DISABLED_TEXT } });
    const refresh = await api(server, 'POST', 'new_access_token', {
      headers: { 'refresh-token': session.refresh_token },
    });
    expect(refresh.status).toBe(401);
    const signIn = await api(server, 'POST', 'login', {
      body: { email: 'victim@example.com', password: PASSWORD },
    });
    expect(signIn).toEqual({
      status: 403,
      body: { code: 'Account_disabled', message: ACCOUNT_DISABLED_TEXT },
    });
    // A wrong password still reads as a wrong password (nothing said about the account).
    const wrong = await api(server, 'POST', 'login', {
      body: { email: 'victim@example.com', password: 'nope' },
    });
    expect(wrong.status).toBe(401);

    const enabled = await asRoot('POST', `admin/users/${id}/enable`);
    expect(enabled.body.user.disabled_at).toBeNull();
    const again = await login(server, 'victim@example.com', PASSWORD);
    expect((await api(server, 'GET', 'user-info', { token: again.token })).status).toBe(200);
  });

  it('refuses disabling oneself and answers 404 for an unknown user', async () => {
    expect((await asRoot('POST', `admin/users/${root.id}/disable`)).body.code).toBe('Own_account');
    const ghost = await asRoot('POST', 'admin/users/2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11/disable');
    expect(ghost.status).toBe(404);
  });
});

describe('roles and the last admin', () => {
  it('keeps one active admin: the last one cannot be demoted; with two, one can', async () => {
    const demoteSelf = await asRoot('PUT', `admin/users/${root.id}/roles`, { roles: ['user'] });
    expect(demoteSelf.status).toBe(409);
    expect(demoteSelf.body.code).toBe('Last_admin');

    const { id } = await server.seed.ensureUser({ email: 'second@example.com', password: PASSWORD });
    const promoted = await asRoot('PUT', `admin/users/${id}/roles`, { roles: ['admin'] });
    expect(promoted.status).toBe(200);
    expect(promoted.body.user.roles).toEqual(['admin', 'user']);
    // The second admin is disabled: root is again the only active admin.
    expect((await asRoot('POST', `admin/users/${id}/disable`)).status).toBe(200);
    expect((await asRoot('PUT', `admin/users/${root.id}/roles`, { roles: ['user'] })).status).toBe(409);
    await asRoot('POST', `admin/users/${id}/enable`);
    const demoted = await asRoot('PUT', `admin/users/${id}/roles`, { roles: ['user'] });
    expect(demoted.body.user.roles).toEqual(['user']);
  });

  it('refuses a role outside §6 with 400', async () => {
    const res = await asRoot('PUT', `admin/users/${root.id}/roles`, { roles: ['superuser'] });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('Validation_error');
  });
});

describe('two-factor reset', () => {
  it('removes the enrolment: the user signs in with the password alone afterwards', async () => {
    const { id } = await server.seed.ensureUser({ email: 'twofa@example.com', password: PASSWORD });
    const { token } = await login(server, 'twofa@example.com', PASSWORD);
    const setup = await api(server, 'POST', 'two-factor/setup', { token });
    const code = new TOTP({ secret: Secret.fromBase32(setup.body.secret) }).generate();
    expect((await api(server, 'POST', 'two-factor/enable', { token, body: { code } })).status).toBe(200);
    const challenged = await api(server, 'POST', 'login', {
      body: { email: 'twofa@example.com', password: PASSWORD },
    });
    expect(challenged.body.status).toBe(3);

    const listed = await asRoot('GET', 'admin/users?search=twofa');
    expect(listed.body.users[0]).toMatchObject({ email: 'twofa@example.com', two_factor: true });
    const reset = await asRoot('POST', `admin/users/${id}/reset-two-factor`);
    expect(reset.body.user.two_factor).toBe(false);
    const plain = await api(server, 'POST', 'login', {
      body: { email: 'twofa@example.com', password: PASSWORD },
    });
    expect(plain.body.status).toBe(2);
  });
});

describe('audit log', () => {
  it('records every action above with actor, target, details and the caller’s address; filters and pages', async () => {
    const all = await asRoot('GET', 'admin/audit-log?per_page=100');
    expect(all.status).toBe(200);
    const actions = all.body.entries.map((e: { action: string }) => e.action);
    for (const action of ['user.disable', 'user.enable', 'user.roles', 'user.reset_two_factor']) {
      expect(actions).toContain(action);
    }
    // The newest admin action (sign-ins of the users above are in the log too: security events).
    const first = all.body.entries.find((e: { action: string }) => e.action.startsWith('user.'));
    expect(first.actor).toEqual({ id: root.id, email: 'root@example.com' });
    expect(first.ip).toBe('127.0.0.1');
    // Newest first.
    const times = all.body.entries.map((e: { at: string }) => Date.parse(e.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);

    const disables = await asRoot('GET', 'admin/audit-log?action=user.disable');
    expect(disables.body.entries.length).toBeGreaterThanOrEqual(2);
    expect(disables.body.entries.every((e: { action: string }) => e.action === 'user.disable')).toBe(true);
    expect(disables.body.entries.map((e: { target_label: string }) => e.target_label)).toContain(
      'victim@example.com',
    );

    const nobody = await asRoot('GET', 'admin/audit-log?actor=nobody-here');
    expect(nobody.body.entries).toEqual([]);
    const future = await asRoot(
      'GET',
      `admin/audit-log?from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`,
    );
    expect(future.body.entries).toEqual([]);

    // Pages of two walk every entry once, forwards and back.
    const seen: string[] = [];
    let cursor: string | null = null;
    let last: { entries: { id: string }[]; prev: string | null } | null = null;
    do {
      const res: { body: { entries: { id: string }[]; next: string | null; prev: string | null } } =
        await asRoot('GET', `admin/audit-log?per_page=2${cursor ? `&cursor=${cursor}` : ''}`);
      seen.push(...res.body.entries.map((e) => e.id));
      cursor = res.body.next;
      last = res.body;
    } while (cursor);
    expect(seen).toEqual(all.body.entries.map((e: { id: string }) => e.id));
    const back = await asRoot('GET', `admin/audit-log?per_page=2&cursor=${last!.prev}`);
    expect(back.body.entries.map((e: { id: string }) => e.id)).toEqual(
      seen.slice(-2 - last!.entries.length, -last!.entries.length),
    );
  });

  it('refuses a cursor it did not write with 400', async () => {
    const res = await asRoot('GET', 'admin/audit-log?cursor=bm90LWEtY3Vyc29y');
    expect(res.status).toBe(400);
  });
});

describe('engine backends and §7 inference-url', () => {
  it('answers the seeded images by JetPack prefix and driver floor, false otherwise', async () => {
    const { token } = await login(server, 'root@example.com', PASSWORD);
    const url = (body: unknown) => api(server, 'POST', 'inference-url', { token, body });
    expect((await url({ jetpack_version: '5.1.2', driver_version: null })).body).toEqual({
      data: 'edge/inference-engine:l4t-r35.4',
    });
    expect((await url({ jetpack_version: '6.0', driver_version: null })).body.data).toBe(
      'edge/inference-engine:l4t-r36.3',
    );
    expect((await url({ jetpack_version: '5.10', driver_version: null })).body.data).toBe(false);
    expect((await url({ jetpack_version: null, driver_version: '550.54.14' })).body.data).toBe(
      'edge/inference-engine:x86-cuda12.2',
    );
    expect((await url({ jetpack_version: null, driver_version: '530.30' })).body.data).toBe(
      'edge/inference-engine:x86-cuda12.0',
    );
    expect((await url({ jetpack_version: null, driver_version: '470' })).body.data).toBe(false);
    expect((await url({ jetpack_version: '5.1', driver_version: '535' })).status).toBe(400);
    expect((await url({ jetpack_version: null, driver_version: null })).status).toBe(400);
  });

  it('creates, changes and deletes a backend (409 for a taken version), audited, and inference-url follows', async () => {
    const created = await asRoot('POST', 'admin/engine-backends', {
      platform: 'driver',
      version: '560',
      image: 'edge/inference-engine:x86-cuda12.6',
    });
    expect(created.status).toBe(200);
    const id = created.body.backend.id;
    const taken = await asRoot('POST', 'admin/engine-backends', {
      platform: 'driver',
      version: '560',
      image: 'x/y',
    });
    expect(taken).toMatchObject({ status: 409, body: { code: 'Engine_backend_exists' } });
    const ask = () => asRoot('POST', 'inference-url', { jetpack_version: null, driver_version: '565.1' });
    expect((await ask()).body.data).toBe('edge/inference-engine:x86-cuda12.6');
    const changed = await asRoot('PUT', `admin/engine-backends/${id}`, {
      platform: 'driver',
      version: '570',
      image: 'edge/inference-engine:x86-cuda12.8',
    });
    expect(changed.body.backend.version).toBe('570');
    expect((await ask()).body.data).toBe('edge/inference-engine:x86-cuda12.2');
    expect((await asRoot('DELETE', `admin/engine-backends/${id}`)).body).toEqual({ deleted: true });
    expect((await asRoot('DELETE', `admin/engine-backends/${id}`)).status).toBe(404);
    const bad = await asRoot('POST', 'admin/engine-backends', {
      platform: 'driver',
      version: 'v5',
      image: 'A B',
    });
    expect(bad.status).toBe(400);
    const log = await asRoot('GET', 'admin/audit-log?per_page=3');
    expect(log.body.entries.map((e: { action: string }) => e.action)).toEqual([
      'engine_backend.delete',
      'engine_backend.update',
      'engine_backend.create',
    ]);
  });
});

describe('clients', () => {
  it('lists devices of every user with owner, state and last seen; search by owner email', async () => {
    const { id: ownerId } = await server.seed.ensureUser({
      email: 'fleet-owner@example.com',
      password: PASSWORD,
    });
    await server.seed.ensureDevice({ ownerId, label: 'Gate camera box', chipsetId: '23', jetpack: '5.1' });
    await server.seed.ensureDevice({ ownerId: root.id, label: 'Root box', chipsetId: '0' });
    const all = await asRoot('GET', 'admin/clients');
    expect(all.status).toBe(200);
    expect(all.body.total).toBe(2);
    expect(all.body.clients.map((c: { label: string }) => c.label)).toEqual(['Gate camera box', 'Root box']);
    expect(all.body.clients[0]).toMatchObject({
      owner: { email: 'fleet-owner@example.com' },
      online: false,
      last_seen: null,
    });
    const found = await asRoot('GET', 'admin/clients?search=FLEET-OWNER');
    expect(found.body.clients.map((c: { label: string }) => c.label)).toEqual(['Gate camera box']);
    const online = await asRoot('GET', 'admin/clients?state=online');
    expect(online.body).toMatchObject({ clients: [], total: 0, online: 0 });
  });
});

describe('inferences', () => {
  it("lists every user's inference jobs read-only (none yet here), with its filters validated", async () => {
    const all = await asRoot('GET', 'admin/inferences');
    expect(all).toMatchObject({ status: 200, body: { jobs: [], total: 0, total_capped: false, next: null } });
    expect((await asRoot('GET', 'admin/inferences?state=started&search=gate')).status).toBe(200);
    expect((await asRoot('GET', 'admin/inferences?state=running')).status).toBe(400);
  });
});
