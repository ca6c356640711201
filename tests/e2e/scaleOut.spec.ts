import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { EMBEDDED_DATABASE } from '../../src/server/db/embedded';
import { test, expect } from './fixtures';
import { apiLogin, auth, decodedFrame, navigate, signIn } from './stack';

/**
 * Issue 15 "Scale-out past one server": two server instances on one PostgreSQL behind one port. Instance A is
 * the suite's server (port 18080, embedded PostgreSQL); instance B is a second server process
 * (src/server/main.ts) with DATABASE_URL pointing at A's PostgreSQL. A small proxy on one port sends each
 * connection to A or B; for this test it is pinned by client so the sides are known: Chromium (user agent
 * "HeadlessChrome") to A, everything else (the device agent's REST calls and signalling socket) to B. It
 * records which instance took each WebSocket upgrade and answers every HTTP response with `X-Instance`.
 *
 * A new device's agent registers on B; the browser, signed in through the proxy, sees it online (presence
 * from A), opens its device link (PeerJS OFFER/ANSWER/CANDIDATEs relayed A→B→A through PostgreSQL), runs the
 * GPU driver check (a command answers over the data channel), opens a camera whose video decodes frames, and
 * receives a real-time event published by B (mark-all-read on B clears the bell on A). signalling_peers shows
 * the browser peer on A and the device on B.
 */
const A = new URL(`http://127.0.0.1:${process.env.E2E_PORT ?? 18080}`);
const B_PORT = Number(A.port) + 11;
const PROXY_PORT = Number(A.port) + 12;
const PROXY = `http://127.0.0.1:${PROXY_PORT}`;
const B_URL = `http://127.0.0.1:${B_PORT}`;
const USER = { email: 'disposable@edge.local', password: 'disposable-edge-2026' };
const ROOT = process.cwd();

let dbUrl = '';
let sql: pg.Client;
let serverB: ChildProcess | null = null;
let agent: ChildProcess | null = null;
let proxy: http.Server | null = null;
let bDataDir = '';
const upgrades: { path: string; to: 'A' | 'B' }[] = [];
let device = { id: '', device_id: '' };
let userToken = '';

/** The e2e stack's PostgreSQL (its data dir holds the password; postmaster.pid the port). */
function databaseUrl(): string {
  const dataDir = process.env.E2E_DATA_DIR!;
  const { password } = JSON.parse(readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
    password: string;
  };
  const port = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}

function pinned(req: http.IncomingMessage): { to: 'A' | 'B'; port: number } {
  return /Chrome/.test(req.headers['user-agent'] ?? '')
    ? { to: 'A', port: Number(A.port) }
    : { to: 'B', port: B_PORT };
}

/** HTTP and WebSocket proxy: plain request forwarding and raw upgrade piping (see the module comment). */
function startProxy(): Promise<http.Server> {
  const server = http.createServer((req, res) => {
    const { to, port } = pinned(req);
    const up = http.request(
      { host: '127.0.0.1', port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-instance': to });
        answer.pipe(res);
      },
    );
    up.on('error', () => res.destroy());
    req.pipe(up);
  });
  server.on('upgrade', (req: http.IncomingMessage, socket: net.Socket, head: Buffer) => {
    const { to, port } = pinned(req);
    upgrades.push({ path: (req.url ?? '').split('?')[0]!, to });
    const up = net.connect(port, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/1.1`];
      for (let i = 0; i < req.rawHeaders.length; i += 2)
        lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      up.write(lines.join('\r\n') + '\r\n\r\n');
      if (head.length) up.write(head);
      up.pipe(socket);
      socket.pipe(up);
    });
    up.on('error', () => socket.destroy());
    socket.on('error', () => up.destroy());
  });
  return new Promise((resolve) => server.listen(PROXY_PORT, '127.0.0.1', () => resolve(server)));
}

async function startServerB(): Promise<void> {
  bDataDir = mkdtempSync(path.join(os.tmpdir(), 'edge-scale-b-'));
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const k of ['DEMO_EMAIL', 'DEMO_PASSWORD', 'SEED_EXTRA_USERS', 'E2E_PORT']) delete env[k];
  serverB = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'src/server/main.ts')], {
    cwd: ROOT,
    env: {
      ...env,
      PORT: String(B_PORT),
      HOST: '127.0.0.1',
      DATA_DIR: bDataDir,
      DATABASE_URL: dbUrl,
      LOG_LEVEL: 'error',
      INSTANCE_ID: 'scale_b',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  serverB.stderr!.on('data', (d: Buffer) => process.stderr.write(`[server B] ${d}`));
  await expect
    .poll(async () => (await fetch(`${B_URL}/api/ready`).catch(() => null))?.status ?? 0, { timeout: 60_000 })
    .toBe(200);
}

function startAgent(token: string): Promise<void> {
  agent = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(ROOT, 'src/agent/main.ts'),
      '--server',
      PROXY,
      '--backend',
      'sim',
      '--kind',
      'x86',
      '--cameras',
      '2',
      '--label',
      'Scale Box',
    ],
    {
      cwd: ROOT,
      env: { ...process.env, AGENT_TOKEN: token, AGENT_EXIT_WITH_PARENT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  return new Promise((resolve, reject) => {
    createInterface({ input: agent!.stdout! }).on('line', (line) => {
      if (line.includes('"event":"ready"')) resolve();
    });
    agent!.once('exit', (code) => reject(new Error(`agent exited with code ${code} before ready`)));
  });
}

test.use({ baseURL: PROXY });

test.beforeAll(async () => {
  test.setTimeout(150_000);
  dbUrl = databaseUrl();
  sql = new pg.Client({ connectionString: dbUrl });
  await sql.connect();
  proxy = await startProxy();
  await startServerB();
  // The user's device, created through B (REST is stateless: any instance answers).
  const login = await fetch(`${B_URL}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(USER),
  });
  userToken = ((await login.json()) as { token: string }).token;
  const made = await fetch(`${B_URL}/api/download/devices`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(userToken) },
    body: JSON.stringify({ label: `Scale Box ${Date.now()}`, kind: 'x86' }),
  });
  expect(made.status).toBe(200);
  const body = (await made.json()) as { device: { id: string; device_id: string }; access_token: string };
  device = body.device;
  await startAgent(body.access_token);
});

