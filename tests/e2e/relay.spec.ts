/**
 * Issue 15 "Relayed WebRTC" on the real stack: Debian's coturn as the TURN server, credentials minted by the
 * server (TURN REST API shared secret, src/server/signalling/turn.ts) and ICE_TRANSPORT_POLICY=relay, so the
 * browser and the agents may only use relayed candidates. The test starts its own `turnserver` (no daemon:
 * loopback, a free port, a random secret, loopback peers allowed since both ends live on this machine) and its
 * own stack (`src/start.ts`: server, embedded PostgreSQL, three simulated agents) with the TURN settings, then
 * signs in, runs a device command over the device link, plays a camera, and proves both went through coturn:
 * each connected peer connection's selected candidate pair is relay/relay (getStats) and coturn logged
 * allocations. coturn's and the stack's logs are attached to a failing test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { startTurnServer, type TestTurnServer } from '../coturn';
import { test as base, expect, type Page } from './fixtures';
import {
  DEMO,
  apiLogin,
  connectDevices,
  decodedFrame,
  listDevices,
  navigate,
  signIn,
  waitAllOnline,
} from './stack';

interface RelayStack {
  url: string;
  turn: TestTurnServer;
  stackLog: string;
}

/** A free TCP port on 127.0.0.1. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves when the process has exited. */
async function stop(proc: ChildProcess | null, graceMs: number): Promise<void> {
  if (!proc || proc.exitCode !== null || proc.signalCode !== null) return;
  const exited = new Promise<void>((r) => proc.once('exit', () => r()));
  proc.kill('SIGTERM');
  const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

const test = base.extend<object, { relayStack: RelayStack }>({
  relayStack: [
    // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern
    async ({}, provide) => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'edge-relay-'));
      const stackLog = path.join(dir, 'stack.log');
      let turn: TestTurnServer | null = null;
      let stack: ChildProcess | null = null;
      try {
        turn = await startTurnServer(dir);
        const port = await freePort();
        stack = spawn(process.execPath, ['--import', 'tsx', 'src/start.ts'], {
          stdio: ['ignore', openSync(stackLog, 'w'), openSync(stackLog, 'a')],
          env: {
            ...process.env,
            PORT: String(port),
            DATA_DIR: path.join(dir, 'data'),
            REMOVE_DATA_DIR_ON_STOP: '1',
            BUILD_CONSOLE: '0',
            DEMO_EMAIL: DEMO.email,
            DEMO_PASSWORD: DEMO.password,
            LOG_LEVEL: 'error',
            AGENT_LOGS: '1',
            LOGIN_RATE_LIMIT_PER_MIN: '1000',
            TURN_URLS: turn.url,
            TURN_SECRET: turn.secret,
            TURN_TTL_S: '600',
            ICE_TRANSPORT_POLICY: 'relay',
          },
        });
        const url = `http://127.0.0.1:${port}`;
        const end = Date.now() + 150_000;
        for (;;) {
          if (stack.exitCode !== null)
            throw new Error(`the relay stack exited (${stack.exitCode}), see ${stackLog}`);
          const up = await fetch(`${url}/api/demo-account`).then(
            (r) => r.ok,
            () => false,
          );
          if (up) break;
          if (Date.now() > end) throw new Error(`the relay stack did not start, see ${stackLog}`);
          await new Promise((r) => setTimeout(r, 500));
        }
        await provide({ url, turn, stackLog });
      } finally {
        await stop(stack, 20_000);
        await turn?.stop();
        // A failed test has its logs attached (copied) already; the rest of the directory goes.
        rmSync(dir, { recursive: true, force: true });
      }
    },
    { scope: 'worker', timeout: 240_000 },
  ],
  baseURL: async ({ relayStack }, provide) => provide(relayStack.url),
});

test.afterEach(async ({ relayStack }, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  await testInfo.attach('turnserver.log', { path: relayStack.turn.log, contentType: 'text/plain' });
  await testInfo.attach('stack.log', { path: relayStack.stackLog, contentType: 'text/plain' });
});

