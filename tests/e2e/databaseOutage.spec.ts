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

  const { pid, port } = postmaster(stack.dataDir);
  process.kill(pid, 'SIGKILL');
  holder = await holdPort(port, 10_000);

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
  holder.close();
  holder = undefined;
  await expect
    .poll(async () => (await request.get('/api/ready', { failOnStatusCode: false })).status(), {
      timeout: 90_000,
      intervals: [500],
    })
    .toBe(200);

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
