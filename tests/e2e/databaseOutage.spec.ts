import type net from 'node:net';
import { test, expect, type APIRequestContext } from './fixtures';
import { FAULT_ACCOUNT, FAULT_DEVICES, RestartableStack } from './restartableServer';
import { apiLogin, auth, navigate, signIn } from './stack';
import { holdPort, postmaster } from '../unit/server/pgFaults';
import { expectAccessible } from './axe';

/**
 * Issue 15 "PostgreSQL killed and restarted under load: the server answers 503 with a clear error meanwhile,
 * reconnects by itself, and no accepted write is lost", in Chromium on a server process of its own
 * (restartableServer.ts): `kill -9` of the embedded postmaster while the console shows the device list and
 * writes go on. While the database is down the console says so in words (503 Database_unavailable, not a 500),
 * writes answer 503 and /api/ready says the database is down; the server starts PostgreSQL again by itself, the
 * console's Reload brings the list back without a page reload, and every write answered 2xx is there.
 *
 * The port of the dead postmaster is held for a few seconds after the kill (pgFaults.ts holdPort), so the outage
 * lasts long enough to be seen; the server's restarts back off meanwhile.
 *
 * Then the camera page: a layout changed while the database is down (its save answers 503) is kept by the console
 * and saved by itself once the database is back; a reload shows it. And a camera page reloaded while the database
 * is down (its GET camera-layout answers 503) does not take "empty" for the saved layout: it says so, loads it by
 * itself once the database is back, and the layout on the server is still the saved one.
 */
const PORT = Number(process.env.E2E_DB_OUTAGE_PORT ?? 18092);
const URL = `http://127.0.0.1:${PORT}`;
const DATABASE_UNAVAILABLE = 'The database is unavailable right now. Please try again in a few seconds.';
const stack = new RestartableStack(PORT);
let holder: net.Server | undefined;

test.use({ baseURL: URL });
test.describe.configure({ mode: 'serial', retries: 0 });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  await stack.startServer();
});

test.afterAll(async () => {
  holder?.close();
  await stack.close();
});

// eslint-disable-next-line no-empty-pattern -- Playwright wants a destructuring pattern here
test.afterEach(({}, testInfo) => {
  if (testInfo.status !== testInfo.expectedStatus) console.log(stack.lines.slice(-80).join('\n'));
});

/** `kill -9` of the embedded postmaster; its port is held for 10 s so the outage lasts (pgFaults.ts holdPort). */
async function killDatabase(): Promise<void> {
  const { pid, port } = postmaster(stack.dataDir);
  process.kill(pid, 'SIGKILL');
  holder = await holdPort(port, 10_000);
}

/** Lets go of the port; resolves once the server's supervisor has PostgreSQL back (/api/ready answers 200). */
async function databaseBack(request: APIRequestContext): Promise<void> {
  holder?.close();
  holder = undefined;
  await expect
    .poll(async () => (await request.get('/api/ready', { failOnStatusCode: false })).status(), {
      timeout: 90_000,
      intervals: [500],
    })
    .toBe(200);
}

/** The saved camera layout's cell sizes, `w x h` per stream joined by commas, or `status N` when not 200. */
async function savedCellsOf(request: APIRequestContext, token: string): Promise<string> {
  const res = await request.get('/api/camera-layout', { headers: auth(token), failOnStatusCode: false });
  if (res.status() !== 200) return `status ${res.status()}`;
  const { streams } = (await res.json()) as { streams: { cell: { w: number; h: number } }[] };
  return streams.map((s) => `${s.cell.w}x${s.cell.h}`).join(',');
}

/** Creates a device group named `name`; answers the HTTP status. */
async function addGroup(request: APIRequestContext, token: string, name: string): Promise<number> {
  const res = await request.post('/api/groups', {
    headers: auth(token),
    data: { name, group_type: 'device' },
    failOnStatusCode: false,
  });
  return res.status();
}

test('PostgreSQL killed: the console says the database is unavailable, the server brings it back, no accepted write is lost', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  await signIn(page, FAULT_ACCOUNT);
  await navigate(page, '/control-panel/devices');
  const table = page.getByTestId('devices-table');
  await expect(table).toContainText(FAULT_DEVICES[0]!.label);
  const token = await apiLogin(request, FAULT_ACCOUNT);

  const accepted: string[] = [];
  const refused: string[] = [];
  const write = async (name: string) => {
    const status = await addGroup(request, token, name);
    expect([201, 200, 503], `POST groups ${name}`).toContain(status);
    (status === 503 ? refused : accepted).push(name);
    return status;
  };
  for (let i = 0; i < 5; i++) expect(await write(`outage-before-${i}`)).not.toBe(503);

  await killDatabase();

  // Writes while it is down: 503 Database_unavailable with Retry-After, never a 500.
  const down = await request.post('/api/groups', {
    headers: auth(token),
    data: { name: 'outage-during-probe', group_type: 'device' },
    failOnStatusCode: false,
  });
  expect(down.status()).toBe(503);
  expect(down.headers()['retry-after']).toBeTruthy();
  expect((await down.json()).code).toBe('Database_unavailable');
  refused.push('outage-during-probe');
  const ready = await request.get('/api/ready', { failOnStatusCode: false });
  expect(ready.status()).toBe(503);
  expect(await ready.json()).toMatchObject({ ready: false, database: { status: 'down' } });

  // The console asks again (10 rows a page): it shows the database's state in words, with Reload.
  await page.getByTestId('devices-per-page').selectOption('10');
  const alert = page.getByRole('alert').filter({ hasText: DATABASE_UNAVAILABLE });
  await expect(alert).toBeVisible({ timeout: 30_000 });
  await expectAccessible(page, '[role="alert"]');

  // Let go of the port: the server's supervisor starts PostgreSQL again by itself.
  await databaseBack(request);

  // The console recovers without a page reload: Reload brings the list back.
  await alert.getByRole('button').click();
  await expect(alert).toBeHidden();
  await expect(table).toContainText(FAULT_DEVICES[0]!.label);

  for (let i = 0; i < 5; i++) expect(await write(`outage-after-${i}`)).not.toBe(503);

  // Every write answered 2xx is in the database; none answered 503 is.
  const groups = await request.get('/api/groups?group_type=device', { headers: auth(token) });
  expect(groups.status()).toBe(200);
  const names = JSON.stringify(await groups.json());
  for (const name of accepted) expect(names, name).toContain(`"${name}"`);
  for (const name of refused) expect(names, name).not.toContain(`"${name}"`);
  expect(accepted).toHaveLength(10);
});