/** Each connected peer connection of the page: what it carries, its policy, its selected pair's candidate types. */
async function relayedPairs(page: Page) {
  return page.evaluate(async () => {
    const pcs = (window as unknown as { __relayPcs: Array<{ pc: RTCPeerConnection; policy: string }> })
      .__relayPcs;
    const out: Array<{ video: boolean; policy: string; local?: string; remote?: string }> = [];
    for (const { pc, policy } of pcs) {
      if (pc.connectionState !== 'connected') continue;
      const stats = await pc.getStats();
      let pair: RTCIceCandidatePairStats | undefined;
      stats.forEach((s: { type: string; selectedCandidatePairId?: string }) => {
        if (s.type === 'transport' && s.selectedCandidatePairId) pair = stats.get(s.selectedCandidatePairId);
      });
      out.push({
        video: pc.getReceivers().some((r) => r.track.kind === 'video'),
        policy,
        local: pair && stats.get(pair.localCandidateId)?.candidateType,
        remote: pair && stats.get(pair.remoteCandidateId)?.candidateType,
      });
    }
    return out;
  });
}

test('relay-only ICE through coturn: a device command and a playing camera', async ({
  page,
  request,
  relayStack,
}) => {
  test.setTimeout(180_000);
  const token = await apiLogin(request, DEMO);
  await waitAllOnline(request, token, 3);
  const devices = Object.fromEntries(
    (await listDevices(request, token)).res.map((d) => [d.label, d.device_id]),
  );
  const boxB = devices['x86 Edge Box B']!;

  // The ICE answer: the minted TURN entry (`<expiry>:<user id>`) and the relay policy.
  const ice = await request.get('/api/ice-servers', { headers: { Authorization: `Token ${token}` } });
  expect(ice.status()).toBe(200);
  const answer = (await ice.json()) as {
    servers: Array<{ urls: string[]; username: string; credential: string }>;
    policy: string;
    expires_at: number;
  };
  expect(answer.policy).toBe('relay');
  expect(answer.servers).toHaveLength(1);
  expect(answer.servers[0]!.username).toMatch(/^\d{10}:[0-9a-f-]{36}$/);
  expect(answer.expires_at).toBeGreaterThan(Date.now());

  // Every peer connection the page makes (PeerJS's device link, the stream's) is kept for getStats.
  await page.addInitScript(() => {
    const Native = window.RTCPeerConnection;
    const list: Array<{ pc: RTCPeerConnection; policy: string }> = [];
    (window as unknown as { __relayPcs: typeof list }).__relayPcs = list;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        list.push({ pc: this, policy: config?.iceTransportPolicy ?? 'all' });
      }
    };
  });
  await signIn(page, DEMO);

  // A device command over the relayed device link: the device page's GPU driver check of an x86 box.
  await navigate(page, '/control-panel/devices');
  await page.getByTestId(`device-open-${boxB}`).click();
  await expect(page.getByTestId('device-page')).toBeVisible();
  await page.getByTestId('overview-connect').click();
  await expect(page.getByTestId('overview-disconnect')).toBeVisible({ timeout: 30_000 });
  await page.getByTestId('gpu-check').click();
  await expect(page.getByTestId('gpu-result')).toContainText('Driver 550.54.15');

  // A camera over a relayed media connection: it decodes frames and its time advances.
  await connectDevices(page, [boxB]);
  await navigate(page, '/control-panel/cameras');
  await page.locator(`[data-testid^="camera-open-${boxB}-"]`).first().click();
  const video = page.locator('[data-testid^="stream-cell-"] video').first();
  await expect(video).toBeVisible({ timeout: 30_000 });
  const frame = await decodedFrame(video);
  expect(frame.width).toBeGreaterThan(0);
  const t0 = await video.evaluate((v: HTMLVideoElement) => v.currentTime);
  await expect.poll(() => video.evaluate((v: HTMLVideoElement) => v.currentTime)).toBeGreaterThan(t0 + 1);

  // Both connections went through the relay: relay/relay selected pairs, and coturn allocated for them.
  const pairs = await relayedPairs(page);
  expect(pairs.filter((p) => p.video)).toHaveLength(1);
  expect(pairs.filter((p) => !p.video).length).toBeGreaterThanOrEqual(1);
  for (const p of pairs) expect(p).toMatchObject({ policy: 'relay', local: 'relay', remote: 'relay' });
  // Each relayed connection allocates on both ends (browser and agent): at least two connections, four.
  expect(relayStack.turn.allocations()).toBeGreaterThanOrEqual(4);
});
