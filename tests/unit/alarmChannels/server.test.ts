/**
 * Alarm channels and the real-time socket on a real server and PostgreSQL (src/server/routes/alarmChannels.ts,
 * notifications.ts, src/server/realtime/socket.ts): a webhook channel's secret is answered once and its Test
 * send arrives signed at a local receiver; e-mail lands in the embedded catcher's mailbox; Telegram goes to
 * TELEGRAM_API_URL's sendMessage and Slack to its webhook URL; a failing receiver is a failed attempt with its
 * code; the delivery log lists the attempts; another user gets 404; the socket refuses a bad token and pushes
 * a notifications change to the user's socket.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { io as connect, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../../src/server/alarmChannels/signing';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

interface Received {
  path: string;
  headers: IncomingMessage['headers'];
  body: string;
}

let server: TestServer;
let receiver: Server;
let base = '';
let status = 200;
const received: Received[] = [];
let owner = '';
let other = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(req.url?.includes('/sendMessage') ? '{"ok":true,"result":{}}' : '{}');
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  process.env.TELEGRAM_API_URL = `${base}/telegram`;
  process.env.ALLOW_PRIVATE_URLS = '1'; // the receiver is on 127.0.0.1 (SSRF guard: tests/unit/server/ssrf.test.ts)
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'ch@chan.test', password: 'chan-pass-1', roles: ['user', 'admin'] });
  await server.seed.ensureUser({ email: 'other@chan.test', password: 'other-pass-1' });
  owner = (await login(server, 'ch@chan.test', 'chan-pass-1')).token;
  other = (await login(server, 'other@chan.test', 'other-pass-1')).token;
}, 120_000);

afterAll(async () => {
  delete process.env.TELEGRAM_API_URL;
  delete process.env.ALLOW_PRIVATE_URLS;
  await server?.dispose();
  receiver?.close();
});

const create = (body: unknown) => api(server, 'POST', 'alarm-channels', { token: owner, body });

describe('alarm channels REST', () => {
  let hook = '';
  let secret = '';

  it('creates a webhook channel and answers its signing secret once', async () => {
    const r = await create({ name: 'Ops hook', config: { kind: 'webhook', url: `${base}/hook` } });
    expect(r.status).toBe(200);
    hook = r.body.channel.id;
    secret = r.body.secret;
    expect(secret).toMatch(/^whsec_/);
    expect(r.body.channel).toMatchObject({ name: 'Ops hook', has_secret: true, enabled: true });
    const list = await api(server, 'GET', 'alarm-channels', { token: owner });
    expect(JSON.stringify(list.body)).not.toContain(secret);
    expect((await create({ name: 'Ops hook', config: { kind: 'webhook', url: `${base}/x` } })).status).toBe(
      409,
    );
    const bad = await create({ name: 'Bad', config: { kind: 'webhook', url: 'ftp://x' } });
    expect(bad.status).toBe(400);
  });

  it('Test sends a signed JSON POST and answers the attempt', async () => {
    received.length = 0;
    const t = await api(server, 'POST', `alarm-channels/${hook}/test`, { token: owner });
    expect(t.status).toBe(200);
    expect(t.body).toMatchObject({ ok: true, response_code: 200, error: null, test: true });
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.path).toBe('/hook');
    expect(JSON.parse(got.body)).toMatchObject({
      type: 'alarm.test',
      channel: { id: hook, name: 'Ops hook' },
    });
    const sig = {
      signature: got.headers['x-edge-signature'] as string,
      timestamp: got.headers['x-edge-timestamp'] as string,
    };
    expect(verifyWebhook(secret, sig, got.body)).toBe(true);
    expect(verifyWebhook('whsec_wrong', sig, got.body)).toBe(false);
  });

  it('records a refused delivery with its code, and lists the attempts newest first', async () => {
    status = 500;
    const t = await api(server, 'POST', `alarm-channels/${hook}/test`, { token: owner });
    status = 200;
    expect(t.body).toMatchObject({ ok: false, response_code: 500 });
    expect(t.body.error).toMatch(/HTTP 500/);
    const log = await api(server, 'GET', `alarm-channels/${hook}/attempts`, { token: owner });
    expect(log.body.attempts.map((a: { ok: boolean }) => a.ok)).toEqual([false, true]);
    expect((await api(server, 'GET', `alarm-channels/${hook}/attempts`, { token: other })).status).toBe(404);
    expect((await api(server, 'POST', `alarm-channels/${hook}/test`, { token: other })).status).toBe(404);
  });

  it('e-mail goes to the embedded catcher’s mailbox', async () => {
    const r = await create({ name: 'Mail me', config: { kind: 'email', to: 'ops@example.com' } });
    const t = await api(server, 'POST', `alarm-channels/${r.body.channel.id}/test`, { token: owner });
    expect(t.body).toMatchObject({ ok: true, response_code: 250 });
    const box = await api(server, 'GET', 'dev/mailbox', { token: owner });
    const mail = box.body.messages.find((m: { to: string[] }) => m.to.includes('ops@example.com'));
    expect(mail.subject).toBe('Test message: Mail me');
  });

  it('Telegram calls sendMessage under TELEGRAM_API_URL; Slack posts to its webhook URL', async () => {
    received.length = 0;
    const tg = await create({
      name: 'TG',
      config: { kind: 'telegram', chat_id: '-100123' },
      secret: '123:ABC',
    });
    expect(
      (await api(server, 'POST', `alarm-channels/${tg.body.channel.id}/test`, { token: owner })).body.ok,
    ).toBe(true);
    expect(received[0]!.path).toBe('/telegram/bot123:ABC/sendMessage');
    expect(JSON.parse(received[0]!.body)).toMatchObject({ chat_id: '-100123' });
    const sl = await create({ name: 'Slack', config: { kind: 'slack' }, secret: `${base}/slack/T1/B2` });
    expect(
      (await api(server, 'POST', `alarm-channels/${sl.body.channel.id}/test`, { token: owner })).body.ok,
    ).toBe(true);
    expect(received[1]!.path).toBe('/slack/T1/B2');
    expect(JSON.parse(received[1]!.body).text).toContain('Test message: Slack');
    expect((await create({ name: 'TG2', config: { kind: 'telegram', chat_id: '1' } })).status).toBe(400);
  });

  it('a webpush channel without a browser is a failed attempt; the VAPID key is served', async () => {
    const wp = await create({ name: 'Push', config: { kind: 'webpush' } });
    const t = await api(server, 'POST', `alarm-channels/${wp.body.channel.id}/test`, { token: owner });
    expect(t.body).toMatchObject({ ok: false, error: 'No browser is subscribed' });
    const k = await api(server, 'GET', 'alarm-channels/web-push-key', { token: owner });
    expect(k.body.public_key).toMatch(/^[A-Za-z0-9_-]{87}$/);
  });

  it('an alarm that is not the caller’s has no channels to set', async () => {
    const r = await api(server, 'PUT', 'alarm-channels/alarms/00000000-0000-4000-8000-000000000000', {
      token: owner,
      body: { channel_ids: [hook] },
    });
    expect(r.status).toBe(404);
  });
});

describe('real-time socket', () => {
  const open = (token: string) =>
    connect(server.url, {
      path: '/socket.io',
      auth: { token },
      transports: ['websocket'],
      reconnection: false,
    });

  it('refuses a bad token', async () => {
    const s = open('not-a-token');
    const err = await new Promise<Error>((resolve) => s.on('connect_error', resolve));
    expect(err.message).toBe('invalid_token');
    s.close();
  });

  it('pushes the user’s notification changes to the user’s sockets only', async () => {
    const mine: Socket = open(owner);
    const theirs: Socket = open(other);
    await Promise.all([mine, theirs].map((s) => new Promise((r) => s.on('connect', () => r(null)))));
    const seen: unknown[] = [];
    theirs.on('message', (m) => seen.push(m));
    const got = new Promise((resolve) => mine.on('message', resolve));
    const r = await api(server, 'POST', 'notifications/read-all', { token: owner });
    expect(r.body).toEqual({ ok: true, updated: 0 });
    expect(await got).toEqual({ type: 'notifications.read', ids: null });
    await new Promise((r) => setTimeout(r, 200));
    expect(seen).toEqual([]);
    mine.close();
    theirs.close();
    const list = await api(server, 'GET', 'notifications', { token: owner });
    expect(list.body).toEqual({ notifications: [], unread: 0 });
  });
});