test('a camera layout changed while PostgreSQL is down is saved once it is back: a reload shows it', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const token = await apiLogin(request, FAULT_ACCOUNT);
  // One stream on the first device, medium (4×7). No agents run here: the cell waits for its device (failed,
  // with Retry), which keeps it on the grid with its size menu.
  const deviceId = stack.agentSpecs[0]!.deviceId;
  const cameraId = 'cam-1';
  const seeded = await request.put('/api/camera-layout', {
    headers: auth(token),
    data: {
      streams: [
        {
          key: `${deviceId}:${cameraId}`,
          deviceId,
          cameraId,
          page: 0,
          cell: { i: 'seeded', x: 0, y: 0, w: 4, h: 7 },
        },
      ],
    },
  });
  expect(seeded.status()).toBe(200);
  const savedCell = () => savedCellsOf(request, token);
  expect(await savedCell()).toBe('4x7');

  await signIn(page, FAULT_ACCOUNT);
  await navigate(page, '/control-panel/cameras');
  const cell = page.locator('[data-testid^="stream-cell-"]');
  await expect(cell).toHaveCount(1);

  await killDatabase();

  // Changed while the database is down: the save answers 503; the console keeps the layout and says so.
  await cell.getByTestId('stream-size').selectOption('big');
  await expect(
    page.getByText(
      'The camera layout could not be saved. It will be saved as soon as the server answers again.',
    ),
  ).toBeVisible({ timeout: 30_000 });
  expect(await savedCell()).toMatch(/^status 503$/);

  await databaseBack(request);

  // Saved again by itself (back-off ≤ 30 s), without a reload; then a reload shows the new size.
  await expect.poll(savedCell, { timeout: 60_000, intervals: [1_000] }).toBe('6x12');
  await expect(page.getByText('The camera layout is saved.')).toBeVisible();
  await page.reload();
  await expect(cell).toHaveCount(1);
  await expect(cell.getByTestId('stream-size')).toHaveValue('big');
});

test('a camera page reloaded while PostgreSQL is down shows the saved layout once it is back, without overwriting it', async ({
  page,
  request,
}) => {
  test.setTimeout(240_000);
  const token = await apiLogin(request, FAULT_ACCOUNT);
  // One big (6×12) stream on the first device; no agents run here, so the cell waits for its device.
  const deviceId = stack.agentSpecs[0]!.deviceId;
  const cameraId = 'cam-1';
  const saved = {
    streams: [
      {
        key: `${deviceId}:${cameraId}`,
        deviceId,
        cameraId,
        page: 0,
        cell: { i: 'seeded', x: 0, y: 0, w: 6, h: 12 },
      },
    ],
  };
  expect((await request.put('/api/camera-layout', { headers: auth(token), data: saved })).status()).toBe(200);
  const savedCell = () => savedCellsOf(request, token);
  expect(await savedCell()).toBe('6x12');

  await signIn(page, FAULT_ACCOUNT);
  await navigate(page, '/control-panel/cameras');
  const cell = page.locator('[data-testid^="stream-cell-"]');
  await expect(cell).toHaveCount(1);

  await killDatabase();
  expect(await savedCell()).toBe('status 503');

  // Reloaded while the database is down: the layout cannot be loaded; the page says so instead of an empty grid.
  await page.reload();
  const notice = page.getByTestId('layout-not-loaded');
  await expect(notice).toBeVisible({ timeout: 30_000 });
  await expect(notice).toContainText('The saved camera layout could not be loaded yet.');
  await expect(cell).toHaveCount(0);

  await databaseBack(request);

  // Loaded by itself (back-off ≤ 30 s), without a reload: the saved stream is back, big; the server kept it.
  await expect(cell).toHaveCount(1, { timeout: 60_000 });
  await expect(cell.getByTestId('stream-size')).toHaveValue('big');
  await expect(notice).toBeHidden();
  await expect(page.getByText('The saved camera layout is loaded.')).toBeVisible();
  expect(await savedCell()).toBe('6x12');
});
