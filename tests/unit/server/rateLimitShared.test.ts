/**
 * Issue 15 "Scale-out past one server" and "Throttling per IP and globally": rate-limit counts in PostgreSQL
 * (src/server/rateLimitStore.ts, table rate_limit_counts) are shared by every server instance on one database.
 * Two instances (B uses A's embedded cluster through DATABASE_URL): sign-in attempts split across both reach
 * the limit together, and the next one on either is 429 with Retry-After — per (address, e-mail) and per
 * address; keys are stored hashed; an attempt answered 503 Database_unavailable while the count was made in
 * PostgreSQL gives it back there (a backend terminated mid-query, as on a PostgreSQL restart); and, on the
 * store itself against the same database, a window ends, continueExceeding and exponentialBackoff restart it as
 * the plugin's LocalStore does, the cleanup deletes ended windows, and a database that cannot count falls back
 * to memory instead of failing the request.
 */
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  rateLimitStore,
  SharedCounts,
  storedKey,
  type RefundableRateLimitStore,
} from '../../../src/server/rateLimitStore';
import { DatabaseStatus } from '../../../src/server/db/availability';
import { api, embeddedUrl, eventually, startTestServer, type TestServer } from './helpers';

/** Sign-in attempts per minute per (address, e-mail), and per address, on each instance. */
const PER_EMAIL = 4;
const PER_ADDRESS = 6;

let a: TestServer;
let b: TestServer;
let pool: pg.Pool;

beforeAll(async () => {
  const limits = {
    loginRateLimitPerMin: PER_EMAIL,
    loginIpRateLimitPerMin: PER_ADDRESS,
    loginGlobalRateLimitPerMin: 1000,
  };
  a = await startTestServer(limits);
  b = await startTestServer({ ...limits, databaseUrl: embeddedUrl(a.dataDir) });
  pool = new pg.Pool({ connectionString: embeddedUrl(a.dataDir), max: 3 });
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await b?.dispose();
  await a?.dispose();
});

const signIn = (server: TestServer, email: string) =>
  fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: 'wrong-password' }),
  }).then(async (res) => ({
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as { code?: string },
  }));

function expectLimited(answer: Awaited<ReturnType<typeof signIn>>) {
  expect(answer.status).toBe(429);
  expect(answer.body.code).toBe('Rate_limited');
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
}

/** The count stored for `key` of the limiter `namespace`, or null without a row. */
async function storedCount(namespace: string, key: string): Promise<number | null> {
  const { rows } = await pool.query<{ count: number }>('select count from rate_limit_counts where key = $1', [
    storedKey(namespace, key),
  ]);
  return rows[0]?.count ?? null;
}

const clearCounts = () => pool.query('delete from rate_limit_counts');

