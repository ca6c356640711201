/**
 * Issue 15 "Relayed WebRTC": TURN REST API credentials (src/server/signalling/turn.ts), the TURN_* and
 * ICE_TRANSPORT_POLICY settings, and GET ice-servers / get_browser_token on a real server minting per caller.
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { IceServersResponse } from '../../../src/protocol';
import { resolveConfig } from '../../../src/server/config';
import {
  DEFAULT_TURN_TTL_S,
  iceAnswerFor,
  mintTurnCredentials,
  parseIceTransportPolicy,
  parseTurnConfig,
  TurnConfigError,
} from '../../../src/server/signalling/turn';
import { api, login, startTestServer, type TestServer } from './helpers';

const SECRET = 'north-wind-4417';
const TURN = { urls: ['turn:127.0.0.1:3478?transport=udp'], secret: SECRET, ttlS: 600 };
const hmac = (username: string, secret = SECRET) =>
  createHmac('sha1', secret).update(username).digest('base64');

describe('mintTurnCredentials', () => {
  it('username is <expiry unix s>:<caller id>, credential base64(HMAC-SHA1(secret, username))', () => {
    const now = Date.UTC(2026, 10, 28, 12, 0, 0, 250);
    const { server, expiresAt } = mintTurnCredentials(TURN, 'dev-0123456789abcdef', now);
    const expiry = Math.floor(now / 1000) + 600;
    expect(server).toEqual({
      urls: TURN.urls,
      username: `${expiry}:dev-0123456789abcdef`,
      credential: hmac(`${expiry}:dev-0123456789abcdef`),
    });
    expect(expiresAt).toBe(expiry * 1000);
    // Another secret does not verify; the secret itself is nowhere in the entry.
    expect(server.credential).not.toBe(hmac(server.username!, 'other-secret'));
    expect(JSON.stringify(server)).not.toContain(SECRET);
  });

  it('a ":" in a caller id cannot forge the expiry (coturn splits on the first ":")', () => {
    const { server } = mintTurnCredentials(TURN, 'a:9999999999', 0);
    expect(server.username).toBe('600:a_9999999999');
  });
});

describe('parseTurnConfig', () => {
  it('is null without TURN_URLS and TURN_SECRET', () => {
    expect(parseTurnConfig({})).toBeNull();
    expect(parseTurnConfig({ TURN_URLS: ' ', TURN_SECRET: '' })).toBeNull();
  });

  it('reads a comma list, the secret, and TURN_TTL_S (default 3600)', () => {
    expect(
      parseTurnConfig({ TURN_URLS: 'turn:a:3478?transport=udp, turns:b:5349', TURN_SECRET: SECRET }),
    ).toEqual({
      urls: ['turn:a:3478?transport=udp', 'turns:b:5349'],
      secret: SECRET,
      ttlS: DEFAULT_TURN_TTL_S,
    });
    expect(parseTurnConfig({ TURN_URLS: 'turn:a', TURN_SECRET: SECRET, TURN_TTL_S: '120' })?.ttlS).toBe(120);
  });

  it('refuses half a configuration, non-TURN URLs and bad TTLs, naming the variable but not the secret', () => {
    const cases: Array<[Record<string, string>, RegExp]> = [
      [{ TURN_URLS: 'turn:a' }, /TURN_SECRET is empty/],
      [{ TURN_SECRET: SECRET }, /TURN_URLS is empty/],
      [{ TURN_URLS: 'stun:a:3478', TURN_SECRET: SECRET }, /TURN_URLS: "stun:a:3478"/],
      [{ TURN_URLS: 'turn:a', TURN_SECRET: SECRET, TURN_TTL_S: '10' }, /TURN_TTL_S/],
      [{ TURN_URLS: 'turn:a', TURN_SECRET: SECRET, TURN_TTL_S: '1.5h' }, /TURN_TTL_S/],
    ];
    for (const [env, message] of cases) {
      let error: unknown;
      try {
        parseTurnConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(TurnConfigError);
      expect((error as Error).message).toMatch(message);
      expect((error as Error).message).not.toContain(SECRET);
    }
  });
});

describe('parseIceTransportPolicy', () => {
  it("defaults to 'all'; 'relay' needs a relay", () => {
    expect(parseIceTransportPolicy(undefined, false)).toBe('all');
    expect(parseIceTransportPolicy('ALL', false)).toBe('all');
    expect(parseIceTransportPolicy(' relay ', true)).toBe('relay');
    expect(() => parseIceTransportPolicy('relay', false)).toThrow(/needs TURN_URLS/);
    expect(() => parseIceTransportPolicy('none', true)).toThrow(/"all" or "relay"/);
  });
});

describe('iceAnswerFor', () => {
  const stun = { urls: 'stun:stun.example.org:3478' };
  it('without TURN: the static servers only, no expiry', () => {
    const answer = iceAnswerFor({ iceServers: [stun], turn: null, iceTransportPolicy: 'all' }, 'u1');
    expect(answer).toEqual({ servers: [stun] });
    expect(IceServersResponse.parse(answer)).toEqual(answer);
  });

  it('with TURN: static servers, then the minted entry; the policy; a contract-valid answer', () => {
    const answer = iceAnswerFor({ iceServers: [stun], turn: TURN, iceTransportPolicy: 'relay' }, 'u1', 5_000);
    expect(answer.servers[0]).toEqual(stun);
    expect(answer.servers[1]?.username).toBe('605:u1');
    expect(answer).toMatchObject({ policy: 'relay', expires_at: 605_000 });
    expect(IceServersResponse.parse(answer)).toEqual(answer);
  });

  it('an old answer ({ servers } only) is still valid for new clients', () => {
    expect(IceServersResponse.parse({ servers: [] })).toEqual({ servers: [] });
  });
});

describe('resolveConfig', () => {
  const keys = ['TURN_URLS', 'TURN_SECRET', 'TURN_TTL_S', 'ICE_TRANSPORT_POLICY', 'ICE_SERVERS'] as const;
  const saved = Object.fromEntries(keys.map((k) => [k, process.env[k]]));
  const withEnv = <T>(env: Partial<Record<(typeof keys)[number], string>>, run: () => T): T => {
    for (const k of keys) delete process.env[k];
    Object.assign(process.env, env);
    try {
      return run();
    } finally {
      for (const k of keys) {
        if (saved[k] === undefined) delete process.env[k];
        else process.env[k] = saved[k];
      }
    }
  };

  it('takes the TURN settings and the policy', () => {
    const config = withEnv(
      { TURN_URLS: 'turn:127.0.0.1:3478', TURN_SECRET: SECRET, ICE_TRANSPORT_POLICY: 'relay' },
      () => resolveConfig({ staticDir: null }),
    );
    expect(config.turn).toEqual({ urls: ['turn:127.0.0.1:3478'], secret: SECRET, ttlS: 3600 });
    expect(config.iceTransportPolicy).toBe('relay');
  });

  it('relay with a turn: URL in ICE_SERVERS only is accepted; relay with no relay stops the start', () => {
    const ICE_SERVERS = JSON.stringify([{ urls: 'turn:relay.example.org', username: 'u', credential: 'c' }]);
    expect(
      withEnv({ ICE_SERVERS, ICE_TRANSPORT_POLICY: 'relay' }, () => resolveConfig({ staticDir: null }))
        .iceTransportPolicy,
    ).toBe('relay');
    expect(() =>
      withEnv({ ICE_TRANSPORT_POLICY: 'relay' }, () => resolveConfig({ staticDir: null })),
    ).toThrow(TurnConfigError);
  });
});

describe('GET ice-servers and get_browser_token with TURN (real server)', () => {
  let server: TestServer;
  let user: { id: string; token: string };
  let device: { id: string; device_id: string };
  let deviceToken: string;
  const saved = { TURN_URLS: process.env.TURN_URLS, TURN_SECRET: process.env.TURN_SECRET };

  beforeAll(async () => {
    process.env.TURN_URLS = TURN.urls[0];
    process.env.TURN_SECRET = SECRET;
    try {
      server = await startTestServer();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
    }
    const u = await server.seed.ensureUser({ email: 'turn@example.com', password: 'turn-pw-1' });
    device = await server.seed.ensureDevice({ ownerId: u.id, label: 'Relay box', chipsetId: '23' });
    deviceToken = await server.seed.issueDeviceToken(device.id);
    user = { id: u.id, token: (await login(server, 'turn@example.com', 'turn-pw-1')).token };
  });
  afterAll(async () => {
    await server?.dispose();
  });

  const verify = (entry: { username?: string; credential?: string }, callerId: string) => {
    const [expiry, who] = entry.username!.split(':');
    expect(who).toBe(callerId);
    const lifetime = Number(expiry) - Date.now() / 1000;
    expect(lifetime).toBeGreaterThan(3600 - 30);
    expect(lifetime).toBeLessThanOrEqual(3600);
    expect(entry.credential).toBe(hmac(entry.username!));
  };

  it('mints for the signed-in user', async () => {
    const res = await api(server, 'GET', 'ice-servers', { token: user.token });
    expect(res.status).toBe(200);
    expect(res.body.policy).toBeUndefined();
    expect(res.body.servers).toHaveLength(1);
    expect(res.body.servers[0].urls).toEqual(TURN.urls);
    verify(res.body.servers[0], user.id);
    expect(res.body.expires_at).toBe(Number(res.body.servers[0].username.split(':')[0]) * 1000);
  });

  it('mints for the device behind a device token', async () => {
    const res = await api(server, 'GET', `ice-servers?deviceId=${device.device_id}`, { token: deviceToken });
    expect(res.status).toBe(200);
    verify(res.body.servers[0], device.device_id);
  });

  it('get_browser_token carries the same ICE answer', async () => {
    const res = await api(server, 'POST', 'get_browser_token', {
      token: user.token,
      body: { browser_id: 'web-turn000000000000' },
    });
    expect(res.status).toBe(200);
    expect(typeof res.body.token).toBe('string');
    verify(res.body.servers[0], user.id);
    expect(res.body.expires_at).toBeGreaterThan(Date.now());
  });
});
