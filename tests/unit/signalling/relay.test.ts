/**
 * Issue 7, server end, with the real server (embedded PostgreSQL) and a real agent: the signalling server
 * relays only well-formed messages within the size and rate limits, with the sender's own src; a second
 * user's hostile messages to the first user's device never take it off the air.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Peer as PeerType } from 'peerjs';
import type { Socket } from 'node:net';
import type { WebSocket as WsSocket } from 'ws';
import { startAgent } from '../../../src/agent/index';
import type { RunningAgent } from '../../../src/agent/index';
import { Signalling } from '../../../src/agent/link/signalling';
import { SIGNALLING_RATE } from '../../../src/protocol/peerjsMessages';
import { api, eventually, login, startTestServer, type TestServer } from '../server/helpers';
import { captureLogger, greet, openBrowser, RawPeer } from './helpers';
import { hostileMessages, wellFormed } from './messages';

let server: TestServer;
let aliceToken: string;
let bobToken: string;
let deviceId: string;
let aliceId: string;
let agent: RunningAgent;
const agentLog = captureLogger();
const opened: { close(): void }[] = [];
const peers: PeerType[] = [];

beforeAll(async () => {
  server = await startTestServer();
  const alice = await server.seed.ensureUser({ email: 'alice@example.com', password: 'alice-pw-1' });
  await server.seed.ensureUser({ email: 'bob@example.com', password: 'bob-pw-1' });
  const device = await server.seed.ensureDevice({ ownerId: alice.id, label: 'Jetson A', chipsetId: '23' });
  deviceId = device.device_id;
  aliceId = alice.id;
  const deviceToken = await server.seed.issueDeviceToken(device.id);
  aliceToken = (await login(server, 'alice@example.com', 'alice-pw-1')).token;
  bobToken = (await login(server, 'bob@example.com', 'bob-pw-1')).token;
  agent = await startAgent({
    server: server.url,
    token: deviceToken,
    backend: 'sim',
    cameras: 2,
    logger: agentLog,
  });
});

afterAll(async () => {
  for (const o of opened) o.close();
  for (const p of peers) p.destroy();
  await agent?.close();
  await server?.dispose();
});

async function browserToken(userToken: string, browserId: string): Promise<string> {
  const res = await api(server, 'POST', 'get_browser_token', {
    token: userToken,
    body: { browser_id: browserId },
  });
  expect(res.status).toBe(200);
  return res.body.token as string;
}

async function rawPeer(userToken: string, browserId: string): Promise<RawPeer> {
  const peer = await RawPeer.open(server.url, browserId, await browserToken(userToken, browserId));
  opened.push(peer);
  return peer;
}

/**
 * Sends a marker from `from` to `to` (peer id `toId`) after everything else and waits for it: all that
 * `from` sent before has been relayed or dropped.
 */
async function settle(from: RawPeer, to: RawPeer, toId: string): Promise<void> {
  const marker = `marker-${Math.random().toString(36).slice(2)}`;
  from.send({ ...wellFormed.leave(toId), payload: { connectionId: marker } });
  await eventually(() =>
    to.received.some((m) => (m.payload as { connectionId?: string } | undefined)?.connectionId === marker),
  );
}

describe('signalling relay', () => {
  it('relays each well-formed message type, with the sender as src', async () => {
    const b1 = await rawPeer(bobToken, 'web-bobrelayone0001');
    const b2 = await rawPeer(bobToken, 'web-bobrelaytwo0001');
    const sent = [
      wellFormed.offer(b2Id(b2)),
      wellFormed.answer(b2Id(b2)),
      wellFormed.candidate(b2Id(b2)),
      wellFormed.leave(b2Id(b2)),
      { ...wellFormed.candidate(b2Id(b2)), src: 'web-bobrelayone0001' },
    ];
    for (const m of sent) b1.send(m);
    await eventually(() => b2.received.length >= 1 + sent.length);
    expect(b2.received.slice(1)).toEqual(
      sent.map((m) => ({ ...m, src: 'web-bobrelayone0001', dst: 'web-bobrelaytwo0001' })),
    );
  });

  it('drops malformed, oversized, binary and spoofed messages; the sender stays connected', async () => {
    const b1 = await rawPeer(bobToken, 'web-bobdropone00001');
    const b2 = await rawPeer(bobToken, 'web-bobdroptwo00001');
    for (const m of hostileMessages('web-bobdroptwo00001')) b1.send(m);
    b1.ws.send(Buffer.from(JSON.stringify(wellFormed.leave('web-bobdroptwo00001'))), { binary: true });
    b1.send({ ...wellFormed.leave('web-bobdroptwo00001'), pad: 'x'.repeat(100_000) }); // > 64 KB, < 256 KB
    await settle(b1, b2, 'web-bobdroptwo00001');
    // Only OPEN and the marker arrived.
    expect(b2.received.map((m) => m.type)).toEqual(['OPEN', 'LEAVE']);
    expect(b1.closeCode).toBeNull();
  });

  it('closes a socket that sends a frame over 256 KB', async () => {
    const b1 = await rawPeer(bobToken, 'web-bobhugeframe001');
    b1.send({ type: 'HEARTBEAT', pad: 'x'.repeat(300_000) });
    await eventually(() => b1.closeCode !== null);
    expect(b1.closeCode).toBe(1009);
  });

  it('rate-limits each peer (token bucket), not the others', async () => {
    const b1 = await rawPeer(bobToken, 'web-bobfloodone0001');
    const b2 = await rawPeer(bobToken, 'web-bobfloodtwo0001');
    const t0 = Date.now();
    for (let i = 0; i < 3 * SIGNALLING_RATE.capacity; i++)
      b1.send(wellFormed.candidate('web-bobfloodtwo0001', `dc_${i}`));
    await b1.flushed();
    const candidates = () => b2.received.filter((m) => m.type === 'CANDIDATE').length;
    // The burst arrives (however slow the machine), then nothing more for 300 ms: the rest was dropped.
    await eventually(() => candidates() >= SIGNALLING_RATE.capacity, 10_000);
    let seen = -1;
    await eventually(async () => {
      const before = candidates();
      await new Promise((r) => setTimeout(r, 300));
      const settled = before === candidates() && before === seen;
      seen = candidates();
      return settled;
    }, 10_000);
    const elapsed = (Date.now() - t0) / 1000;
    const got = candidates();
    expect(got).toBeGreaterThanOrEqual(SIGNALLING_RATE.capacity);
    expect(got).toBeLessThanOrEqual(
      SIGNALLING_RATE.capacity + Math.ceil(elapsed * SIGNALLING_RATE.perSecond) + 5,
    );
    // Another peer is not limited by b1's flood.
    const b3 = await rawPeer(bobToken, 'web-bobquietpeer001');
    await settle(b3, b2, 'web-bobfloodtwo0001');
  });
});

