/**
 * The public pages' server side (src/server/routes/public.ts): the contact form is validated (every field, a
 * clear 400), stored (its id comes back) and mailed to CONTACT_MAIL_TO through the server's mailer (the
 * embedded catcher here); a signed-in sender holding the priority-support licence is flagged "[Priority]"; one
 * address is limited to CONTACT_RATE_LIMIT_PER_MIN messages a minute (429); DOCS_URL / BLOG_URL /
 * ADMIN_SITE_URL turn /docs, /blog, /admin into server redirects, unset ones stay the console's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let admin = '';
let member = '';
const saved: Record<string, string | undefined> = {};
const ENV = {
  CONTACT_MAIL_TO: 'sales@contact.test',
  CONTACT_RATE_LIMIT_PER_MIN: '4',
  DOCS_URL: 'https://docs.example.test/console/',
  ADMIN_SITE_URL: 'https://admin.example.test/#/users',
};

beforeAll(async () => {
  for (const [k, v] of Object.entries(ENV)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  delete process.env.BLOG_URL;
  server = await startTestServer({ staticDir: null });
  await server.seed.ensureUser({
    email: 'root@contact.test',
    password: 'root-pass-1',
    roles: ['admin', 'user'],
  });
  await server.seed.ensureUser({ email: 'member@contact.test', password: 'member-pass-1' });
  admin = (await login(server, 'root@contact.test', 'root-pass-1')).token;
  member = (await login(server, 'member@contact.test', 'member-pass-1')).token;
}, 90_000);

afterAll(async () => {
  await server?.dispose();
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const form = {
  name: 'Ada',
  email: 'ada@visitor.test',
  subject: 'Fleet of 40 Jetsons',
  message: 'Do you offer volume pricing?',
};

async function caught() {
  const box = await api(server, 'GET', 'dev/mailbox', { token: admin });
  return box.body.messages as Array<{ to: string[]; subject: string; text: string }>;
}

describe('contact form', () => {
  it('validates, stores, mails (priority for a licensed sender) and rate-limits', async () => {
    const bad = await api(server, 'POST', 'contact', {
      body: { ...form, email: 'not-an-address', message: 'short' },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('Validation_error');
    expect((await api(server, 'POST', 'contact', { body: { ...form, extra: 1 } })).status).toBe(400);

    const sent = await api(server, 'POST', 'contact', { body: form });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ ok: true, id: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const mail = (await caught()).find((m) => m.text.includes(sent.body.id));
    expect(mail).toMatchObject({ to: ['sales@contact.test'], subject: 'Contact: Fleet of 40 Jetsons' });
    expect(mail?.text).toContain('From: Ada <ada@visitor.test>');
    expect(mail?.text).toContain('Do you offer volume pricing?');
    expect(mail?.text).toContain('Signed in: no');

    const grant = await api(server, 'POST', 'admin/licences', {
      token: admin,
      body: { email: 'member@contact.test', plan_id: 'priority-support' },
    });
    expect(grant.status).toBe(200);
    const priority = await api(server, 'POST', 'contact', {
      token: member,
      body: { ...form, subject: 'Line\r\nBcc: x@y' },
    });
    expect(priority.status).toBe(200);
    const flagged = (await caught()).find((m) => m.text.includes(priority.body.id));
    expect(flagged?.subject).toBe('[Priority] Contact: Line Bcc: x@y');
    expect(flagged?.to).toEqual(['sales@contact.test']);
    // A bad token is just "signed out" on this public form.
    const anon = await api(server, 'POST', 'contact', { token: 'garbage', body: form });
    expect(anon.status).toBe(200);

    // Four valid messages a minute from one address (refused ones do not count): the fifth is refused.
    expect((await api(server, 'POST', 'contact', { body: form })).status).toBe(200);
    const over = await api(server, 'POST', 'contact', { body: form });
    expect(over.status).toBe(429);
    expect(over.body.code).toBeTypeOf('string');
  });
});

describe('external redirects', () => {
  it('answers configured ones with a 302, leaves the others to the console', async () => {
    const docs = await fetch(`${server.url}/docs`, { redirect: 'manual' });
    expect(docs.status).toBe(302);
    expect(docs.headers.get('location')).toBe('https://docs.example.test/console/');
    const adminSite = await fetch(`${server.url}/admin`, { redirect: 'manual' });
    expect(adminSite.headers.get('location')).toBe('https://admin.example.test/#/users');
    expect((await fetch(`${server.url}/blog`, { redirect: 'manual' })).status).toBe(404); // no console built here
  });
});
