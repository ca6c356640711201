/**
 * The tunnel's pieces without PostgreSQL: the server hub with the real agent client over a bare HTTP server
 * (echo target, refusals, the per-device cap, time-outs, malformed messages both ways, close), the remote
 * sessions (signature, expiry, cookie handling) and the proxy's access decision (ownership lost → 403).
 */
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { FastifyBaseLogger } from 'fastify';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { silentLogger } from '../../../src/agent/log';
import { startTunnelClient } from '../../../src/agent/tunnel';
import { TUNNEL_PATH } from '../../../src/protocol/tunnel';
import { remoteBasePath } from '../../../src/protocol/containers';
import { TunnelError, TunnelHub } from '../../../src/server/tunnel/hub';
import { parseRemotePath, RemoteProxy } from '../../../src/server/tunnel/proxy';
import {
  cookieValues,
  REMOTE_COOKIE,
  RemoteSessions,
  sessionCookie,
  withoutCookie,
} from '../../../src/server/tunnel/session';
import { eventually } from '../server/helpers';

const silent = {
  level: 'silent',
  info: () => {},
  warn: () => {},
  error: () => {},
  debug: () => {},
  trace: () => {},
  fatal: () => {},
  silent: () => {},
  child: () => silent,
} as unknown as FastifyBaseLogger;

const DEVICE = 'dev-0123456789abcdef';

