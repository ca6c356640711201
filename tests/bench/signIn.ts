/**
 * Issue 13's sign-in measure (BENCH_ONLY=sign_in runs only it; own server, no browser):
 *
 *   sequential_ms    POST /api/login with the right password, one after another after a warm-up, p50/p95
 *                    (argon2id verify at its configured cost + PostgreSQL + token signing, over loopback)
 *   concurrent4_ms   the same with 4 sign-ins in flight at once (a burst of users), p50/p95 per request
 *   wrong_ms         a wrong password (the same argon2id work: no timing difference to read), p50/p95
 *
 * Target: sign-in p95 ≤ 250 ms (sequential). Reports; never asserts.
 */
import { withOwnServer } from './ownServer';
import { stats, type Stats } from './stats';

const SAMPLES = Number(process.env.BENCH_SIGN_IN_SAMPLES ?? 100);
const USER = { email: 'signin-bench@edge.local', password: 'sign-in-bench-2026' };

export interface SignInBench {
  argon2id: string;
  sequential_ms: Stats;
  concurrent4_ms: Stats;
  wrong_ms: Stats;
  met: { p95_le_250ms: boolean };
}

export function benchSignIn(): Promise<SignInBench> {
  return withOwnServer('signin', { loginRateLimitPerMin: 1_000_000 }, async (server) => {
    await server.seed.ensureUser(USER);
    const login = async (password: string) => {
      const t0 = performance.now();
      const res = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: USER.email, password }),
      });
      await res.arrayBuffer();
      const ms = performance.now() - t0;
      const expected = password === USER.password ? 200 : 401;
      if (res.status !== expected) throw new Error(`login answered ${res.status}, expected ${expected}`);
      return ms;
    };
    for (let i = 0; i < 5; i++) await login(USER.password);
    const sequential: number[] = [];
    for (let i = 0; i < SAMPLES; i++) sequential.push(await login(USER.password));
    const concurrent: number[] = [];
    for (let i = 0; i < SAMPLES / 4; i++) {
      concurrent.push(...(await Promise.all([0, 1, 2, 3].map(() => login(USER.password)))));
    }
    const wrong: number[] = [];
    for (let i = 0; i < SAMPLES / 4; i++) wrong.push(await login('not-the-password'));
    const seq = stats(sequential);
    return {
      argon2id: '@node-rs/argon2 defaults: m=19456 KiB, t=2, p=1',
      sequential_ms: seq,
      concurrent4_ms: stats(concurrent),
      wrong_ms: stats(wrong),
      met: { p95_le_250ms: seq.p95 <= 250 },
    };
  });
}
