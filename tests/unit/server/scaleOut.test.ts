/**
 * Issue 15 "Scale-out past one server", at the signalling protocol level: two server instances (two
 * startServer calls, each its own PeerJS server, presence and LISTEN connections) on one PostgreSQL — B uses
 * A's embedded cluster through DATABASE_URL. Real WebSocket peers: a browser on A and a device on B exchange
 * an OFFER bigger than NOTIFY's 8000-byte payload limit and its ANSWER; presence and peer-id ownership read
 * the same from both; a token revoked on A closes the device's socket on B; B closing takes its peers off A's
 * presence. (tests/e2e/scaleOut.spec.ts does the same with Chromium and a real agent behind one proxy port.)
 */
import type { WebSocket } from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  api,
  embeddedUrl,
  eventually,
  login,
  openPeerSocket,
  startTestServer,
  type TestServer,
} from './helpers';

let a: TestServer;
let b: TestServer;
let alice: string;
let bob: string;
let deviceRow = '';
let deviceId = '';
const BROWSER = 'web-scaleout00000001';

beforeAll(async () => {
  a = await startTestServer();
  b = await startTestServer({ databaseUrl: embeddedUrl(a.dataDir) });
  const owner = await a.seed.ensureUser({ email: 'alice@scale.test', password: 'alice-pw-1' });
  await a.seed.ensureUser({ email: 'bob@scale.test', password: 'bob-pw-1' });
  const d = await a.seed.ensureDevice({
    ownerId: owner.id,
    label: 'Scale box',
    chipsetId: '23',
    jetpack: '6.0',
  });
  deviceRow = d.id;
  deviceId = d.device_id;
  alice = (await login(a, 'alice@scale.test', 'alice-pw-1')).token;
  bob = (await login(b, 'bob@scale.test', 'bob-pw-1')).token;
}, 120_000);

afterAll(async () => {
  await b?.dispose();
  await a?.dispose();
});

/** The next message on `ws` that passes `match`. */
function next(ws: WebSocket, match: (m: { type: string }) => boolean): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const on = (data: Buffer) => {
      const m = JSON.parse(String(data)) as { type: string };
      if (match(m)) {
        ws.off('message', on);
        resolve(m as Record<string, unknown>);
      }
    };
    ws.on('message', on);
  });
}

async function browserToken(server: TestServer, token: string, id: string) {
  return api(server, 'POST', 'get_browser_token', { token, body: { browser_id: id } });
}

const online = async (server: TestServer) =>
  (await api(server, 'GET', 'get-online-devices', { token: alice })).body.onlineDevices as string[];

describe('two instances on one PostgreSQL', () => {
  let device: WebSocket;
  let browser: WebSocket;

  it('shows a device registered on B as online from A', async () => {
    const deviceToken = await a.seed.issueDeviceToken(deviceRow);
    const open = await openPeerSocket(b, deviceId, deviceToken);
    expect(open.opened).toBe(true);
    if (!open.opened) return;
    device = open.socket;
    await eventually(async () => (await online(a)).includes(deviceId));
    expect(await online(b)).toContain(deviceId);
  });

  it('relays an OFFER over 8000 bytes from a browser on A to the device on B, and its ANSWER back', async () => {
    const res = await browserToken(a, alice, BROWSER);
    expect(res.status).toBe(200);
    const open = await openPeerSocket(a, BROWSER, res.body.token);
    expect(open.opened).toBe(true);
    if (!open.opened) return;
    browser = open.socket;
    // The browser's registration reaches B's mirror (B relays the ANSWER to it).
    const sdp = 'v=0\r\n' + 'a=x-pad:'.padEnd(12_000, 'p') + '\r\n';
    const offer = {
      type: 'OFFER',
      dst: deviceId,
      payload: {
        type: 'data',
        connectionId: 'dc_scale1',
        sdp: { type: 'offer', sdp },
        serialization: 'json',
      },
    };
    const got = next(device, (m) => m.type === 'OFFER');
    await eventually(async () => (await online(b)).includes(deviceId));
    browser.send(JSON.stringify(offer));
    const arrived = await got;
    expect(arrived).toMatchObject({ type: 'OFFER', src: BROWSER, dst: deviceId });
    expect((arrived.payload as { sdp: { sdp: string } }).sdp.sdp).toBe(sdp);

    const answered = next(browser, (m) => m.type === 'ANSWER');
    device.send(
      JSON.stringify({
        type: 'ANSWER',
        dst: BROWSER,
        payload: { type: 'data', connectionId: 'dc_scale1', sdp: { type: 'answer', sdp: 'v=0\r\n' } },
      }),
    );
    expect(await answered).toMatchObject({ type: 'ANSWER', src: deviceId, dst: BROWSER });
  });

  it('keeps a browser peer id registered on A bound to its user on B', async () => {
    const res = await browserToken(b, bob, BROWSER);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('Peer_id_taken');
  });

  it('drops a message from another user on B to the device (the owner check sees A and B alike)', async () => {
    const bobId = 'web-scaleoutbob00001';
    const res = await browserToken(b, bob, bobId);
    const open = await openPeerSocket(a, bobId, res.body.token);
    expect(open.opened).toBe(true);
    if (!open.opened) return;
    let offers = 0;
    const count = (data: Buffer) => {
      if ((JSON.parse(String(data)) as { src?: string }).src === bobId) offers++;
    };
    device.on('message', count);
    open.socket.send(
      JSON.stringify({
        type: 'OFFER',
        dst: deviceId,
        payload: {
          type: 'data',
          connectionId: 'dc_bob',
          sdp: { type: 'offer', sdp: 'v=0' },
          serialization: 'json',
        },
      }),
    );
    // A message of alice's browser sent after it arrives; bob's never does.
    const mark = next(device, (m) => m.type === 'CANDIDATE');
    browser.send(
      JSON.stringify({
        type: 'CANDIDATE',
        dst: deviceId,
        payload: {
          type: 'data',
          connectionId: 'dc_scale1',
          candidate: { candidate: 'candidate:1 1 udp 1 127.0.0.1 9 typ host' },
        },
      }),
    );
    await mark;
    device.off('message', count);
    expect(offers).toBe(0);
    open.socket.close();
  });

  it('closes the device socket on B when its token is replaced on A', async () => {
    const closed = new Promise<number>((resolve) => device.once('close', (code) => resolve(code)));
    const res = await api(a, 'POST', 'generate_token', { token: alice, body: { id: deviceRow } });
    expect(res.status).toBe(200);
    expect(await closed).toBe(4001);
    await eventually(async () => !(await online(a)).includes(deviceId));
  });

  it('takes the peers of a closed instance off the others', async () => {
    const deviceToken = await a.seed.issueDeviceToken(deviceRow);
    const open = await openPeerSocket(b, deviceId, deviceToken);
    expect(open.opened).toBe(true);
    await eventually(async () => (await online(a)).includes(deviceId));
    browser.close();
    await b.close();
    await eventually(async () => !(await online(a)).includes(deviceId));
  });
});
