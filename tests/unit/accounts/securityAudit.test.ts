/**
 * Security events in the audit log (issue 15 "An audit log of security-relevant actions"; src/server/audit/
 * security.ts) on the real server with embedded PostgreSQL: sign-in successes and failures of known accounts,
 * sign-out, password and e-mail changes, a wrong current password, API key creation and revocation, and
 * two-factor enrolment, sign-in and removal, write one record with the account as actor and target and the
 * caller's address; an unknown e-mail writes
 * nothing; no record holds a password or a key's secret. Admins read them on GET admin/audit-log.
 */
import { Secret, TOTP } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, eventually, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let admin = '';
const PASSWORD = 'audit-pass-1';
const NEW_PASSWORD = 'audit-pass-2';

interface Entry {
  action: string;
  actor: { id: string; email: string | null };
  target_type: string;
  target_id: string | null;
  details: Record<string, unknown>;
  ip: string | null;
}

/** The log's entries about `userId`, newest first. */
async function entriesOf(userId: string): Promise<Entry[]> {
  const res = await api(server, 'GET', 'admin/audit-log?per_page=100', { token: admin });
  expect(res.status).toBe(200);
  return (res.body.entries as Entry[]).filter((e) => e.actor.id === userId);
}

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'root@example.com', password: PASSWORD, roles: ['admin', 'user'] });
  admin = (await login(server, 'root@example.com', PASSWORD)).token;
});
afterAll(async () => {
  await server?.dispose();
});

