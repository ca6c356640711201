/**
 * Remote apps through the device tunnel (spec §7 request_remote_device, issue 8), on the real server with
 * embedded PostgreSQL and the real agent tunnel client: only the owner gets the URL and its cookie, HTTP (small,
 * large, with a body) and WebSocket pass through, everyone else gets 403, a device without tunnel 409, and the
 * agent comes back after its control socket is dropped.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { startTunnelClient, type TunnelClient } from '../../../src/agent/tunnel';
import { silentLogger } from '../../../src/agent/log';
import { TUNNEL_PATH } from '../../../src/protocol/tunnel';
import { remoteBasePath } from '../../../src/protocol/containers';
import { api, eventually, login, startTestServer, type TestServer } from '../server/helpers';
import {
  cookiePair,
  echo,
  openWs,
  patternBytes,
  sha256,
  startWebApp,
  type WebApp,
  requestRemote as requestRemoteAs,
} from './helpers';

const CONTAINER = 'abcdef0123456789abcdef0123456789abcdef0123456789abcdef0123456789';
const OTHER_CONTAINER = '0123456789ab0123456789ab0123456789ab0123456789ab0123456789abcdef';
const SHORT = CONTAINER.slice(0, 12);

let server: TestServer;
let app: WebApp;
let tunnel: TunnelClient;
let owner: string;
let stranger: string;
let device: { id: string; device_id: string };
let offline: { id: string; device_id: string };
let deviceToken: string;
let offlineToken: string;
let base: string;
/** Containers whose web app the fake engine reports (by short id). */
const webApps = new Set<string>([SHORT, OTHER_CONTAINER.slice(0, 12)]);

beforeAll(async () => {
  server = await startTestServer();
  const o = await server.seed.ensureUser({ email: 'owner@example.com', password: 'owner-pw-1' });
  await server.seed.ensureUser({ email: 'stranger@example.com', password: 'stranger-pw-1' });
  device = await server.seed.ensureDevice({ ownerId: o.id, label: 'Jetson', chipsetId: '23' });
  offline = await server.seed.ensureDevice({ ownerId: o.id, label: 'Offline', chipsetId: '0' });
  deviceToken = await server.seed.issueDeviceToken(device.id);
  offlineToken = await server.seed.issueDeviceToken(offline.id);
  owner = (await login(server, 'owner@example.com', 'owner-pw-1')).token;
  stranger = (await login(server, 'stranger@example.com', 'stranger-pw-1')).token;
  base = remoteBasePath(device.device_id, CONTAINER);
  app = await startWebApp(base);
  tunnel = startTunnelClient({
    serverUrl: server.url,
    deviceToken,
    log: silentLogger,
    minBackoffMs: 50,
    maxBackoffMs: 200,
    resolveTarget: async (container) =>
      webApps.has(container.slice(0, 12)) ? { host: '127.0.0.1', port: app.port } : null,
  });
  await eventually(() => tunnel.connected);
});

afterAll(async () => {
  await tunnel?.close();
  await app?.close();
  await server?.dispose();
});

/** request_remote_device as `token` for CONTAINER (or `container`). */
const requestRemote = (token: string, deviceId = device.device_id, container = CONTAINER) =>
  requestRemoteAs(server.url, token, deviceId, container);

/** The owner's remote-session cookie (`edge_remote=…`) for `container`. */
async function ownerCookie(container = CONTAINER): Promise<string> {
  const res = await requestRemote(owner, device.device_id, container);
  expect(res.status).toBe(200);
  return cookiePair(res.setCookie!);
}

const remote = (path: string, init: RequestInit = {}) => fetch(`${server.url}${base}${path}`, init);

