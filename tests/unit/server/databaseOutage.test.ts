/**
 * Issue 15 "PostgreSQL killed and restarted under load", on the real stack: a server with its embedded PostgreSQL
 * (fsync and synchronous commit on, as in production), writes going on, `kill -9` of the postmaster. While the
 * database is down every request answers 503 Database_unavailable with Retry-After (never 500), /api/ready says
 * the database is down, sign-in attempts answered 503 do not count towards the sign-in limit; the server starts
 * PostgreSQL again by itself, /api/ready turns 200, and every write answered 2xx is in the database afterwards.
 *
 * To keep the outage long enough to look at, the test holds PostgreSQL's port right after the kill (a listener
 * that drops every connection), so the server's first restarts fail and back off; it lets go after its checks.
 */
import type net from 'node:net';
import { afterAll, expect, it } from 'vitest';
import { sqlClient } from '../analytics/db';
import { api, eventually, login, startTestServer, type TestServer } from './helpers';
import { holdPort, postmaster } from './pgFaults';

let server: TestServer | undefined;
let holder: net.Server | undefined;

afterAll(async () => {
  holder?.close();
  await server?.dispose();
});

const EMAIL = 'outage@example.com';
const PASSWORD = 'outage-pw-1';
/** Sign-in attempts per minute per (address, e-mail) in this test. */
const LOGIN_LIMIT = 3;

interface Seen {
  status: number;
  code?: string;
  retryAfter: string | null;
}

it('answers 503 Database_unavailable while PostgreSQL is down, restarts it, and loses no accepted write', async () => {
  server = await startTestServer({ embeddedPgNoSync: false, loginRateLimitPerMin: LOGIN_LIMIT });
  await server.seed.ensureUser({ email: EMAIL, password: PASSWORD });
  const { token } = await login(server, EMAIL, PASSWORD); // sign-in attempt 1 of LOGIN_LIMIT

  const ready0 = await api(server, 'GET', 'ready');
  expect(ready0.status).toBe(200);
  expect(ready0.body).toMatchObject({
    ready: true,
    database: { status: 'up' },
    signalling: { status: 'up' },
  });
  const health0 = await api(server, 'GET', 'health');
  expect(health0).toMatchObject({ status: 200, body: { status: 'ok' } });

  // Writers: 4 loops creating groups with unique names; a name answered 2xx is an accepted write.
  const accepted: string[] = [];
  const seen: Seen[] = [];
  let writing = true;
  const url = server.url;
  const writer = async (w: number) => {
    for (let i = 0; writing; i++) {
      const name = `w${w}-${i}`;
      const res = await fetch(`${url}/api/groups`, {
        method: 'POST',
        headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name, group_type: 'device' }),
      }).catch(() => null);
      if (!res) continue;
      const body = (await res.json().catch(() => ({}))) as { code?: string };
      seen.push({ status: res.status, code: body.code, retryAfter: res.headers.get('retry-after') });
      if (res.status >= 200 && res.status < 300) accepted.push(name);
      else await new Promise((r) => setTimeout(r, 20));
    }
  };
  const writers = [0, 1, 2, 3].map(writer);
  await eventually(() => accepted.length >= 20, 20_000);

  const { pid, port } = postmaster(server.dataDir);
  process.kill(pid, 'SIGKILL');
  holder = await holdPort(port, 2000);
  const acceptedBeforeOutage = accepted.length;

  // Down: writes answer 503 Database_unavailable with Retry-After; readiness says the database is down.
  await eventually(() => seen.some((s) => s.status === 503), 10_000);
  const ready1 = await api(server, 'GET', 'ready');
  expect(ready1.status).toBe(503);
  expect(ready1.body).toMatchObject({
    ready: false,
    code: 'Not_ready',
    database: { status: 'down' },
    signalling: { status: 'up' },
  });
  expect(ready1.body.message).toMatch(/database/);
  expect((await api(server, 'GET', 'health')).status).toBe(200);
  const list = await api(server, 'GET', 'groups', { token });
  expect(list.status).toBe(503);
  expect(list.body).toEqual({ code: 'Database_unavailable', message: expect.stringMatching(/database/i) });

  // Sign-in attempts while down: 503, never 429, and they do not count (LOGIN_LIMIT + 2 of them).
  for (let i = 0; i < LOGIN_LIMIT + 2; i++) {
    const attempt = await api(server, 'POST', 'login', { body: { email: EMAIL, password: PASSWORD } });
    expect(attempt.status).toBe(503);
    expect(attempt.body.code).toBe('Database_unavailable');
  }

  // Let go of the port: the server's next start attempt gets it, by itself.
  await new Promise<void>((resolve) => holder!.close(() => resolve()));
  holder = undefined;
  await eventually(async () => (await api(server!, 'GET', 'ready')).status === 200, 45_000);
  const restarted = postmaster(server.dataDir);
  expect(restarted.pid).not.toBe(pid);
  expect(restarted.port).toBe(port);

  // Writes are accepted again, then stop.
  const acceptedAtRecovery = accepted.length;
  await eventually(() => accepted.length >= acceptedAtRecovery + 20, 20_000);
  writing = false;
  await Promise.all(writers);

  // Signed in again within the minute: the outage's 503s did not use up the limit.
  await expect(login(server, EMAIL, PASSWORD)).resolves.toHaveProperty('token');

  // Never a 500; every failure was the clear 503 with Retry-After.
  const failures = seen.filter((s) => s.status >= 300);
  expect(failures.length).toBeGreaterThan(0);
  for (const s of failures) {
    expect(s).toEqual({ status: 503, code: 'Database_unavailable', retryAfter: '2' });
  }
  expect(accepted.length).toBeGreaterThan(acceptedBeforeOutage);

  // Every accepted write is in the database.
  const client = await sqlClient(server.dataDir);
  try {
    const rows = await client.query<{ name: string }>(
      "select name from groups where group_type = 'device' and name like 'w%-%'",
    );
    const stored = new Set(rows.rows.map((r) => r.name));
    const lost = accepted.filter((name) => !stored.has(name));
    expect(lost).toEqual([]);
  } finally {
    await client.end();
  }
}, 120_000);