describe('security audit log', () => {
  it('records sign-in, failed sign-in and sign-out of a known account; nothing for an unknown e-mail', async () => {
    const { id } = await server.seed.ensureUser({ email: 'kim@example.com', password: PASSWORD });
    const wrong = await api(server, 'POST', 'login', {
      body: { email: 'kim@example.com', password: 'nope-nope' },
    });
    expect(wrong.status).toBe(401);
    // The failure is written after the answer (so it costs no time); wait for it.
    await eventually(async () => (await entriesOf(id)).length === 1);
    const before = (await api(server, 'GET', 'admin/audit-log?per_page=100', { token: admin })).body.entries
      .length as number;
    const unknown = await api(server, 'POST', 'login', {
      body: { email: 'nobody@example.com', password: 'nope-nope' },
    });
    expect(unknown.status).toBe(401);
    const session = await login(server, 'kim@example.com', PASSWORD);
    const out = await api(server, 'POST', 'logout', { headers: { 'refresh-token': session.refresh_token } });
    expect(out.body).toEqual({ ok: true, revoked: true });

    const entries = await entriesOf(id);
    expect(entries.map((e) => [e.action, e.details])).toEqual([
      ['auth.sign_out', {}],
      ['auth.sign_in', { method: 'password' }],
      ['auth.sign_in_failed', { reason: 'password' }],
    ]);
    for (const e of entries) {
      expect(e).toMatchObject({
        actor: { id, email: 'kim@example.com' },
        target_type: 'user',
        target_id: id,
      });
      expect(e.ip).toBe('127.0.0.1');
    }
    // The unknown e-mail's attempt added no row: only kim's sign-in and sign-out came after it.
    const after = (await api(server, 'GET', 'admin/audit-log?per_page=100', { token: admin })).body.entries;
    expect(after.length - before).toBe(2);
    // A second sign-out of the same token revokes nothing and records nothing.
    const again = await api(server, 'POST', 'logout', {
      headers: { 'refresh-token': session.refresh_token },
    });
    expect(again.body).toEqual({ ok: true, revoked: false });
    expect(await entriesOf(id)).toHaveLength(3);
  });

  it('records password and e-mail changes, a wrong current password, and API keys; never a secret', async () => {
    const { id } = await server.seed.ensureUser({ email: 'lee@example.com', password: PASSWORD });
    const { token } = await login(server, 'lee@example.com', PASSWORD);
    const refused = await api(server, 'PUT', 'user', {
      token,
      body: { password: NEW_PASSWORD, current_password: 'not-my-password' },
    });
    expect(refused.status).toBe(403);
    await eventually(async () =>
      (await entriesOf(id)).some((e) => e.action === 'account.password_check_failed'),
    );
    const changed = await api(server, 'PUT', 'user', {
      token,
      body: { password: NEW_PASSWORD, email: 'lee2@example.com', current_password: PASSWORD },
    });
    expect(changed.status).toBe(200);
    const created = await api(server, 'POST', 'api-keys', { token, body: { name: 'ci', scope: 'read' } });
    expect(created.status).toBe(200);
    const keyId = created.body.key.id as string;
    expect((await api(server, 'DELETE', `api-keys/${keyId}`, { token })).status).toBe(200);

    const entries = await entriesOf(id);
    expect(entries.map((e) => e.action)).toEqual([
      'api_key.revoke',
      'api_key.create',
      'account.password_change',
      'account.email_change',
      'account.password_check_failed',
      'auth.sign_in',
    ]);
    const byAction = Object.fromEntries(entries.map((e) => [e.action, e]));
    expect(byAction['account.email_change']!.details).toEqual({
      from: 'lee@example.com',
      to: 'lee2@example.com',
    });
    expect(byAction['account.password_check_failed']!.details).toEqual({ where: 'profile' });
    expect(byAction['api_key.create']).toMatchObject({
      target_type: 'api_key',
      target_id: keyId,
      details: { name: 'ci', scope: 'read' },
    });
    expect(byAction['api_key.revoke']).toMatchObject({ target_id: keyId, details: { name: 'ci' } });
    const text = JSON.stringify(entries);
    for (const secret of [PASSWORD, NEW_PASSWORD, 'not-my-password', created.body.secret as string]) {
      expect(text).not.toContain(secret);
    }
  });

  it('records two-factor enrolment, a wrong and a right code at sign-in, and its removal', async () => {
    const { id } = await server.seed.ensureUser({ email: 'tfa@example.com', password: PASSWORD });
    const { token } = await login(server, 'tfa@example.com', PASSWORD);
    const secret = (await api(server, 'POST', 'two-factor/setup', { token })).body.secret as string;
    const codeAt = (steps: number) =>
      new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + steps * 30_000 });
    expect(
      (await api(server, 'POST', 'two-factor/enable', { token, body: { code: codeAt(0) } })).status,
    ).toBe(200);
    const challenge = (
      await api(server, 'POST', 'login', { body: { email: 'tfa@example.com', password: PASSWORD } })
    ).body.challenge as string;
    const right = codeAt(1);
    const wrongCode = right === '000000' ? '111111' : '000000';
    expect(
      (await api(server, 'POST', 'verify-2fa-auth', { body: { challenge, code: wrongCode } })).body.status,
    ).toBe(0);
    await eventually(async () => (await entriesOf(id)).some((e) => e.action === 'auth.sign_in_failed'));
    expect(
      (await api(server, 'POST', 'verify-2fa-auth', { body: { challenge, code: right } })).body.status,
    ).toBe(1);
    const refused = await api(server, 'POST', 'two-factor/disable', {
      token,
      body: { password: 'not-it-at-all' },
    });
    expect(refused.status).toBe(400);
    await eventually(async () =>
      (await entriesOf(id)).some((e) => e.action === 'account.password_check_failed'),
    );
    expect(
      (await api(server, 'POST', 'two-factor/disable', { token, body: { password: PASSWORD } })).status,
    ).toBe(200);
    expect((await entriesOf(id)).map((e) => [e.action, e.details])).toEqual([
      ['account.two_factor_disabled', {}],
      ['account.password_check_failed', { where: 'two_factor_disable' }],
      ['auth.sign_in', { method: 'two_factor' }],
      ['auth.sign_in_failed', { reason: 'two_factor' }],
      ['account.two_factor_enabled', {}],
      ['auth.sign_in', { method: 'password' }],
    ]);
  });
});
