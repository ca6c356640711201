import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test, expect, type Page, type APIRequestContext } from './fixtures';
import { FAULT_ACCOUNT, RestartableStack } from './restartableServer';
import { apiLogin, auth, connectDevices, decodedFrame, navigate, signIn, uploadThrottle } from './stack';

/**
 * Issue 15's faults of the server and the network, on a real stack of their own (restartableServer.ts: a
 * server process the test stops and starts on the same port and database, agents that outlive it, Chromium,
 * PeerJS signalling, WebRTC):
 *   - "Server restarted": SIGTERM, then SIGKILL, while a stream plays, a device link is open and a tus upload
 *     runs; without a reload the console says it is reconnecting, then the stream plays, a device command
 *     answers, the realtime socket delivers again and the upload completes with the right bytes (sha256).
 *   - "Signalling lost while streams play": with the server (and signalling, in-process) gone, frames keep
 *     coming and the data channel answers; once it is back the devices are online again and a new stream opens.
 *   - "Browser offline for 10 s": the console says so (role=status), HTTP is refused meanwhile, and afterwards
 *     the console recovers by itself: the realtime socket delivers (its reconnects fail with
 *     ERR_INTERNET_DISCONNECTED while offline), the stream plays, a device command answers, the console's HTTP
 *     answers again. Chromium's offline emulation (context.setOffline) refuses new connections; it does not cut
 *     WebRTC already open (the server tests above prove streams and links that come back).
 * Each test checks that the page was not reloaded meanwhile (a mark on its window survives).
 */
const PORT = Number(process.env.E2E_FAULTS_PORT ?? 18094);
const URL = `http://127.0.0.1:${PORT}`;
const MB = 1024 * 1024;
const stack = new RestartableStack(PORT);
let devices: string[] = [];
let dir = '';

test.use({ baseURL: URL });
test.describe.configure({ mode: 'serial', retries: 0 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await stack.startServer();
  await stack.startAgents();
  devices = stack.agentSpecs.map((a) => a.deviceId);
  dir = mkdtempSync(path.join(os.tmpdir(), 'faults-e2e-'));
});