test.afterAll(async () => {
  agent?.kill('SIGTERM');
  if (device.id && userToken) {
    await fetch(`${B_URL}/api/device`, {
      method: 'DELETE',
      headers: { 'content-type': 'application/json', ...auth(userToken) },
      body: JSON.stringify({ ids: [device.id] }),
    }).catch(() => undefined);
  }
  if (serverB) {
    const exited = new Promise((r) => serverB!.once('exit', r));
    serverB.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))]);
  }
  await new Promise((r) => (proxy ? proxy.close(r) : r(null)));
  await sql?.end().catch(() => undefined);
  if (bDataDir) rmSync(bDataDir, { recursive: true, force: true });
});

test('a browser on instance A reaches a device registered on instance B', async ({ page, request }) => {
  test.setTimeout(120_000);
  // The agent's signalling socket went to B, through the proxy.
  await expect.poll(() => upgrades.some((u) => u.path === '/peerjs/peerjs' && u.to === 'B')).toBe(true);
  await expect
    .poll(async () => {
      const r = await sql.query(`select instance_id from signalling_peers where peer_id = $1`, [
        device.device_id,
      ]);
      return r.rows[0]?.instance_id as string | undefined;
    })
    .toBe('scale_b');

  // An unread notification, to see B's real-time event arrive on A.
  const users = await sql.query<{ id: string }>(`select id from users where email = $1`, [USER.email]);
  const userId = users.rows[0]!.id;
  await sql.query(`update notifications set read = true where user_id = $1`, [userId]);
  await sql.query(
    `insert into notifications (user_id, title, message) values ($1, 'Scale-out', 'across instances')`,
    [userId],
  );

  await signIn(page, USER);
  // The browser's requests land on A.
  expect(await page.evaluate(async () => (await fetch('/api/health')).headers.get('x-instance'))).toBe('A');
  // Presence from A of a device connected to B.
  await navigate(page, `/control-panel/devices?device=${device.device_id}`);
  await expect(page.getByTestId('device-presence')).toHaveAttribute('data-online', 'true');

  // The device link: PeerJS messages cross from A to B and back.
  await page.getByTestId('overview-connect').click();
  await expect(page.getByTestId('overview-disconnect')).toBeVisible({ timeout: 30_000 });
  const browserPeer = await sql.query(
    `select peer_id, instance_id from signalling_peers where owner_id = $1 and peer_id not like 'dev-%'`,
    [userId],
  );
  expect(browserPeer.rows.length).toBeGreaterThan(0);
  for (const r of browserPeer.rows as { instance_id: string }[]) expect(r.instance_id).not.toBe('scale_b');
  expect(upgrades.some((u) => u.path === '/peerjs/peerjs' && u.to === 'A')).toBe(true);

  // A command answers over the data channel.
  await page.getByTestId('gpu-check').click();
  await expect(page.getByTestId('gpu-result')).toContainText('Driver 550.54.15');

  // A camera stream plays.
  await navigate(page, '/control-panel/cameras');
  await page.locator(`[data-testid^="camera-open-${device.device_id}-"]`).first().click();
  const video = page.locator('[data-testid^="stream-cell-"] video').first();
  await expect(video).toBeVisible({ timeout: 30_000 });
  const frame = await decodedFrame(video);
  expect(frame.width).toBeGreaterThan(0);

  // A real-time event published by B reaches the browser's socket on A.
  await expect(page.getByTestId('bell-count')).toHaveText('1');
  expect(upgrades.some((u) => u.path === '/socket.io/' && u.to === 'A')).toBe(true);
  const read = await fetch(`${B_URL}/api/notifications/read-all`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...auth(await apiLogin(request, USER)) },
    body: '{}',
  });
  expect(read.status).toBe(200);
  await expect(page.locator('[data-testid="bell-count"]:text-is("1")')).toHaveCount(0);
});