/** A TCP echo server (the "web app"). */
let echoServer: net.Server;
let echoPort: number;
beforeAll(async () => {
  echoServer = net.createServer((s) => s.pipe(s));
  await new Promise<void>((resolve) => echoServer.listen(0, '127.0.0.1', resolve));
  echoPort = (echoServer.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => echoServer.close(() => resolve())));

/** A bare HTTP server routing the tunnel's upgrades to `hub` as device DEVICE (no token check here). */
async function hubServer(hub: TunnelHub) {
  const server = http.createServer((_req, res) => res.writeHead(404).end());
  server.on('upgrade', (req, socket: Duplex, head: Buffer) => {
    socket.on('error', () => socket.destroy());
    const path = req.url ?? '';
    if (path === TUNNEL_PATH) return hub.acceptControl(DEVICE, req, socket, head);
    if (!hub.acceptData(DEVICE, path.slice(TUNNEL_PATH.length + 1), req, socket, head)) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        hub.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Reads from `stream` until `n` bytes arrived. */
function readBytes(stream: Duplex, n: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const parts: Buffer[] = [];
    let got = 0;
    const onData = (c: Buffer) => {
      parts.push(c);
      got += c.length;
      if (got >= n) {
        stream.off('data', onData);
        resolve(Buffer.concat(parts));
      }
    };
    stream.on('data', onData);
    stream.once('error', reject);
  });
}

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(options: ConstructorParameters<typeof TunnelHub>[1] = {}) {
  const hub = new TunnelHub(silent, { openTimeoutMs: 2000, checkTimeoutMs: 2000, ...options });
  const server = await hubServer(hub);
  cleanups.push(server.close);
  const client = startTunnelClient({
    serverUrl: server.url,
    deviceToken: 'test-token',
    log: silentLogger,
    minBackoffMs: 20,
    maxBackoffMs: 50,
    resolveTarget: async (container) => {
      if (container === 'echo') return { host: '127.0.0.1', port: echoPort };
      if (container === 'closed-port') return { host: '127.0.0.1', port: 1 };
      if (container === 'broken') throw new Error('engine down');
      return null;
    },
  });
  cleanups.push(() => client.close());
  await eventually(() => hub.isConnected(DEVICE));
  return { hub, server, client };
}

describe('TunnelHub with the agent client', () => {
  it('opens a tunnel connection that carries bytes both ways', async () => {
    const { hub } = await setup();
    const stream = await hub.openStream(DEVICE, 'echo');
    const payload = Buffer.alloc(300_000, 9);
    const back = readBytes(stream, payload.length);
    stream.write(payload);
    expect((await back).equals(payload)).toBe(true);
    expect(hub.connectionCount(DEVICE)).toBe(1);
    stream.destroy();
    await eventually(() => hub.connectionCount(DEVICE) === 0);
  });

  it('answers check: ok for a web app, missing for none or a failing engine', async () => {
    const { hub } = await setup();
    expect(await hub.check(DEVICE, 'echo')).toBe('ok');
    expect(await hub.check(DEVICE, 'nothing')).toBe('missing');
    expect(await hub.check(DEVICE, 'broken')).toBe('missing');
    expect(await hub.check('dev-other', 'echo')).toBe('unreachable');
  });

  it('rejects with 502 and the agent’s reason when there is no app, the engine fails or the port is closed', async () => {
    const { hub } = await setup();
    for (const [container, reason] of [
      ['nothing', 'The container has no web app running.'],
      ['broken', 'The app could not be found: engine down'],
      ['closed-port', 'The app refused the connection (ECONNREFUSED).'],
    ]) {
      const err = await hub.openStream(DEVICE, container!).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TunnelError);
      expect(err).toMatchObject({ status: 502, reason });
    }
    await expect(hub.openStream('dev-other', 'echo')).rejects.toMatchObject({ status: 502 });
    expect(hub.connectionCount(DEVICE)).toBe(0);
  });

  it('caps connections per device with 503 and frees the slot when one closes', async () => {
    const { hub } = await setup({ maxConnectionsPerDevice: 2 });
    const a = await hub.openStream(DEVICE, 'echo');
    const b = await hub.openStream(DEVICE, 'echo');
    await expect(hub.openStream(DEVICE, 'echo')).rejects.toMatchObject({ status: 503 });
    a.destroy();
    await eventually(() => hub.connectionCount(DEVICE) === 1);
    const c = await hub.openStream(DEVICE, 'echo');
    b.destroy();
    c.destroy();
  });

  it('stops reconnecting once closed', async () => {
    const { hub, client } = await setup();
    await client.close();
    await eventually(() => !hub.isConnected(DEVICE));
    await new Promise((r) => setTimeout(r, 300)); // several back-off periods (20–50 ms)
    expect(hub.isConnected(DEVICE)).toBe(false);
  });
});

describe('TunnelHub with a hand-written agent', () => {
  async function rawAgent(hub: TunnelHub) {
    const server = await hubServer(hub);
    cleanups.push(server.close);
    const ws = new WebSocket(`${server.url.replace('http', 'ws')}${TUNNEL_PATH}`);
    await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
    cleanups.push(() => ws.terminate());
    return ws;
  }

  it('rejects with 504 when the agent never opens the data socket, and fails waiting opens on disconnect', async () => {
    const hub = new TunnelHub(silent, { openTimeoutMs: 100 });
    const ws = await rawAgent(hub);
    await expect(hub.openStream(DEVICE, 'echo')).rejects.toMatchObject({ status: 504 });
    const waiting = hub.openStream(DEVICE, 'echo');
    ws.terminate();
    await expect(waiting).rejects.toMatchObject({ status: 502, reason: 'The device disconnected.' });
    expect(hub.connectionCount(DEVICE)).toBe(0);
  });

  it('ignores answers for another id and malformed ones, within the rate limit', async () => {
    const hub = new TunnelHub(silent, { checkTimeoutMs: 500, messagesPerSecond: 5 });
    const ws = await rawAgent(hub);
    const checks: string[] = [];
    ws.on('message', (data) => checks.push((JSON.parse(String(data)) as { id: string }).id));
    const answer = hub.check(DEVICE, 'echo');
    await eventually(() => checks.length === 1);
    ws.send(JSON.stringify({ type: 'checked', id: 'B'.repeat(22), ok: true }));
    ws.send(JSON.stringify({ type: 'checked', id: checks[0], ok: 'yes' }));
    // Over the rate limit (burst 10): dropped, so the check times out unanswered.
    for (let i = 0; i < 12; i++) ws.send('{}');
    ws.send(JSON.stringify({ type: 'checked', id: checks[0], ok: true }));
    expect(await answer).toBe('unreachable');
    expect(hub.isConnected(DEVICE)).toBe(true);
  });
});

describe('the agent client against a hostile server', () => {
  it('survives malformed server messages and still serves a valid open', async () => {
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await new Promise((resolve) => wss.once('listening', resolve));
    const port = (wss.address() as AddressInfo).port;
    const refused = new Promise<unknown>((resolve) => {
      wss.on('connection', (ws) => {
        ws.on('message', (data) => resolve(JSON.parse(String(data))));
        for (const junk of [
          'x',
          '{}',
          '[]',
          'null',
          JSON.stringify({ type: 'open', id: '1', container: 'a' }),
        ]) {
          ws.send(junk);
        }
        ws.send(Buffer.from([1, 2, 3]));
        ws.send(JSON.stringify({ type: 'open', id: 'C'.repeat(22), container: '../../etc' }));
        ws.send(JSON.stringify({ type: 'open', id: 'D'.repeat(22), container: 'nothing' }));
      });
    });
    const client = startTunnelClient({
      serverUrl: `http://127.0.0.1:${port}`,
      deviceToken: 't',
      log: silentLogger,
      resolveTarget: async () => null,
    });
    try {
      expect(await refused).toEqual({
        type: 'refused',
        id: 'D'.repeat(22),
        reason: 'The container has no web app running.',
      });
    } finally {
      await client.close();
      for (const c of wss.clients) c.terminate();
      await new Promise((resolve) => wss.close(resolve));
    }
  });
});

describe('remote sessions', () => {
  const sessions = new RemoteSessions(Buffer.alloc(32, 1));
  const now = Math.floor(Date.now() / 1000);
  const session = { userId: 'u1', deviceId: DEVICE, container: 'abcdef012345', exp: now + 60 };

  it('verifies what it signed, refuses tampering, another key and expiry', () => {
    const value = sessions.sign(session);
    expect(sessions.verify(value)).toEqual(session);
    expect(sessions.verify(value, now + 61)).toBeNull();
    expect(new RemoteSessions(Buffer.alloc(32, 2)).verify(value)).toBeNull();
    const [payload, mac] = value.split('.') as [string, string];
    expect(sessions.verify(`${payload}x.${mac}`)).toBeNull();
    expect(sessions.verify(`${payload}.`)).toBeNull();
    expect(sessions.verify('')).toBeNull();
    expect(sessions.verify('a'.repeat(5000))).toBeNull();
  });

  it('picks the session of the right device and container among several cookies', () => {
    const other = sessions.sign({ ...session, container: '999999999999' });
    const mine = sessions.sign(session);
    const header = `a=1; ${REMOTE_COOKIE}=${other}; ${REMOTE_COOKIE}=${mine}; b=2`;
    expect(cookieValues(header, REMOTE_COOKIE)).toEqual([other, mine]);
    expect(sessions.fromCookieHeader(header, DEVICE, 'abcdef012345')).toEqual(session);
    expect(sessions.fromCookieHeader(header, 'dev-x', 'abcdef012345')).toBeNull();
    expect(withoutCookie(header, REMOTE_COOKIE)).toBe('a=1; b=2');
    expect(withoutCookie(`${REMOTE_COOKIE}=x`, REMOTE_COOKIE)).toBeUndefined();
  });

  it('writes an HttpOnly, SameSite=Strict cookie for one path, Secure over HTTPS', () => {
    expect(sessionCookie('v', '/remote/d/c/', 60, false)).toBe(
      `${REMOTE_COOKIE}=v; Path=/remote/d/c/; Max-Age=60; HttpOnly; SameSite=Strict`,
    );
    expect(sessionCookie('v', '/remote/d/c/', 60, true)).toMatch(/; Secure$/);
  });
});

describe('the proxy’s access decision', () => {
  const sessions = new RemoteSessions(Buffer.alloc(32, 3));
  const container = 'abcdef0123456789';
  const base = remoteBasePath(DEVICE, container);
  const cookie = (exp: number, userId = 'u1') =>
    `${REMOTE_COOKIE}=${sessions.sign({ userId, deviceId: DEVICE, container: container.slice(0, 12), exp })}`;
  const request = (url: string, c?: string) =>
    ({ url, headers: c ? { cookie: c } : {} }) as unknown as http.IncomingMessage;
  const future = Math.floor(Date.now() / 1000) + 3600;

  it('admits the owner’s session for its path only', async () => {
    const proxy = new RemoteProxy(async (u) => u === 'u1', new TunnelHub(silent), sessions, silent);
    expect(await proxy.access(request(`${base}lab?x=1`, cookie(future)))).toEqual({
      ok: true,
      target: { deviceId: DEVICE, container: container.slice(0, 12) },
    });
    expect(await proxy.access(request(`${base}lab`))).toMatchObject({ ok: false, page: { status: 403 } });
    expect(await proxy.access(request(`${base}lab`, cookie(future - 7200)))).toMatchObject({
      ok: false,
      page: { status: 403 },
    });
    expect(
      await proxy.access(request(remoteBasePath('dev-other', container) + 'lab', cookie(future))),
    ).toMatchObject({ ok: false, page: { status: 403 } });
  });

  it('refuses a user who no longer owns the device, or when the check fails', async () => {
    const proxy = new RemoteProxy(async () => false, new TunnelHub(silent), sessions, silent);
    expect(await proxy.access(request(`${base}lab`, cookie(future)))).toMatchObject({
      ok: false,
      page: { status: 403 },
    });
    const failing = new RemoteProxy(
      () => Promise.reject(new Error('db down')),
      new TunnelHub(silent),
      sessions,
      silent,
    );
    expect(await failing.access(request(`${base}lab`, cookie(future)))).toMatchObject({ ok: false });
  });

  it('parses remote paths', () => {
    expect(parseRemotePath(`${base}api/kernels?x=/`)).toEqual({
      deviceId: DEVICE,
      container: container.slice(0, 12),
    });
    expect(parseRemotePath(base.slice(0, -1))).toBe('slash');
    expect(parseRemotePath('/remote/')).toBeNull();
    expect(parseRemotePath('/api/x')).toBeNull();
    expect(parseRemotePath('/remote/%E0%A4%A/abc/')).toBeNull();
    expect(parseRemotePath('/remote/d/../x/')).toBeNull();
  });
});