describe('two instances on one PostgreSQL share each limit', () => {
  it('refuses the attempt after the per-e-mail limit, split across both, on either instance', async () => {
    await clearCounts();
    const email = 'shared@example.com';
    for (let i = 0; i < PER_EMAIL; i++) {
      expect((await signIn(i % 2 === 0 ? a : b, email)).status).toBe(401);
    }
    expectLimited(await signIn(a, email));
    expectLimited(await signIn(b, email));
    // The per-address counter counted all six, refused ones included, on the same row.
    expect(await storedCount('limiter', 'throttle:login-ip:127.0.0.1')).toBe(PER_EMAIL + 2);
  });

  it('refuses the attempt after the per-address limit, split across both, whatever the e-mail', async () => {
    await clearCounts();
    for (let i = 0; i < PER_ADDRESS; i++) {
      expect((await signIn(i % 2 === 0 ? b : a, `ghost${i}@example.com`)).status).toBe(401);
    }
    expectLimited(await signIn(a, 'ghost-a@example.com'));
    expectLimited(await signIn(b, 'ghost-b@example.com'));
  });

  it('keeps neither the e-mail nor the address in clear, and keys of one length', async () => {
    await clearCounts();
    await signIn(a, 'Private.Person@example.com');
    const { rows } = await pool.query<{ key: string }>('select key from rate_limit_counts');
    expect(rows.length).toBe(3); // (address, e-mail), address, whole server
    for (const { key } of rows) {
      expect(key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    }
    expect(await storedCount('POST /api/login', '127.0.0.1|private.person@example.com')).toBe(1);
  });

  it('gives back an attempt counted in PostgreSQL when its answer is 503 Database_unavailable', async () => {
    await clearCounts();
    const email = 'refund@example.com';
    for (let i = 0; i < PER_EMAIL - 1; i++) expect((await signIn(b, email)).status).toBe(401);
    expect(await storedCount('POST /api/login', `127.0.0.1|${email}`)).toBe(PER_EMAIL - 1);

    // The handler's query waits on a lock held here; its backend is then terminated (SQLSTATE 57P01, as when
    // PostgreSQL restarts): the handler answers 503 after the limiter counted the attempt in PostgreSQL.
    const locker = await pool.connect();
    let answer: Awaited<ReturnType<typeof signIn>>;
    try {
      await locker.query('begin');
      await locker.query('lock table users in access exclusive mode');
      const pending = signIn(a, email);
      let pid = 0;
      await eventually(async () => {
        const { rows } = await pool.query<{ pid: number }>(
          `select pid from pg_stat_activity where wait_event_type = 'Lock' and query ilike '%"users"%'`,
        );
        pid = rows[0]?.pid ?? 0;
        return pid !== 0;
      });
      expect(await storedCount('POST /api/login', `127.0.0.1|${email}`)).toBe(PER_EMAIL);
      await pool.query('select pg_terminate_backend($1)', [pid]);
      answer = await pending;
    } finally {
      await locker.query('rollback');
      locker.release();
    }
    expect(answer.status).toBe(503);
    expect(answer.body.code).toBe('Database_unavailable');
    await eventually(
      async () => (await storedCount('POST /api/login', `127.0.0.1|${email}`)) === PER_EMAIL - 1,
    );
    // The per-address counter got its attempt back too.
    await eventually(
      async () => (await storedCount('limiter', 'throttle:login-ip:127.0.0.1')) === PER_EMAIL - 1,
    );
    // A's database status is up again (the supervisor probes it) before the last allowed attempt is counted.
    await eventually(async () => (await api(a, 'GET', 'ready')).status === 200);
    expect((await signIn(a, email)).status).toBe(401);
    expectLimited(await signIn(b, email));
  });
});

/** `incr` of `store` as a promise. */
function incr(store: RefundableRateLimitStore, key: string, windowMs: number, max: number) {
  return new Promise<{ current: number; ttl: number }>((resolve, reject) =>
    store.incr(key, (err, res) => (err ? reject(err) : resolve(res!)), windowMs, max),
  );
}

const silent = { warn: () => undefined, debug: () => undefined };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the store on PostgreSQL', () => {
  it('starts a new window once the last one has ended', async () => {
    const Store = rateLimitStore(new SharedCounts({ pool, log: silent }));
    const store = new Store({});
    const key = `window-${Date.now()}`;
    expect((await incr(store, key, 400, 2)).current).toBe(1);
    const second = await incr(store, key, 400, 2);
    expect(second.current).toBe(2);
    expect(second.ttl).toBeGreaterThan(0);
    expect(second.ttl).toBeLessThanOrEqual(400);
    expect((await incr(store, key, 400, 2)).current).toBe(3); // over: the plugin refuses it
    expect(await storedCount('global', key)).toBe(3); // counted in PostgreSQL
    await sleep(450);
    const fresh = await incr(store, key, 400, 2);
    expect(fresh.current).toBe(1);
    expect(fresh.ttl).toBeGreaterThan(300);
  });

  it('restarts the window on each request over the maximum with continueExceeding', async () => {
    const Store = rateLimitStore(new SharedCounts({ pool, log: silent }));
    const store = new Store({ continueExceeding: true });
    const key = `continue-${Date.now()}`;
    await incr(store, key, 400, 1);
    await sleep(250);
    const over = await incr(store, key, 400, 1);
    expect(over.current).toBe(2);
    expect(over.ttl).toBeGreaterThan(300); // restarted, not the 150 ms left of the first window
    await sleep(250);
    expect((await incr(store, key, 400, 1)).current).toBe(3); // still inside the restarted window
    expect(await storedCount('global', key)).toBe(3);
  });

  it('doubles the window per request over the maximum with exponentialBackoff', async () => {
    const Store = rateLimitStore(new SharedCounts({ pool, log: silent }));
    const store = new Store({ exponentialBackoff: true });
    const key = `backoff-${Date.now()}`;
    await incr(store, key, 1000, 1);
    expect((await incr(store, key, 1000, 1)).ttl).toBeGreaterThan(900); // 2nd: 1000 × 2^0
    expect((await incr(store, key, 1000, 1)).ttl).toBeGreaterThan(1900); // 3rd: 1000 × 2^1
    expect((await incr(store, key, 1000, 1)).ttl).toBeGreaterThan(3900); // 4th: 1000 × 2^2
    // A huge exponent stays a valid timestamp.
    const far = `backoff-far-${Date.now()}`;
    await pool.query(
      `insert into rate_limit_counts (key, count, expires_at) values ($1, 5000, now() + interval '1 hour')`,
      [storedKey('global', far)],
    );
    const capped = await incr(store, far, 1000, 1);
    expect(capped.current).toBe(5001); // counted in PostgreSQL (memory would answer 1)
    expect(capped.ttl).toBeGreaterThan(1e12);
  });

  it('deletes ended windows and keeps running ones', async () => {
    const counts = new SharedCounts({ pool, log: silent });
    const store = new (rateLimitStore(counts))({});
    await clearCounts();
    await incr(store, 'short', 100, 5);
    await incr(store, 'long', 60_000, 5);
    await sleep(150);
    expect(await counts.cleanup()).toBe(1);
    const { rows } = await pool.query<{ key: string }>('select key from rate_limit_counts');
    expect(rows.map((r) => r.key)).toEqual([storedKey('global', 'long')]);
  });

  it('counts in memory when the database cannot count, without failing the request', async () => {
    const broken = new pg.Pool({ connectionString: 'postgres://nobody@127.0.0.1:1/none', max: 1 });
    const status = new DatabaseStatus();
    try {
      const store = new (rateLimitStore(new SharedCounts({ pool: broken, status, log: silent })))({});
      expect((await incr(store, 'k', 60_000, 2)).current).toBe(1); // connection refused: memory
      expect(status.up).toBe(false);
      expect((await incr(store, 'k', 60_000, 2)).current).toBe(2); // known down: memory, no attempt
      expect((await incr(store, 'k', 60_000, 2)).current).toBe(3);
    } finally {
      await broken.end();
    }
  });
});
