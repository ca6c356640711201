/**
 * Issue 13's admin user list with 100,000 users (BENCH_ONLY=admin_users runs only it; own server, no browser):
 *
 *   api_ms.<case>   GET /api/admin/users as an admin, sequential requests after a warm-up, p50/p95 (server +
 *                   PostgreSQL + JSON over loopback), 25 rows a page: the first page of each sort order both
 *                   ways, the page after the user half-way down each order, the last page and the one before it,
 *                   a search matching one user, one matching ~12,500 (capped total), one matching none, and the
 *                   admins filter
 *
 * Target: page, sort and search cases p95 ≤ 20 ms (role_admin, a filter, is reported but not in `met`). The users are added in one statement (Seed.bulkUsers). Reports; never asserts.
 */
import { encodeCursor } from '../../src/server/admin/cursor';
import { withOwnServer } from './ownServer';
import { stats, type Stats } from './stats';

const USERS = Number(process.env.BENCH_ADMIN_USERS ?? 100_000);
const SAMPLES = Number(process.env.BENCH_LIST_SAMPLES ?? 40);
const ADMIN = { email: 'admin-bench@edge.local', password: 'admin-bench-2026' };

export interface AdminUsersBench {
  users: number;
  seed_s: number;
  api_ms: Record<string, Stats>;
  met: { api_p95_le_20ms: boolean };
}

interface Page {
  users: { id: string; email: string; username: string; created_at: string }[];
  total: number;
  next: string | null;
  prev: string | null;
}

export function benchAdminUsers(): Promise<AdminUsersBench> {
  return withOwnServer('admin', {}, async (server) => {
    await server.seed.ensureUser({ ...ADMIN, roles: ['admin', 'user'] });
    const t0 = performance.now();
    await server.seed.bulkUsers(USERS);
    const seedS = Math.round((performance.now() - t0) / 100) / 10;
    const login = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    const { token } = (await login.json()) as { token: string };
    const get = async (query: string): Promise<Page> => {
      const res = await fetch(`${server.url}/api/admin/users?per_page=25&${query}`, {
        headers: { Authorization: `Token ${token}` },
      });
      if (res.status !== 200) throw new Error(`admin/users ${query}: HTTP ${res.status}`);
      return (await res.json()) as Page;
    };
    const time = async (query: string): Promise<Stats> => {
      for (let i = 0; i < 5; i++) await get(query);
      const samples: number[] = [];
      for (let i = 0; i < SAMPLES; i++) {
        const t = performance.now();
        await get(query);
        samples.push(performance.now() - t);
      }
      return stats(samples);
    };

    // The user half-way down every order (emails, usernames and creation times all follow n).
    const middleEmail = `${Math.floor(USERS / 2)}@`;
    const middle = (await get(`search=${encodeURIComponent(middleEmail)}`)).users[0];
    if (!middle) throw new Error('the middle user was not found');
    const last = await get('sort=email&cursor=last');
    const cases: Record<string, string> = {
      first_email_asc: 'sort=email&dir=asc',
      first_email_desc: 'sort=email&dir=desc',
      first_username_asc: 'sort=username&dir=asc',
      first_username_desc: 'sort=username&dir=desc',
      first_created_asc: 'sort=created_at&dir=asc',
      first_created_desc: 'sort=created_at&dir=desc',
      last_page_email: 'sort=email&cursor=last',
      before_last_email: `sort=email&cursor=${last.prev}`,
      search_one_user: `search=${encodeURIComponent(middleEmail)}`,
      search_common_grace: 'search=grace',
      search_full_email: `search=${encodeURIComponent(middle.email)}`,
      search_none: 'search=zzqqxx',
      role_admin: 'role=admin',
    };
    // The page after the middle user in each order (a keyset page costs what the first does).
    const keys = {
      email: middle.email,
      username: middle.username.toLowerCase(),
      created_at: middle.created_at,
    };
    for (const [sort, key] of Object.entries(keys)) {
      const cursor = encodeCursor({ side: 'after', key, id: middle.id });
      cases[`middle_${sort}`] = `sort=${sort}&cursor=${cursor}`;
    }
    const apiMs: Record<string, Stats> = {};
    for (const [name, query] of Object.entries(cases)) apiMs[name] = await time(query);
    return {
      users: USERS,
      seed_s: seedS,
      api_ms: apiMs,
      met: {
        api_p95_le_20ms: Object.entries(apiMs).every(([name, s]) => name === 'role_admin' || s.p95 <= 20),
      },
    };
  });
}
