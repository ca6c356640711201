/**
 * The device list query at scale (src/server/db/deviceList.ts) on a real embedded PostgreSQL: every sort order,
 * page and search answers exactly what sorting all the owner's devices would (deferred join, the is_active
 * split, the few-matches search and the index walk), and device_counts follows inserts and deletes.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db';
import { devicePage, FEW_MATCHES, type DevicePageQuery } from '../../../src/server/db/deviceList';
import { deviceCounts, devices, users } from '../../../src/server/db/schema';
import { removeDataDir } from '../../../src/server/db/embedded';

const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} };
const N = FEW_MATCHES + 500; // a search for a word every label has takes the index walk

describe('device list query', () => {
  let dataDir: string;
  let database: Database;
  let owner: string;
  let other: string;
  let all: { id: string; deviceId: string; labelKey: string; clientKey: string; createdAt: Date }[];

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'device-list-'));
    database = await openDatabase({ dataDir, databaseUrl: null, noSync: true }, quiet);
    const { db } = database;
    const made = await db
      .insert(users)
      .values([
        { email: 'owner@x.io', passwordHash: 'x', username: 'owner' },
        { email: 'other@x.io', passwordHash: 'x', username: 'other' },
      ])
      .returning({ id: users.id });
    [owner, other] = [made[0]!.id, made[1]!.id];
    // Labels with duplicates and mixed case (ties broken by id), client names from a few values.
    await db.execute(sql`
      insert into ${devices} (device_id, owner_id, label, client_name, created_at)
      select 'dev-' || lpad(to_hex(n), 16, '0'), ${owner}::uuid,
             case when n % 3 = 0 then 'Box ' else 'box ' end || lpad((n % 1000)::text, 4, '0'),
             'client-' || (n % 7), now() - make_interval(secs => n % 500)
      from generate_series(1, ${N}) as n`);
    await db.execute(
      sql`insert into ${devices} (device_id, owner_id, label) values ('dev-other', ${other}::uuid, 'box 0001')`,
    );
    all = await db
      .select({
        id: devices.id,
        deviceId: devices.deviceId,
        labelKey: devices.labelKey,
        clientKey: devices.clientKey,
        createdAt: devices.createdAt,
      })
      .from(devices)
      .where(eq(devices.ownerId, owner));
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    removeDataDir(dataDir);
  });

  const cmp = (a: string | number, b: string | number) => (a < b ? -1 : a > b ? 1 : 0);
  /** What sorting every matching device would give (ties by id in the sort's direction). */
  function expected(q: Omit<DevicePageQuery, 'ownerId'>) {
    const s = q.search?.toLowerCase();
    let rows = all.filter(
      (r) => !s || r.labelKey.includes(s) || r.clientKey.includes(s) || r.deviceId.includes(s),
    );
    const sign = q.orderAs === 'desc' ? -1 : 1;
    if (q.orderBy === 'is_active') {
      const on = new Set(q.online);
      const part = (online: boolean) =>
        rows.filter((r) => on.has(r.deviceId) === online).sort((a, b) => cmp(a.id, b.id));
      rows = q.orderAs === 'desc' ? [...part(true), ...part(false)] : [...part(false), ...part(true)];
    } else {
      const key = (r: (typeof all)[number]) =>
        q.orderBy === 'label'
          ? r.labelKey
          : q.orderBy === 'client_name'
            ? r.clientKey
            : r.createdAt.getTime();
      rows = [...rows].sort((a, b) => sign * (cmp(key(a), key(b)) || cmp(a.id, b.id)));
    }
    const from = (q.page - 1) * q.perPage;
    return { ids: rows.slice(from, from + q.perPage).map((r) => r.id), total: rows.length };
  }

  async function check(q: Omit<DevicePageQuery, 'ownerId'>) {
    const got = await devicePage(database.db, { ...q, ownerId: owner });
    const want = expected(q);
    expect(
      got.rows.map((r) => r.id),
      JSON.stringify(q),
    ).toEqual(want.ids);
    expect(got.total, JSON.stringify(q)).toBe(want.total);
    expect(got.rows.every((r) => r.ownerId === owner)).toBe(true);
  }

  it('orders every column both ways on first, middle and last pages like a full sort', async () => {
    const lastPage = Math.ceil(N / 50);
    for (const orderBy of ['label', 'client_name', 'created_at'] as const)
      for (const orderAs of ['asc', 'desc'] as const)
        for (const page of [1, 2, Math.ceil(lastPage / 2), lastPage, lastPage + 1])
          await check({ orderBy, orderAs, page, perPage: 50, online: [] });
  });

  it('puts online devices first (desc) or last (asc), across the page that holds the border', async () => {
    const online = all.slice(0, 75).map((r) => r.deviceId);
    for (const orderAs of ['asc', 'desc'] as const)
      for (const page of [1, 2, 3, Math.ceil(N / 50)])
        await check({ orderBy: 'is_active', orderAs, page, perPage: 50, online });
    const got = await devicePage(database.db, {
      ownerId: owner,
      orderBy: 'label',
      orderAs: 'asc',
      page: 1,
      perPage: 5,
      online: [...online, 'dev-other'],
    });
    expect(got.active).toBe(75); // another user's online device does not count
  });

  it('splits a searched list by presence too, and counts online devices whatever the search', async () => {
    const online = all.slice(0, 75).map((r) => r.deviceId);
    for (const search of ['x 004', 'box'])
      for (const orderAs of ['asc', 'desc'] as const)
        for (const page of [1, 2, Math.ceil(N / 50)])
          await check({ orderBy: 'is_active', orderAs, page, perPage: 50, online, search });
    for (const orderBy of ['is_active', 'label'] as const) {
      const got = await devicePage(database.db, {
        ownerId: owner,
        orderBy,
        orderAs: 'desc',
        page: 1,
        perPage: 5,
        online,
        search: 'nothing-like-it',
      });
      expect(got.rows.length + got.total, orderBy).toBe(0);
      expect(got.active, orderBy).toBe(75);
    }
  });

  it('searches few matches (collected and sorted) and many (index walk) alike, case-insensitively', async () => {
    for (const search of ['BOX 0042', 'x 004', 'client-3', 'dev-00000000000001', 'nothing-like-it'])
      for (const orderAs of ['asc', 'desc'] as const)
        await check({ orderBy: 'label', orderAs, page: 1, perPage: 20, online: [], search });
    // 'box' is in every label: more than FEW_MATCHES, the other path.
    await check({ orderBy: 'label', orderAs: 'asc', page: 3, perPage: 50, online: [], search: 'box' });
    await check({
      orderBy: 'created_at',
      orderAs: 'desc',
      page: 2,
      perPage: 50,
      online: [],
      search: 'client',
    });
    // LIKE's wildcards are plain text.
    await check({ orderBy: 'label', orderAs: 'asc', page: 1, perPage: 20, online: [], search: '%_' });
  });

  it('keeps device_counts with inserts and deletes', async () => {
    const { db } = database;
    const countOf = async (id: string) =>
      (await db.select({ n: deviceCounts.n }).from(deviceCounts).where(eq(deviceCounts.ownerId, id)))[0]?.n;
    expect(await countOf(owner)).toBe(N);
    expect(await countOf(other)).toBe(1);
    await db.delete(devices).where(eq(devices.deviceId, 'dev-other'));
    await db.insert(devices).values([
      { deviceId: 'dev-a', ownerId: other, label: 'A' },
      { deviceId: 'dev-b', ownerId: other, label: 'B' },
    ]);
    expect(await countOf(other)).toBe(2);
    const page = await devicePage(db, {
      ownerId: other,
      orderBy: 'label',
      orderAs: 'asc',
      page: 1,
      perPage: 5,
      online: [],
    });
    expect(page.total).toBe(2);
    expect(page.rows.map((r) => r.label)).toEqual(['A', 'B']);
  });
});
