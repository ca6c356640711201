/**
 * Server-side request forgery guard (issue 15; src/server/net/publicUrl.ts): which addresses are refused, DNS
 * answers judged address by address, ALLOW_PRIVATE_URLS, and on the real server an alarm channel aimed at
 * 127.0.0.1 refused on save (400 Url_refused) and on send (a failed attempt, nothing reaches the receiver).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assertPublicUrl, isNonPublicAddress, UrlRefusedError } from '../../../src/server/net/publicUrl';
import { api, login, startTestServer, type TestServer } from './helpers';

describe('isNonPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.8.9.10',
    '0.0.0.0',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.10',
    '169.254.169.254',
    '100.100.100.200',
    '192.0.0.192',
    '224.0.0.1',
    '255.255.255.255',
    '::',
    '::1',
    'fe80::1',
    'febf::1',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '64:ff9b::a9fe:a9fe',
    '2002:c0a8:0101::1',
    '[::1]',
    'not-an-address',
  ])('refuses %s', (ip) => {
    expect(isNonPublicAddress(ip)).toBe(true);
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '172.32.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])(
    'lets %s through',
    (ip) => {
      expect(isNonPublicAddress(ip)).toBe(false);
    },
  );
});

describe('assertPublicUrl', () => {
  const resolveTo = (addresses: string[]) => async () => addresses;

  it('refuses a name when any of its addresses is private, saying which', async () => {
    const err = await assertPublicUrl('https://hooks.example.com/x', {
      allowPrivate: false,
      resolve: resolveTo(['93.184.216.34', '10.0.0.7']),
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UrlRefusedError);
    expect((err as Error).message).toContain('hooks.example.com (10.0.0.7)');
  });

  it('lets a name with only public addresses through', async () => {
    await expect(
      assertPublicUrl('https://hooks.example.com/x', {
        allowPrivate: false,
        resolve: resolveTo(['93.184.216.34']),
      }),
    ).resolves.toBeUndefined();
  });

  it('refuses literals, localhost names and other schemes without DNS', async () => {
    const noDns = async () => {
      throw new Error('DNS must not be asked');
    };
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://[::1]/hook',
      'http://169.254.169.254/latest/meta-data/',
      'http://localhost:9/x',
      'http://api.localhost/x',
    ]) {
      await expect(assertPublicUrl(url, { allowPrivate: false, resolve: noDns })).rejects.toThrow(
        /does not send requests to/,
      );
    }
    await expect(assertPublicUrl('file:///etc/passwd', { allowPrivate: false })).rejects.toThrow(/http\(s\)/);
  });

  it('refuses a name that does not resolve', async () => {
    const fail = async () => {
      throw new Error('ENOTFOUND');
    };
    await expect(
      assertPublicUrl('https://nowhere.invalid/', { allowPrivate: false, resolve: fail }),
    ).rejects.toThrow('The host nowhere.invalid could not be resolved.');
  });

  it('lets private addresses through with allowPrivate (ALLOW_PRIVATE_URLS=1)', async () => {
    await expect(assertPublicUrl('http://127.0.0.1/hook', { allowPrivate: true })).resolves.toBeUndefined();
    const saved = process.env.ALLOW_PRIVATE_URLS;
    process.env.ALLOW_PRIVATE_URLS = '1';
    try {
      await expect(assertPublicUrl('http://10.0.0.1/hook')).resolves.toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.ALLOW_PRIVATE_URLS;
      else process.env.ALLOW_PRIVATE_URLS = saved;
    }
    await expect(assertPublicUrl('http://10.0.0.1/hook')).rejects.toThrow(UrlRefusedError);
  });
});

describe('alarm channels on the real server', () => {
  let server: TestServer;
  let receiver: http.Server;
  let base = '';
  let token = '';
  let hits = 0;

  beforeAll(async () => {
    delete process.env.ALLOW_PRIVATE_URLS;
    receiver = http.createServer((req, res) => {
      hits++;
      req.resume();
      res.end('{}');
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
    server = await startTestServer();
    await server.seed.ensureUser({ email: 'ssrf@example.com', password: 'ssrf-pass-1' });
    token = (await login(server, 'ssrf@example.com', 'ssrf-pass-1')).token;
  }, 120_000);
  afterAll(async () => {
    delete process.env.ALLOW_PRIVATE_URLS;
    await server?.dispose();
    receiver?.close();
  });

  it('refuses a webhook or Slack URL on a loopback or metadata address with 400 Url_refused', async () => {
    for (const body of [
      { name: 'Loop', config: { kind: 'webhook', url: `${base}/hook` } },
      { name: 'Meta', config: { kind: 'webhook', url: 'http://169.254.169.254/latest/meta-data/' } },
      { name: 'Slack', config: { kind: 'slack' }, secret: 'http://[::1]:9/services/T/B' },
    ]) {
      const res = await api(server, 'POST', 'alarm-channels', { token, body });
      expect(res.status).toBe(400);
      expect(res.body.code).toBe('Url_refused');
      expect(res.body.message).toMatch(/does not send requests to .*Use a public address\.$/);
    }
  });

  it('checks again on send: a channel saved while allowed fails its test send and reaches nobody', async () => {
    process.env.ALLOW_PRIVATE_URLS = '1';
    const created = await api(server, 'POST', 'alarm-channels', {
      token,
      body: { name: 'Saved while allowed', config: { kind: 'webhook', url: `${base}/hook` } },
    });
    delete process.env.ALLOW_PRIVATE_URLS;
    expect(created.status).toBe(200);
    const attempt = await api(server, 'POST', `alarm-channels/${created.body.channel.id}/test`, { token });
    expect(attempt.status).toBe(200);
    expect(attempt.body.ok).toBe(false);
    expect(attempt.body.error).toContain('does not send requests to 127.0.0.1');
    expect(hits).toBe(0);
  });
});