describe('request_remote_device', () => {
  it('gives the owner the URL and an HttpOnly, SameSite=Strict cookie for that path only', async () => {
    const before = Date.now();
    const res = await requestRemote(owner);
    expect(res.status).toBe(200);
    expect(res.body.data.url).toBe(`${base}lab`);
    expect(base).toBe(`/remote/${device.device_id}/${SHORT}/`);
    const expires = Date.parse(res.body.data.expires_at);
    expect(expires - before).toBeGreaterThan(8 * 3600 * 1000 - 5000);
    expect(expires - before).toBeLessThanOrEqual(8 * 3600 * 1000 + 5000);
    const attrs = res.setCookie!.split(';').map((s) => s.trim());
    expect(attrs[0]).toMatch(/^edge_remote=[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(attrs).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', `Path=${base}`]));
    expect(attrs).toContain(`Max-Age=${8 * 3600}`);
  });

  it('answers 404 to another user, and sets no cookie', async () => {
    const res = await requestRemote(stranger);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe('Not_found');
    expect(res.setCookie).toBeNull();
  });

  it('answers 409 Device_unreachable for the owner’s device that holds no tunnel', async () => {
    const res = await requestRemote(owner, offline.device_id);
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 'Device_unreachable', message: 'Device is not reachable' });
  });

  it('answers 404 when the agent reports no web app for the container', async () => {
    const res = await requestRemote(owner, device.device_id, 'fedcba9876543210');
    expect(res.status).toBe(404);
    expect(res.setCookie).toBeNull();
  });

  it('answers 401 without a token and 400 for a malformed body', async () => {
    const body = { device_id: device.device_id, target: 'jupyter', data: { container_id: CONTAINER } };
    expect((await api(server, 'POST', 'request_remote_device', { body })).status).toBe(401);
    const bad = await api(server, 'POST', 'request_remote_device', {
      token: owner,
      body: { device_id: device.device_id, target: 'desktop', data: {} },
    });
    expect(bad.status).toBe(400);
  });
});

describe('the proxy, for the owner', () => {
  let cookie: string;
  beforeAll(async () => {
    cookie = await ownerCookie();
  });

  it('forwards GET unchanged and passes the app’s own cookies back, never one of the session cookie', async () => {
    const res = await remote('lab', { headers: { cookie } });
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('hello lab');
    expect(res.headers.get('set-cookie')).toBe(`_xsrf=abc; Path=${base}`);
    expect(app.seen.at(-1)!.url).toBe(`${base}lab`);
  });

  it('strips the session cookie and Authorization, keeps Host and the app’s cookies, sets X-Forwarded-*', async () => {
    const res = await remote('headers?x=1', {
      headers: {
        cookie: `${cookie}; _xsrf=abc`,
        authorization: 'Token secret',
        'x-forwarded-for': '6.6.6.6',
      },
    });
    const seen = (await res.json()) as Record<string, string>;
    expect(seen.cookie).toBe('_xsrf=abc');
    expect(seen.authorization).toBeUndefined();
    expect(seen.host).toBe(new URL(server.url).host);
    expect(seen['x-forwarded-for']).toBe('127.0.0.1');
    expect(seen['x-forwarded-proto']).toBe('http');
    expect(seen['x-forwarded-host']).toBe(new URL(server.url).host);
    expect(app.seen.at(-1)!.url).toBe(`${base}headers?x=1`);
  });

  it('streams a large body (20 MB) intact', async () => {
    const n = 20 * 1024 * 1024;
    const res = await remote(`big?n=${n}`, { headers: { cookie } });
    expect(res.status).toBe(200);
    const body = Buffer.from(await res.arrayBuffer());
    expect(body.length).toBe(n);
    expect(sha256(body)).toBe(sha256(patternBytes(n)));
  });

  it('forwards a POST body (3 MB) and answers the app’s reply', async () => {
    const sent = patternBytes(3 * 1024 * 1024 + 7);
    const res = await remote('echo', {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: new Uint8Array(sent),
    });
    expect(res.status).toBe(200);
    expect(sha256(Buffer.from(await res.arrayBuffer()))).toBe(sha256(sent));
  });

  it('passes the app’s 404 through, and redirects the base path without its slash', async () => {
    const res = await remote('nothing-here', { headers: { cookie } });
    expect(res.status).toBe(404);
    expect(await res.text()).toBe('app: not found');
    const bare = await fetch(`${server.url}${base.slice(0, -1)}?a=b`, { redirect: 'manual' });
    expect(bare.status).toBe(308);
    expect(bare.headers.get('location')).toBe(`${base}?a=b`);
  });

  it('serves many requests at once', async () => {
    const answers = await Promise.all(
      Array.from({ length: 40 }, () => remote('lab', { headers: { cookie } }).then((r) => r.text())),
    );
    expect(new Set(answers)).toEqual(new Set(['hello lab']));
  });

  it('carries a WebSocket both ways (text and binary)', async () => {
    const opened = await openWs(`${server.url.replace('http', 'ws')}${base}ws`, cookie);
    expect(opened.ws).toBeDefined();
    const ws = opened.ws!;
    const text = await echo(ws, 'kernel message');
    expect(text).toEqual({ data: Buffer.from('kernel message'), isBinary: false });
    const blob = patternBytes(256 * 1024);
    const bin = await echo(ws, blob);
    expect(bin.isBinary).toBe(true);
    expect(sha256(bin.data)).toBe(sha256(blob));
    ws.close();
  });
});