test.afterAll(async () => {
  await stack.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// eslint-disable-next-line no-empty-pattern -- Playwright wants a destructuring pattern here
test.afterEach(({}, testInfo) => {
  if (testInfo.status === testInfo.expectedStatus) return;
  console.log(
    stack.lines
      .filter((l) => l.startsWith('[server]'))
      .slice(-60)
      .join('\n'),
  );
  console.log(
    stack.lines
      .filter((l) => !l.startsWith('[server]'))
      .slice(-40)
      .join('\n'),
  );
});

const cells = (page: Page) => page.locator('[data-testid^="stream-cell-"]');
const openButtons = (page: Page, deviceId: string) =>
  page.locator(`[data-testid^="camera-open-${deviceId}-"]`);
const notice = (page: Page) => page.getByTestId('connection-notice');

/** The console's long-lived actors' states (diagnostics printed by the test; window.__edgeConsole). */
function consoleStates(page: Page) {
  return page
    .evaluate(() => {
      type Root = {
        system: { get(id: string): { getSnapshot(): { value: unknown; context?: unknown } } | undefined };
      };
      const sys = (window as unknown as { __edgeConsole: { system: Root } }).__edgeConsole.system.system;
      const of = (id: string) => JSON.stringify(sys.get(id)?.getSnapshot().value ?? null);
      return `signal=${of('signal')} connectivity=${of('connectivity')} inbox=${of('inbox')} online=${navigator.onLine}`;
    })
    .catch((e: unknown) => `page not readable (reloaded?): ${String(e)}`);
}

/** Frames keep coming: `n` newly decoded frames in a row. */
async function framesAdvance(page: Page, n = 3) {
  const video = cells(page).first().locator('video');
  for (let i = 0; i < n; i++) await decodedFrame(video);
}

/** A device command over the open data channel (window.__edgeConsole, edge.debug). */
function checkHealth(page: Page, deviceId: string) {
  return page.evaluate(async (id) => {
    type Edge = { callDevice: (d: string, p: string, x: unknown) => Promise<{ streams: number }> };
    const edge = (window as unknown as { __edgeConsole: Edge }).__edgeConsole;
    return (await edge.callDevice(id, 'check-health', {})).streams;
  }, deviceId);
}

/** Frames the page's realtime sockets received (recorded from startPage on). */
const received = new WeakMap<Page, string[]>();

/** Marks now; the returned function waits for a realtime frame containing `text` received since the mark. */
function realtimeSince(page: Page) {
  const frames = received.get(page)!;
  const from = frames.length;
  return (text: string, timeout = 30_000) =>
    expect
      .poll(() => frames.slice(from).some((f) => f.includes(text)), { timeout, message: `realtime ${text}` })
      .toBe(true);
}

async function onlineDevices(request: APIRequestContext, token: string) {
  const res = await request.get(`${URL}/api/get-online-devices`, { headers: auth(token) });
  if (!res.ok()) return -1;
  return ((await res.json()).onlineDevices as string[]).length;
}

async function openStream(page: Page, deviceId: string, index = 0) {
  const before = await cells(page).count();
  await openButtons(page, deviceId).nth(index).click();
  await expect(cells(page)).toHaveCount(before + 1);
  await decodedFrame(cells(page).last().locator('video'));
}

/** Marks the page's JavaScript realm; `notReloaded` fails if the page has been reloaded since. */
async function markPage(page: Page) {
  await page.evaluate(() => {
    (window as unknown as { __faultsMark: string }).__faultsMark = 'kept';
  });
}
async function notReloaded(page: Page) {
  const mark = await page.evaluate(() => (window as unknown as { __faultsMark?: string }).__faultsMark);
  expect(mark, 'the page was reloaded').toBe('kept');
}

/**
 * Signs in with realtime frames recorded. The saved camera layout is emptied first: a test's streams are saved
 * and would reopen in the next test's page while it opens its own.
 */
async function startPage(page: Page, request: APIRequestContext) {
  const token = await apiLogin(request, FAULT_ACCOUNT);
  const cleared = await request.put(`${URL}/api/camera-layout`, {
    headers: auth(token),
    data: { streams: [] },
  });
  expect(cleared.ok()).toBe(true);
  const frames: string[] = [];
  received.set(page, frames);
  page.on('websocket', (ws) => {
    if (ws.url().includes('/socket.io')) ws.on('framereceived', (f) => frames.push(String(f.payload)));
  });
  await page.addInitScript(() => localStorage.setItem('edge.debug', '1'));
  await signIn(page, FAULT_ACCOUNT);
}

test('server restarted (SIGTERM, then SIGKILL): links, stream, realtime and upload come back without a reload', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const [a] = devices as [string];
  const file = path.join(dir, 'restart-model.onnx');
  const data = Buffer.alloc(24 * MB);
  for (let i = 0; i < data.length; i += 4) data.writeUInt32LE((i * 2654435761) >>> 0, i);
  writeFileSync(file, data);
  const sha256 = createHash('sha256').update(data).digest('hex');

  await startPage(page, request);
  // A slow upload (1 MB/s: ~24 s), started before the restart and still running when the server stops.
  await navigate(page, '/models');
  await (
    await uploadThrottle(page)
  )(1 * MB);
  await page.getByTestId('models-upload-open').click();
  await page.getByTestId('models-upload-file').setInputFiles(file);
  await page.getByTestId('models-upload-submit').click();
  await expect(page.getByTestId('uploads-button')).toBeVisible();

  await connectDevices(page, [a]);
  await navigate(page, '/control-panel/cameras');
  await openStream(page, a);
  expect(await checkHealth(page, a)).toBeGreaterThanOrEqual(1);
  await markPage(page);
  await expect(page.getByTestId('uploads-button')).toHaveAccessibleName(/1 running/);

  for (const signal of ['SIGTERM', 'SIGKILL'] as const) {
    await stack.stopServer(signal);
    await page.waitForTimeout(3_000);
    console.log(`after ${signal}: ${await consoleStates(page)}`);
    await expect.soft(notice(page)).toBeVisible({ timeout: 20_000 });
    await expect.soft(notice(page)).toHaveAttribute('role', 'status');
    await expect.soft(notice(page)).toHaveAttribute('data-state', 'reconnecting');
    await stack.startServer();
    await expect.soft(notice(page)).toHaveCount(0, { timeout: 60_000 });
    // The realtime socket is back: a read-all elsewhere reaches this page.
    const token = await apiLogin(request, FAULT_ACCOUNT);
    await expect.poll(() => onlineDevices(request, token), { timeout: 60_000 }).toBe(devices.length);
    const realtime = realtimeSince(page);
    expect((await request.post(`${URL}/api/notifications/read-all`, { headers: auth(token) })).ok()).toBe(
      true,
    );
    await realtime('notifications.read');
    // The stream plays and the device link answers.
    await expect(cells(page).first().getByTestId('stream-status')).toHaveText(/playing/i, {
      timeout: 60_000,
    });
    await framesAdvance(page);
    expect(await checkHealth(page, a)).toBeGreaterThanOrEqual(1);
    await notReloaded(page);
  }

  // The upload started before the restarts has completed with the right bytes.
  const token = await apiLogin(request, FAULT_ACCOUNT);
  await expect
    .poll(
      async () => {
        const res = await request.get(`${URL}/api/models?search=restart-model&per_page=10`, {
          headers: auth(token),
        });
        const body = (await res.json()) as { data: Array<{ id: string; size: number }> };
        return body.data[0]?.size ?? 0;
      },
      { timeout: 90_000 },
    )
    .toBe(data.length);
  const list = (await (
    await request.get(`${URL}/api/models?search=restart-model&per_page=10`, { headers: auth(token) })
  ).json()) as { data: Array<{ id: string }> };
  const detail = await (
    await request.get(`${URL}/api/models/${list.data[0]!.id}`, { headers: auth(token) })
  ).json();
  expect(JSON.stringify(detail)).toContain(sha256);
});

test('signalling lost while a stream plays: the peer link keeps working, then re-registers', async ({
  page,
  request,
}) => {
  test.setTimeout(180_000);
  const [, b] = devices as [string, string];
  await startPage(page, request);
  await connectDevices(page, [b]);
  await navigate(page, '/control-panel/cameras');
  await openStream(page, b, 0);
  await markPage(page);

  await stack.stopServer('SIGKILL');
  await expect.soft(notice(page)).toBeVisible({ timeout: 20_000 });
  // With signalling gone, the WebRTC stream and the data channel go on.
  const until = Date.now() + 8_000;
  while (Date.now() < until) {
    await framesAdvance(page, 5);
    expect(await checkHealth(page, b)).toBeGreaterThanOrEqual(1);
  }
  await expect(cells(page).first().getByTestId('stream-status')).toHaveText(/playing/i);

  await stack.startServer();
  const token = await apiLogin(request, FAULT_ACCOUNT);
  await expect.poll(() => onlineDevices(request, token), { timeout: 60_000 }).toBe(devices.length);
  await expect.soft(notice(page)).toHaveCount(0, { timeout: 60_000 });
  // Re-registered: a new stream (a new negotiation through signalling) opens.
  await openStream(page, b, 1);
  await framesAdvance(page);
  await notReloaded(page);
});

test('browser offline for 10 s: the console says so and recovers by itself', async ({
  page,
  request,
  context,
}) => {
  test.setTimeout(150_000);
  const [a] = devices as [string];
  await startPage(page, request);
  await connectDevices(page, [a]);
  await navigate(page, '/control-panel/cameras');
  await openStream(page, a);
  await markPage(page);

  await context.setOffline(true);
  await expect.soft(notice(page)).toBeVisible({ timeout: 10_000 });
  await expect.soft(notice(page)).toHaveAttribute('data-state', 'offline');
  await expect.soft(notice(page)).toHaveAttribute('role', 'status');
  // Chromium's offline emulation refuses new connections (HTTP, WebSocket); WebRTC already open goes on.
  const fetchReady = () =>
    page.evaluate(() =>
      fetch('/api/ready').then(
        (r) => r.status,
        () => 'refused',
      ),
    );
  expect(await fetchReady()).toBe('refused');
  await page.waitForTimeout(10_000);
  await context.setOffline(false);
  await expect.soft(notice(page)).toHaveCount(0, { timeout: 60_000 });

  const token = await apiLogin(request, FAULT_ACCOUNT);
  const realtime = realtimeSince(page);
  expect((await request.post(`${URL}/api/notifications/read-all`, { headers: auth(token) })).ok()).toBe(true);
  await realtime('notifications.read', 60_000);
  await expect(cells(page).first().getByTestId('stream-status')).toHaveText(/playing/i, { timeout: 60_000 });
  await framesAdvance(page);
  expect(await checkHealth(page, a)).toBeGreaterThanOrEqual(1);
  expect(await fetchReady()).toBe(200);
  // The console's own HTTP works again: a device search is answered, and the device's link is still open.
  await navigate(page, '/control-panel/devices');
  await page.getByTestId('devices-search').fill('');
  const list = page.waitForResponse(
    (r) => r.url().includes('/api/get_devices') && r.url().includes(`search=${a}`) && r.ok(),
  );
  await page.getByTestId('devices-search').fill(a);
  await list;
  await expect(page.getByTestId(`device-connection-${a}`)).toHaveAttribute('data-state', 'open');
  await notReloaded(page);
});
