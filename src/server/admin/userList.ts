/**
 * One page of the admin user list (issue 13 /admin-panel/users; src/protocol/admin.ts `admin.users`), fast at
 * 100,000 users (bench tests/bench/adminUsers.ts: page, sort and search p95 ≤ 20 ms):
 * - keyset paging: a page starts from its cursor's (sort key, id) in the sort order's index (schema/core.ts
 *   users_email_key / users_username_key_idx / users_created_idx), so a deep page costs what the first does;
 * - the unfiltered total is the `user_counts` row (kept by statement triggers, migration 0014), not a count;
 * - a search (email or username contains the text, case-insensitively; through users.search_key) is counted up to
 *   ADMIN_SEARCH_COUNT_CAP + 1; when it matches no more than that, or the planner expects it to match less
 *   than DENSE_SHARE of the users, its matches are collected through the trigram indexes and the page sorted
 *   from them; otherwise (dense matches) the page is read walking the sort index, which meets matches soon;
 * - role and status filters count up to the cap the same way.
 * Ties are broken by user id in the sort's direction (emails are unique).
 */
import { and, eq, isNotNull, isNull, sql, type SQL } from 'drizzle-orm';
import { ADMIN_SEARCH_COUNT_CAP, type AdminUser, type UserSort } from '../../protocol/admin';
import { Role } from '../../protocol/accounts';
import type { Db } from '../db';
import { likeContains } from '../db/scope';
import { userCounts, users, userTwoFactor } from '../db/schema';
import { cutPage, decodeCursor, type PageRequest } from './cursor';

export interface UserPageQuery {
  search?: string;
  role?: 'admin' | 'user';
  status: 'all' | 'active' | 'disabled';
  sort: UserSort;
  dir: 'asc' | 'desc';
  cursor?: string;
  perPage: number;
}

export interface UserPage {
  users: AdminUser[];
  total: number;
  totalCapped: boolean;
  next: string | null;
  prev: string | null;
}

/** The sort key of each order, its text form in a cursor, and how a cursor's text is read back. */
const ORDERS: Record<UserSort, { key: SQL; unindexed: SQL; keyText: SQL; fromText: (text: string) => SQL }> =
  {
    email: {
      key: sql`${users.email}`,
      unindexed: sql`(${users.email} || '')`,
      keyText: sql`${users.email}`,
      fromText: (t) => sql`${t}::text`,
    },
    username: {
      key: sql`${users.usernameKey}`,
      unindexed: sql`(${users.usernameKey} || '')`,
      keyText: sql`${users.usernameKey}`,
      fromText: (t) => sql`${t}::text`,
    },
    created_at: {
      key: sql`${users.createdAt}`,
      unindexed: sql`(${users.createdAt} + interval '0')`,
      // Microseconds kept (a JavaScript Date would drop them and break ties between close rows).
      keyText: sql`to_char(${users.createdAt} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"')`,
      fromText: (t) => sql`${t}::timestamptz`,
    },
  };

/** The filter of a query (search, role, status); undefined when none. */
function filterOf(q: UserPageQuery): SQL | undefined {
  const conditions: SQL[] = [];
  // Control characters cannot be typed into the search box; U+001F separates email and username in search_key.
  const search = q.search?.replace(/\p{Cc}/gu, '').trim();
  if (search) {
    // users.search_key is `email U+001F lower(username)` (one trigram index): LIKE on lower(text) finds what
    // ILIKE on either column would, at a fraction of the recheck cost.
    const key = sql`${users.searchKey}`;
    const pattern = likeContains(search);
    const local = /^([^@]{3,})@./.exec(search)?.[1];
    if (local) {
      // An address: its domain's trigrams are in many rows (every user of a big mail provider), so the trigram
      // index is asked for the local part only and the whole text is checked on those rows.
      const email = sql`(${users.email} || '')`;
      conditions.push(sql`${key} like lower(${likeContains(`${local}@`)})`, sql`${email} ilike ${pattern}`);
    } else {
      conditions.push(sql`${key} like lower(${pattern})`);
    }
  }
  if (q.role) conditions.push(sql`${users.roles} @> array[${q.role}]::text[]`);
  if (q.status === 'active') conditions.push(isNull(users.disabledAt));
  if (q.status === 'disabled') conditions.push(isNotNull(users.disabledAt));
  return conditions.length ? and(...conditions) : undefined;
}