describe('the proxy, for anyone else', () => {
  it('answers 403 with a readable page without a cookie', async () => {
    const res = await remote('lab');
    expect(res.status).toBe(403);
    expect(res.headers.get('content-type')).toContain('text/html');
    expect(await res.text()).toContain(
      'This link belongs to another account or has expired. Open it again from the console.',
    );
  });

  it('answers 403 to a forged or tampered cookie', async () => {
    const cookie = await ownerCookie();
    const [name, value] = cookie.split('=') as [string, string];
    const [payload, mac] = value.split('.') as [string, string];
    const forgedPayload = Buffer.from(
      JSON.stringify({ ...JSON.parse(Buffer.from(payload, 'base64url').toString()), u: 'someone-else' }),
    ).toString('base64url');
    for (const bad of [
      `${name}=${forgedPayload}.${mac}`,
      `${name}=${payload}.${mac.slice(0, -2)}AA`,
      `${name}=${payload}`,
      `${name}=garbage`,
    ]) {
      const res = await remote('lab', { headers: { cookie: bad } });
      expect(res.status).toBe(403);
      await res.text();
    }
  });

  it('answers 403 to the cookie of another container or device path', async () => {
    const other = await ownerCookie(OTHER_CONTAINER);
    expect((await remote('lab', { headers: { cookie: other } })).status).toBe(403);
    const cookie = await ownerCookie();
    const elsewhere = await fetch(`${server.url}${remoteBasePath(offline.device_id, CONTAINER)}lab`, {
      headers: { cookie },
    });
    expect(elsewhere.status).toBe(403);
  });

  it('refuses a WebSocket upgrade without a valid cookie with 403', async () => {
    const url = `${server.url.replace('http', 'ws')}${base}ws`;
    const none = await openWs(url);
    expect(none.status).toBe(403);
    expect(none.ws ? '' : none.body).toContain('Open it again from the console.');
    const other = await openWs(url, await ownerCookie(OTHER_CONTAINER));
    expect(other.status).toBe(403);
  });

  it('answers 404 for a path that names no container, 400 for a malformed one', async () => {
    expect((await fetch(`${server.url}/remote/`)).status).toBe(404);
    for (const path of [`/remote/${device.device_id}/`, `/remote/${device.device_id}/a%2Fb/`]) {
      const res = await fetch(`${server.url}${path}`, { redirect: 'manual' });
      expect(res.status).toBe(404);
      expect(await res.text()).toContain('There is no app at this address.');
    }
    expect((await fetch(`${server.url}/remote/%E0%A4%A/x/`)).status).toBe(400);
  });
});

