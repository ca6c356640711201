/**
 * The rate limiter's cost on a limited route (issue 15, counts in PostgreSQL): p50/p90/p99 of N sequential
 * GET /api/user-info (limited per address by SESSION_RATE_LIMIT_PER_MIN, set high so none is refused) with a
 * valid token, against a server with its own embedded PostgreSQL (fsync on unless NO_SYNC=1); then, when the
 * store is the PostgreSQL one, the count statement alone against `select 1` on the same database.
 *   flock /tmp/edge-e2e.lock npx tsx tests/bench/rateLimitCost.ts [calls=500]
 * Not part of `npm run bench`. Run it on a checkout before a change and after, alternately: the machine's noise
 * is larger than the difference.
 */
import pg from 'pg';
import * as store from '../../src/server/rateLimitStore';
import { embeddedUrl, startTestServer } from '../unit/server/helpers';

const calls = Number(process.argv[2] ?? 500);
const server = await startTestServer({
  embeddedPgNoSync: process.env.NO_SYNC === '1',
  sessionRateLimitPerMin: 1_000_000,
  loginRateLimitPerMin: 1_000_000,
});

/** p50, p90 and p99 of `calls` sequential runs of `f` (after 50 unmeasured ones). */
async function percentiles(f: () => Promise<unknown>): Promise<string> {
  for (let i = 0; i < 50; i++) await f();
  const times: number[] = [];
  for (let i = 0; i < calls; i++) {
    const t = performance.now();
    await f();
    times.push(performance.now() - t);
  }
  times.sort((x, y) => x - y);
  const q = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))]!.toFixed(3);
  return `p50 ${q(0.5)} ms, p90 ${q(0.9)} ms, p99 ${q(0.99)} ms`;
}

try {
  await server.seed.ensureUser({ email: 'cost@example.com', password: 'cost-password-1' });
  const res = await fetch(`${server.url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'cost@example.com', password: 'cost-password-1' }),
  });
  const { token } = (await res.json()) as { token: string };
  const headers = { authorization: `Token ${token}` };
  const userInfo = async () => {
    const r = await fetch(`${server.url}/api/user-info`, { headers });
    await r.arrayBuffer();
    if (r.status !== 200) throw new Error(`user-info answered ${r.status}`);
  };
  console.log(`GET user-info x${calls}: ${await percentiles(userInfo)}`);

  // The count statement alone (only where the store counts in PostgreSQL: a checkout before has no SharedCounts).
  const { SharedCounts } = store as Partial<typeof store>;
  if (SharedCounts) {
    const pool = new pg.Pool({ connectionString: embeddedUrl(server.dataDir), max: 1 });
    try {
      const counts = new SharedCounts({ pool, log: { warn: () => undefined, debug: () => undefined } });
      console.log(`select 1 x${calls}: ${await percentiles(() => pool.query('select 1'))}`);
      console.log(
        `count statement x${calls}: ${await percentiles(() => counts.incr('cost', 60_000, 1e9, false, false))}`,
      );
    } finally {
      await pool.end();
    }
  }
} finally {
  await server.dispose();
}
