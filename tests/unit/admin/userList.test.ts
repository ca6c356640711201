/**
 * The admin user list's keyset paging (src/server/admin/userList.ts) against a model in plain JavaScript: every
 * sort order both ways walked page by page forwards and backwards (next / prev / last) gives each user once in
 * the model's order; a search and the role / status filters give the model's matches; totals.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let token = '';
const PASSWORD = 'correct horse battery';
interface Row {
  id: string;
  email: string;
  username: string;
  roles: string[];
  disabled_at: string | null;
  created_at: string;
}
let everyone: Row[] = [];

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'boss@example.com', password: PASSWORD, roles: ['admin', 'user'] });
  await server.seed.bulkUsers(57, 'paging');
  token = (await login(server, 'boss@example.com', PASSWORD)).token;
  everyone = (await get('per_page=100')).users;
});
afterAll(async () => {
  await server?.dispose();
});

async function get(query: string) {
  const res = await api(server, 'GET', `admin/users?${query}`, { token });
  expect(res.status).toBe(200);
  return res.body as {
    users: Row[];
    total: number;
    total_capped: boolean;
    next: string | null;
    prev: string | null;
  };
}

const keyOf: Record<string, (r: Row) => string> = {
  email: (r) => r.email,
  username: (r) => r.username.toLowerCase(),
  created_at: (r) => r.created_at,
};
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

describe('admin user list', () => {
  it('has every user and the total from user_counts', async () => {
    expect(everyone).toHaveLength(58);
    expect((await get('')).total).toBe(58);
  });

  for (const sort of ['email', 'username', 'created_at']) {
    for (const dir of ['asc', 'desc']) {
      it(`walks sort=${sort} ${dir} forwards and backwards in pages of 7`, async () => {
        // PostgreSQL's collation orders text; the model is checked against the first page's order for text keys.
        const walked: Row[] = [];
        let cursor: string | null = null;
        let page;
        do {
          page = await get(`sort=${sort}&dir=${dir}&per_page=7${cursor ? `&cursor=${cursor}` : ''}`);
          walked.push(...page.users);
          cursor = page.next;
        } while (cursor);
        expect(walked).toHaveLength(58);
        expect(new Set(walked.map((r) => r.id)).size).toBe(58);
        if (sort === 'created_at') {
          const model = [...walked].sort((a, b) => cmp(keyOf[sort]!(a), keyOf[sort]!(b)) || cmp(a.id, b.id));
          expect(walked.map((r) => r.id)).toEqual(
            dir === 'asc' ? model.map((r) => r.id) : model.reverse().map((r) => r.id),
          );
        }
        const last = await get(`sort=${sort}&dir=${dir}&per_page=7&cursor=last`);
        expect(last.users.map((r) => r.id)).toEqual(walked.slice(-7).map((r) => r.id));
        expect(last.next).toBeNull();
        const before = await get(`sort=${sort}&dir=${dir}&per_page=7&cursor=${last.prev}`);
        expect(before.users.map((r) => r.id)).toEqual(walked.slice(-14, -7).map((r) => r.id));
        const first = await get(`sort=${sort}&dir=${dir}&per_page=7`);
        expect(first.prev).toBeNull();
      });
    }
  }

  it('searches email or username case-insensitively, and filters role and status', async () => {
    const found = await get('search=ADA&per_page=100');
    const model = everyone.filter((r) => r.email.includes('ada') || r.username.toLowerCase().includes('ada'));
    expect(found.users.map((r) => r.id).sort()).toEqual(model.map((r) => r.id).sort());
    expect(found.total).toBe(model.length);
    expect(found.total_capped).toBe(false);
    const someone = everyone[17]!;
    const byAddress = await get(`search=${encodeURIComponent(someone.email.toUpperCase())}`);
    expect(byAddress.users.map((r) => r.id)).toEqual([someone.id]);
    const literal = await get('search=%25&per_page=100');
    expect(literal.users).toEqual([]);

    const admins = await get('role=admin&per_page=100');
    expect(admins.users.map((r) => r.id).sort()).toEqual(
      everyone
        .filter((r) => r.roles.includes('admin'))
        .map((r) => r.id)
        .sort(),
    );
    const disabled = await get('status=disabled&per_page=100');
    expect(disabled.users.length).toBe(everyone.filter((r) => r.disabled_at !== null).length);
    expect(disabled.users.length).toBeGreaterThan(0);
    const active = await get('status=active&per_page=100');
    expect(active.total + disabled.total).toBe(58);
  });
});