describe('tunnel failures', () => {
  it('answers 502 with a readable page when the container’s web app is gone', async () => {
    const cookie = await ownerCookie(OTHER_CONTAINER);
    webApps.delete(OTHER_CONTAINER.slice(0, 12));
    try {
      const res = await fetch(`${server.url}${remoteBasePath(device.device_id, OTHER_CONTAINER)}lab`, {
        headers: { cookie },
      });
      expect(res.status).toBe(502);
      expect(await res.text()).toContain('The container has no web app running.');
    } finally {
      webApps.add(OTHER_CONTAINER.slice(0, 12));
    }
  });

  it('refuses a control or data socket without a valid device token', async () => {
    const wsBase = server.url.replace('http', 'ws');
    for (const [path, headers] of [
      [TUNNEL_PATH, {}],
      [TUNNEL_PATH, { authorization: `Token ${owner}` }],
      [`${TUNNEL_PATH}/AAAAAAAAAAAAAAAAAAAAAA`, { authorization: `Token ${deviceToken}` }],
    ] as const) {
      const status = await new Promise<number>((resolve) => {
        const ws = new WebSocket(`${wsBase}${path}`, { headers });
        ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
        ws.on('open', () => resolve(101));
        ws.on('error', () => resolve(-1));
      });
      expect(status === 401 || status === 404).toBe(true);
    }
  });

  it('drops malformed control messages without crashing, and closes a socket that keeps sending them', async () => {
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${TUNNEL_PATH}`, {
      headers: { authorization: `Token ${offlineToken}` },
    });
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    // The server now knows the device; it asks this socket whether a container has a web app.
    ws.on('message', (data) => {
      const message = JSON.parse(String(data)) as { type: string; id: string };
      if (message.type === 'check') ws.send(JSON.stringify({ type: 'checked', id: message.id, ok: true }));
    });
    for (const junk of [
      'not json',
      '{}',
      JSON.stringify({ type: 'refused', id: 'short', reason: 'x' }),
      JSON.stringify({ type: 'refused', id: 'A'.repeat(22), reason: 'unknown id' }),
      JSON.stringify({ type: 'checked', id: 'A'.repeat(22), ok: 'yes' }),
      JSON.stringify({ type: 'open', id: 'A'.repeat(22), container: 'x' }),
      JSON.stringify([1, 2, 3]),
      'null',
    ]) {
      ws.send(junk);
    }
    ws.send(Buffer.from([0, 1, 2, 3]), { binary: true });
    const res = await requestRemote(owner, offline.device_id);
    expect(res.status).toBe(200);
    // A flood of malformed messages closes the socket with 1008; the server keeps serving.
    for (let i = 0; i < 300; i++) ws.send('{"type":"nope"}');
    expect(await closed).toBe(1008);
    expect((await requestRemote(owner, offline.device_id)).status).toBe(409);
    // A frame over the size limit closes the socket (1009), nothing else.
    const big = new WebSocket(`${server.url.replace('http', 'ws')}${TUNNEL_PATH}`, {
      headers: { authorization: `Token ${offlineToken}` },
    });
    await new Promise((resolve, reject) => big.once('open', resolve).once('error', reject));
    const bigClosed = new Promise<number>((resolve) => big.once('close', (code) => resolve(code)));
    big.send('x'.repeat(64 * 1024));
    expect(await bigClosed).toBe(1009);
    expect((await requestRemote(owner)).status).toBe(200);
  });

  it('the agent reconnects after the server drops its control socket (replaced by another)', async () => {
    const cookie = await ownerCookie();
    // Another connection with the device's token replaces the agent's, which the server closes.
    const intruder = new WebSocket(`${server.url.replace('http', 'ws')}${TUNNEL_PATH}`, {
      headers: { authorization: `Token ${deviceToken}` },
    });
    const intruderClosed = new Promise<number>((resolve) => intruder.once('close', (code) => resolve(code)));
    await new Promise((resolve, reject) => intruder.once('open', resolve).once('error', reject));
    // The dropped agent reconnects (backoff 50–200 ms) and in turn replaces the intruder: 4000.
    expect(await intruderClosed).toBe(4000);
    await eventually(() => tunnel.connected, 10_000);
    await eventually(async () => {
      const res = await remote('lab', { headers: { cookie } });
      return res.status === 200 && (await res.text()) === 'hello lab';
    }, 10_000);
  });
});