describe('relay between users', () => {
  it('relays nothing from one user’s peer to another user’s peer; the same message between one user’s peers arrives', async () => {
    const alicePeer = await rawPeer(aliceToken, 'web-aliceowner00002');
    const bobPeer = await rawPeer(bobToken, 'web-bobforeign00001');
    const alicePeer2 = await rawPeer(aliceToken, 'web-aliceowner00003');
    bobPeer.send(wellFormed.offer('web-aliceowner00002', 'dc_frombob'));
    bobPeer.send(wellFormed.candidate('web-aliceowner00002', 'dc_frombob'));
    await bobPeer.flushed();
    alicePeer2.send(wellFormed.offer('web-aliceowner00002', 'dc_fromalice'));
    await settle(alicePeer2, alicePeer, 'web-aliceowner00002');
    const ids = alicePeer.received.map(
      (m) => (m.payload as { connectionId?: string } | undefined)?.connectionId,
    );
    expect(ids).toContain('dc_fromalice');
    expect(ids).not.toContain('dc_frombob');
    expect(bobPeer.closeCode).toBeNull();
  });
});

function b2Id(p: RawPeer): string {
  return new URL(p.ws.url).searchParams.get('id')!;
}

describe('a second user against the first user’s device', () => {
  it('cannot take it off the air: the owner still connects and gets a ping reply', async () => {
    const hostile = await rawPeer(bobToken, 'web-bobhostile00001');
    for (const m of hostileMessages(deviceId)) hostile.send(m);
    for (let i = 0; i < 2_000; i++) hostile.send({ type: 'OFFER', dst: deviceId });
    await hostile.flushed();

    const browserId = 'web-aliceowner00001';
    const alice = await openBrowser(server.url, browserId, await browserToken(aliceToken, browserId));
    peers.push(alice);
    const grant = await api(server, 'POST', 'device-grant', {
      token: aliceToken,
      body: { device_id: deviceId, browser_id: browserId },
    });
    expect(grant.status).toBe(200);
    const link = await greet(alice, deviceId, grant.body.grant as string);
    await expect(link.call('ping', {})).resolves.toMatchObject({ ok: true, data: { pong: true } });
    expect((await api(server, 'GET', `peerjs/peerjs/${deviceId}`, { token: aliceToken })).body).toEqual({
      isOnline: true,
    });
    // Nothing malformed reached the agent: the server dropped it all.
    expect(agentLog.has(/signalling message (dropped|failed)/)).toBe(false);
  });
});

describe('watchdog against the real server', () => {
  it('re-registers an agent whose socket was silently dropped; the server answers the re-attach with OPEN', async () => {
    const device = await server.seed.ensureDevice({ ownerId: aliceId, label: 'Jetson B', chipsetId: '23' });
    const token = await server.seed.issueDeviceToken(device.id);
    const log = captureLogger();
    const incoming: string[] = [];
    const signalling = new Signalling({
      serverUrl: server.url,
      deviceId: device.device_id,
      deviceToken: token,
      iceServers: [],
      logger: log,
      onConnection: (conn) => {
        incoming.push(conn.peer);
        conn.close();
      },
      watchdog: { intervalMs: 400, timeoutMs: 400 },
    });
    opened.push(signalling);
    await signalling.start();
    await eventually(() => log.has(/watchdog: probe answered/));

    // The connection goes quiet both ways; neither end sees it close (the server still has the device).
    const ws = (signalling.currentPeer!.socket as unknown as { _socket: WsSocket })._socket;
    const sock = (ws as unknown as { _socket: Socket })._socket;
    sock.pause();
    sock.write = ((_chunk: unknown, enc?: unknown, cb?: unknown) => {
      const done = typeof enc === 'function' ? enc : cb;
      if (typeof done === 'function') process.nextTick(done as () => void);
      return true;
    }) as Socket['write'];
    opened.push({ close: () => ws.terminate() });

    await eventually(() => log.has(/reconnected to signalling/), 10_000);
    expect(log.has(/no probe back within 400 ms; reconnecting/)).toBe(true);
    expect(signalling.connected).toBe(true);
    expect(
      (await api(server, 'GET', `check/peerjs/${device.device_id}`, { token: aliceToken })).body,
    ).toEqual({ exist: true });

    // A browser reaches it through the new socket.
    const browserId = 'web-alicewatchdog001';
    const alice = await openBrowser(server.url, browserId, await browserToken(aliceToken, browserId));
    peers.push(alice);
    alice.connect(device.device_id, { serialization: 'json', reliable: true });
    await eventually(() => incoming.includes(browserId), 10_000);
  });
});
