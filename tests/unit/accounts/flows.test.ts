/**
 * Issue 13 account flows on a real server (embedded PostgreSQL, the embedded SMTP catcher): register → mail →
 * confirm → sign in; forgot → reset → sign in; no enumeration; single-use links; TOTP enrolment and the
 * two-factor sign-in (§4 verify status 1 / 0), recovery codes, mailed codes; rate limits.
 */
import { TOTP, Secret } from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let admin: string;
const PASSWORD = 'correct horse battery';

/** The newest caught mail to `to` whose subject matches, polled through the admin mailbox route. */
async function mailTo(to: string, subject: RegExp, ms = 5000) {
  const until = Date.now() + ms;
  for (;;) {
    const box = await api(server, 'GET', 'dev/mailbox', { token: admin });
    const hit = (
      box.body.messages as { to: string[]; subject: string; text: string; links: string[] }[]
    ).find((m) => m.to.includes(to) && subject.test(m.subject));
    if (hit) return hit;
    if (Date.now() > until) throw new Error(`no mail to ${to} matching ${subject}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
const tokenOf = (link: string) => link.split('/').pop()!;
const codeOf = (secret: string, offset = 0) =>
  new TOTP({ secret: Secret.fromBase32(secret) }).generate({ timestamp: Date.now() + offset * 30_000 });

beforeAll(async () => {
  process.env.ACCOUNT_RATE_LIMIT_PER_MIN = '1000';
  server = await startTestServer({ demoAccount: { email: 'demo@example.com', password: 'demo-password' } });
  await server.seed.ensureUser({ email: 'root@example.com', password: PASSWORD, roles: ['admin', 'user'] });
  admin = (await login(server, 'root@example.com', PASSWORD)).token;
});
afterAll(async () => {
  delete process.env.ACCOUNT_RATE_LIMIT_PER_MIN;
  await server?.dispose();
});

describe('register and confirm', () => {
  it('register-config says reCAPTCHA is off by default', async () => {
    expect((await api(server, 'GET', 'register-config')).body).toEqual({ recaptcha_site_key: null });
  });

  it('registers, mails a confirm link in the asked language, refuses sign-in until confirmed', async () => {
    const res = await api(server, 'POST', 'register', {
      body: {
        email: 'Neu@Example.com',
        username: 'Neu',
        password: 'new-password-1',
        agreed: true,
        language: 'de',
      },
    });
    expect(res.status).toBe(200);
    expect(res.body.ok).toBe(true);
    const mail = await mailTo('neu@example.com', /Bestätigen/);
    expect(mail.links[0]).toMatch(/\/confirm-mail\/[A-Za-z0-9_-]{43}$/);
    const before = await api(server, 'POST', 'login', {
      body: { email: 'neu@example.com', password: 'new-password-1' },
    });
    expect(before.body.status).toBe(1);

    const confirmed = await api(server, 'POST', 'confirm-mail', { body: { token: tokenOf(mail.links[0]!) } });
    expect(confirmed).toEqual({ status: 200, body: { ok: true, email: 'neu@example.com' } });
    expect((await login(server, 'neu@example.com', 'new-password-1')).user_info).toBeTruthy();

    // Single use: the same link again is expired.
    const again = await api(server, 'POST', 'confirm-mail', { body: { token: tokenOf(mail.links[0]!) } });
    expect(again.status).toBe(404);
    expect(again.body.code).toBe('Link_expired');
  });

  it('answers a known address exactly like a new one and mails it a notice instead', async () => {
    const body = { email: 'root@example.com', username: 'x', password: 'other-password', agreed: true };
    const known = await api(server, 'POST', 'register', { body });
    const fresh = await api(server, 'POST', 'register', { body: { ...body, email: 'fresh@example.com' } });
    expect(known).toEqual(fresh);
    await mailTo('root@example.com', /already have an account/);
    // The known account's password is unchanged.
    expect((await login(server, 'root@example.com', PASSWORD)).token).toBeTruthy();
  });

  it('resend-verification mails a new link that replaces the old one, same answer for unknown addresses', async () => {
    await api(server, 'POST', 'register', {
      body: { email: 'late@example.com', username: 'Late', password: 'late-password', agreed: true },
    });
    const first = await mailTo('late@example.com', /Confirm/);
    const resent = await api(server, 'POST', 'resend-verification', { body: { email: 'late@example.com' } });
    const unknown = await api(server, 'POST', 'resend-verification', {
      body: { email: 'nobody@example.com' },
    });
    expect(resent).toEqual(unknown);
    let second = first;
    const until = Date.now() + 5000;
    while (second.links[0] === first.links[0] && Date.now() < until)
      second = await mailTo('late@example.com', /Confirm/);
    expect(second.links[0]).not.toBe(first.links[0]);
    expect(
      (await api(server, 'POST', 'confirm-mail', { body: { token: tokenOf(first.links[0]!) } })).status,
    ).toBe(404);
    expect(
      (await api(server, 'POST', 'confirm-mail', { body: { token: tokenOf(second.links[0]!) } })).status,
    ).toBe(200);
  });

  it('refuses a register without the terms agreement or with a short password', async () => {
    const base = { email: 'x@example.com', username: 'X', password: 'long-enough-1', agreed: true };
    expect((await api(server, 'POST', 'register', { body: { ...base, agreed: false } })).status).toBe(400);
    expect((await api(server, 'POST', 'register', { body: { ...base, password: 'short' } })).status).toBe(
      400,
    );
  });
});

describe('password reset', () => {
  it('mails a reset link; the new password works, the old one and the old sessions do not; the link is single use', async () => {
    await server.seed.ensureUser({ email: 'forgetful@example.com', password: PASSWORD });
    const session = await login(server, 'forgetful@example.com', PASSWORD);
    const asked = await api(server, 'POST', 'reset-password-request', {
      body: { email: 'forgetful@example.com' },
    });
    const unknown = await api(server, 'POST', 'reset-password-request', {
      body: { email: 'ghost@example.com' },
    });
    expect(asked).toEqual(unknown);
    const mail = await mailTo('forgetful@example.com', /Reset/);
    const token = tokenOf(mail.links[0]!);
    expect(mail.links[0]).toContain('/forgot-password/');

    expect(
      (await api(server, 'POST', 'reset-password', { body: { token, password: 'brand-new-pass' } })).body,
    ).toEqual({
      ok: true,
    });
    expect((await login(server, 'forgetful@example.com', 'brand-new-pass')).token).toBeTruthy();
    expect(
      (await api(server, 'POST', 'login', { body: { email: 'forgetful@example.com', password: PASSWORD } }))
        .status,
    ).toBe(401);
    const refreshed = await api(server, 'POST', 'new_access_token', {
      headers: { 'refresh-token': session.refresh_token },
    });
    expect(refreshed.status).toBe(401);
    const reuse = await api(server, 'POST', 'reset-password', {
      body: { token, password: 'another-pass-1' },
    });
    expect(reuse.status).toBe(404);
    expect(reuse.body.code).toBe('Link_expired');
  });

  it('refuses an unknown token with 404 Link_expired', async () => {
    const res = await api(server, 'POST', 'reset-password', {
      body: { token: 'A'.repeat(43), password: 'whatever-pass' },
    });
    expect(res).toEqual({
      status: 404,
      body: { code: 'Link_expired', message: 'This link is no longer valid.' },
    });
  });
});

describe('two-factor sign-in (TOTP)', () => {
  let secret = '';
  let recovery: string[] = [];

  it('enrols: setup gives a secret, URI and QR; a wrong code is refused; a right one answers recovery codes once', async () => {
    await server.seed.ensureUser({ email: 'careful@example.com', password: PASSWORD });
    const { token } = await login(server, 'careful@example.com', PASSWORD);
    const setup = await api(server, 'POST', 'two-factor/setup', { token });
    expect(setup.status).toBe(200);
    secret = setup.body.secret;
    expect(setup.body.otpauth_url).toMatch(/^otpauth:\/\/totp\/Edge%20AI%20Console:careful%40example\.com\?/);
    expect(setup.body.qr_svg).toMatch(/^<svg/);
    const wrong = await api(server, 'POST', 'two-factor/enable', {
      token,
      body: { code: '000000' === codeOf(secret) ? '111111' : '000000' },
    });
    expect(wrong.status).toBe(400);
    const ok = await api(server, 'POST', 'two-factor/enable', { token, body: { code: codeOf(secret) } });
    expect(ok.status).toBe(200);
    recovery = ok.body.recovery_codes;
    expect(recovery).toHaveLength(10);
    const state = await api(server, 'GET', 'verify-auth', { token });
    expect(state.body.two_factor).toEqual({ enabled: true, recovery_codes_left: 10 });
    expect((await api(server, 'POST', 'two-factor/setup', { token })).status).toBe(409);
  });

  it('login answers status 3 with a challenge; a wrong code is status 0; the right code is status 1 with tokens', async () => {
    const first = await api(server, 'POST', 'login', {
      body: { email: 'careful@example.com', password: PASSWORD },
    });
    expect(first.body).toMatchObject({ status: 3 });
    expect(first.body.token).toBeUndefined();
    const challenge = first.body.challenge as string;
    const wrong = await api(server, 'POST', 'verify-2fa-auth', {
      body: { challenge, code: '12345x'.replace('x', '9') === codeOf(secret, 1) ? '000001' : '123459' },
    });
    expect(wrong.body).toEqual({ status: 0, message: 'The verification code is incorrect' });
    // The enrolment used the current step; the next step's code is accepted once.
    const right = await api(server, 'POST', 'verify-2fa-auth', {
      body: { challenge, code: codeOf(secret, 1) },
    });
    expect(right.body.status).toBe(1);
    expect(typeof right.body.tokens.token).toBe('string');
    expect(typeof right.body.tokens.refresh_token).toBe('string');
    expect(right.body.user_info.email).toBe('careful@example.com');
    // The challenge is used up.
    const again = await api(server, 'POST', 'verify-2fa-auth', {
      body: { challenge, code: codeOf(secret, 1) },
    });
    expect(again.body.status).toBe(0);
  });

  it('a TOTP code is never accepted twice (replay), a recovery code works once', async () => {
    const challenge = (
      await api(server, 'POST', 'login', { body: { email: 'careful@example.com', password: PASSWORD } })
    ).body.challenge;
    const replay = await api(server, 'POST', 'verify-2fa-auth', {
      body: { challenge, code: codeOf(secret, 1) },
    });
    expect(replay.body.status).toBe(0);
    const rec = await api(server, 'POST', 'verify-2fa-auth', { body: { challenge, code: recovery[0] } });
    expect(rec.body.status).toBe(1);
    const c2 = (
      await api(server, 'POST', 'login', { body: { email: 'careful@example.com', password: PASSWORD } })
    ).body.challenge;
    expect(
      (await api(server, 'POST', 'verify-2fa-auth', { body: { challenge: c2, code: recovery[0] } })).body
        .status,
    ).toBe(0);
  });

  it('resend-verify-code mails a one-time code that signs in', async () => {
    const challenge = (
      await api(server, 'POST', 'login', { body: { email: 'careful@example.com', password: PASSWORD } })
    ).body.challenge;
    const res = await api(server, 'PUT', 'resend-verify-code', { body: { challenge } });
    expect(res.body.ok).toBe(true);
    const unknown = await api(server, 'PUT', 'resend-verify-code', { body: { challenge: 'B'.repeat(43) } });
    expect(unknown.body).toEqual(res.body);
    const mail = await mailTo('careful@example.com', /sign-in code/);
    const code = /\b(\d{6})\b/.exec(mail.text)![1]!;
    expect((await api(server, 'POST', 'verify-2fa-auth', { body: { challenge, code } })).body.status).toBe(1);
  });

  it('ends a challenge after five wrong codes', async () => {
    const challenge = (
      await api(server, 'POST', 'login', { body: { email: 'careful@example.com', password: PASSWORD } })
    ).body.challenge;
    const messages: string[] = [];
    for (let i = 0; i < 5; i++) {
      messages.push(
        (await api(server, 'POST', 'verify-2fa-auth', { body: { challenge, code: 'zzzzz-zzzzz' } })).body
          .message,
      );
    }
    expect(messages.slice(0, 4).every((m) => m === 'The verification code is incorrect')).toBe(true);
    expect(messages[4]).toMatch(/expired/);
  });

  it('disable needs the password; afterwards login is status 2 again', async () => {
    const challenge = (
      await api(server, 'POST', 'login', { body: { email: 'careful@example.com', password: PASSWORD } })
    ).body.challenge;
    const { tokens } = (
      await api(server, 'POST', 'verify-2fa-auth', { body: { challenge, code: recovery[1] } })
    ).body;
    expect(
      (await api(server, 'POST', 'two-factor/disable', { token: tokens.token, body: { password: 'wrong' } }))
        .status,
    ).toBe(400);
    expect(
      (await api(server, 'POST', 'two-factor/disable', { token: tokens.token, body: { password: PASSWORD } }))
        .status,
    ).toBe(200);
    expect((await login(server, 'careful@example.com', PASSWORD)).token).toBeTruthy();
  });
});

describe('mailbox', () => {
  it('is for admins only', async () => {
    await server.seed.ensureUser({ email: 'plain@example.com', password: PASSWORD });
    const { token } = await login(server, 'plain@example.com', PASSWORD);
    expect((await api(server, 'GET', 'dev/mailbox', { token })).status).toBe(403);
    expect((await api(server, 'GET', 'dev/mailbox')).status).toBe(401);
    expect((await api(server, 'GET', 'dev/mailbox-status', { token: admin })).body).toEqual({
      enabled: true,
    });
  });
});