/** Reads one page of the admin user list. @throws 400 for a cursor this server did not write. */
export async function userPage(db: Db, q: UserPageQuery): Promise<UserPage> {
  const request = decodeCursor(q.cursor);
  const order = ORDERS[q.sort];
  const filter = filterOf(q);
  // Reading direction: the list's own, reversed for 'last' and 'before' (cutPage turns the page around).
  const reversed = request.kind === 'last' || (request.kind === 'at' && request.side === 'before');
  const ascending = (q.dir === 'asc') !== reversed;
  const dir = sql.raw(ascending ? 'asc' : 'desc');
  const keyset = keysetOf(request, ascending, order);
  const where = and(filter, keyset);

  const search = Boolean(q.search?.trim()) && filter !== undefined;
  const readRows = (collect: boolean) =>
    db
      .select({
        id: users.id,
        email: users.email,
        username: users.username,
        roles: users.roles,
        emailConfirmed: users.emailConfirmed,
        disabledAt: users.disabledAt,
        createdAt: users.createdAt,
        keyText: sql<string>`${order.keyText}`,
        twoFactor: sql<boolean>`(${userTwoFactor.enabledAt} is not null)`,
      })
      .from(users)
      .leftJoin(userTwoFactor, eq(userTwoFactor.userId, users.id))
      .where(where)
      // A collected page sorts the order's key wrapped, so the planner cannot walk the sort index instead.
      .orderBy(sql`${collect ? order.unindexed : order.key} ${dir}`, sql`${users.id} ${dir}`)
      .limit(q.perPage + 1);
  const count = () => (filter ? cappedCount(db, filter) : unfilteredCount(db));
  let total: { n: number; capped: boolean };
  let rows: Awaited<ReturnType<typeof readRows>>;
  if (!search) {
    // No search: the page walks the sort index whatever the count, so both are read at once.
    [total, rows] = await Promise.all([count(), readRows(false)]);
  } else if (!(await isDense(db, filter))) {
    // A search matching a share of users too small to be met soon walking the sort index (matches of a name
    // cluster in the email and username orders): its matches are collected through the trigram index and
    // sorted, whatever the count, so the count and the page are read at once.
    [total, rows] = await Promise.all([count(), readRows(true)]);
  } else {
    // Dense matches: walking the sort index meets a page soon, unless the count shows they are few after all.
    total = await count();
    rows = await readRows(!total.capped);
  }
  const page = cutPage(request, rows, q.perPage, (r) => ({ key: r.keyText, id: r.id }));
  return {
    users: page.rows.map(toAdminUser),
    total: total.n,
    totalCapped: total.capped,
    next: page.next,
    prev: page.prev,
  };
}

/** The keyset condition of a cursor, in the reading direction. */
function keysetOf(
  request: PageRequest,
  ascending: boolean,
  order: (typeof ORDERS)[UserSort],
): SQL | undefined {
  if (request.kind !== 'at') return undefined;
  const op = sql.raw(ascending ? '>' : '<');
  return sql`(${order.key}, ${users.id}) ${op} (${order.fromText(request.key)}, ${request.id}::uuid)`;
}

async function unfilteredCount(db: Db): Promise<{ n: number; capped: boolean }> {
  const [row] = await db.select({ n: userCounts.n }).from(userCounts).where(eq(userCounts.id, 1));
  return { n: row?.n ?? 0, capped: false };
}

/** Share of users the planner expects a search to match above which walking the sort index finds a page soon. */
export const DENSE_SHARE = 0.2;

/** Whether the planner expects `filter` to match more than DENSE_SHARE of the users (pg_trgm's estimate). */
async function isDense(db: Db, filter: SQL): Promise<boolean> {
  const [plan, [all]] = await Promise.all([
    db.execute<{ 'QUERY PLAN': [{ Plan: { 'Plan Rows': number } }] }>(
      sql`explain (format json) select 1 from ${users} where ${filter}`,
    ),
    db.select({ n: userCounts.n }).from(userCounts).where(eq(userCounts.id, 1)),
  ]);
  const estimate = plan.rows[0]?.['QUERY PLAN'][0]?.Plan['Plan Rows'] ?? 0;
  return estimate > DENSE_SHARE * Math.max(1, all?.n ?? 0);
}

/** Matches of `filter`, counted up to ADMIN_SEARCH_COUNT_CAP + 1 (a search of a common text stops early). */
async function cappedCount(db: Db, filter: SQL): Promise<{ n: number; capped: boolean }> {
  const found = await db.execute<{ n: string | number }>(
    sql`select count(*) as n from (select 1 from ${users} where ${filter} limit ${ADMIN_SEARCH_COUNT_CAP + 1}) m`,
  );
  const n = Number(found.rows[0]?.n ?? 0);
  return { n, capped: n > ADMIN_SEARCH_COUNT_CAP };
}

/** A user row as the admin list shows it. */
export function toAdminUser(row: {
  id: string;
  email: string;
  username: string;
  roles: string[];
  emailConfirmed: boolean;
  disabledAt: Date | null;
  createdAt: Date;
  twoFactor: boolean;
}): AdminUser {
  return {
    id: row.id,
    email: row.email,
    username: row.username,
    roles: row.roles.filter((r): r is Role => Role.safeParse(r).success),
    email_confirmed: row.emailConfirmed,
    two_factor: row.twoFactor,
    disabled_at: row.disabledAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}
