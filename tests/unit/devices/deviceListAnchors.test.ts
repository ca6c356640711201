/**
 * Page anchors of the device list (src/server/db/deviceList.ts): deep pages of the unfiltered list start from
 * the nearest anchor (every ANCHOR_STEP-th key of the order) and must answer exactly what a full sort in
 * PostgreSQL gives — across anchor boundaries, both directions, ties, microsecond timestamps — and again
 * after devices are renamed, added or removed (device_counts.version moves on, the anchors are read anew).
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db';
import {
  ANCHOR_MIN_START,
  ANCHOR_STEP,
  clearPageAnchors,
  devicePage,
} from '../../../src/server/db/deviceList';
import { removeDataDir } from '../../../src/server/db/embedded';
import { deviceCounts, devices, users } from '../../../src/server/db/schema';

const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} };
const N = ANCHOR_MIN_START + 3 * ANCHOR_STEP + 321;
const PER_PAGE = 50;
type Order = 'label' | 'client_name' | 'created_at';
const COLUMN = { label: devices.labelKey, client_name: devices.clientKey, created_at: devices.createdAt };

describe('device list page anchors', () => {
  let dataDir: string;
  let database: Database;
  let owner: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'device-anchors-'));
    database = await openDatabase({ dataDir, databaseUrl: null, noSync: true }, quiet);
    const [made] = await database.db
      .insert(users)
      .values({ email: 'fleet@x.io', passwordHash: 'x', username: 'fleet' })
      .returning({ id: users.id });
    owner = made!.id;
    // Many ties (labels repeat every 700, client names every 5) and created_at apart by microseconds.
    await database.db.execute(sql`
      insert into ${devices} (device_id, owner_id, label, client_name, created_at)
      select 'dev-' || lpad(to_hex(n), 16, '0'), ${owner}::uuid, 'box ' || lpad((n % 700)::text, 4, '0'),
             'client-' || (n % 5), timestamptz '2026-01-01' + make_interval(secs => (n % 900) * 0.000001)
      from generate_series(1, ${N}) as n`);
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    removeDataDir(dataDir);
  });

  /** Every id of the owner in `order` (ascending; ties by id): PostgreSQL's full sort. */
  async function fullSort(order: Order): Promise<string[]> {
    const rows = await database.db
      .select({ id: devices.id })
      .from(devices)
      .where(eq(devices.ownerId, owner))
      .orderBy(asc(COLUMN[order]), asc(devices.id));
    return rows.map((r) => r.id);
  }

  /** Pages at and around every anchor boundary, and the last ones, both ways, equal the full sort's slices. */
  async function checkAllOrders() {
    for (const order of ['label', 'client_name', 'created_at'] as const) {
      const ascending = await fullSort(order);
      const descending = [...ascending].reverse();
      const total = ascending.length;
      const lastPage = Math.ceil(total / PER_PAGE);
      const pages = new Set([1, lastPage, lastPage - 1, lastPage + 1]);
      for (let at = ANCHOR_MIN_START - ANCHOR_STEP; at < total; at += ANCHOR_STEP)
        for (const d of [-1, 0, 1]) pages.add(Math.max(1, Math.floor(at / PER_PAGE) + 1 + d));
      for (const orderAs of ['asc', 'desc'] as const)
        for (const page of pages) {
          const got = await devicePage(database.db, {
            ownerId: owner,
            orderBy: order,
            orderAs,
            page,
            perPage: PER_PAGE,
            online: [],
          });
          const from = (page - 1) * PER_PAGE;
          const want = (orderAs === 'asc' ? ascending : descending).slice(from, from + PER_PAGE);
          expect(
            got.rows.map((r) => r.id),
            `${order} ${orderAs} page ${page}`,
          ).toEqual(want);
          expect(got.total).toBe(total);
        }
    }
  }

  it('answers deep pages exactly like a full sort, across anchor boundaries and both ways', async () => {
    clearPageAnchors();
    await checkAllOrders();
  });

  it('reads its anchors anew after devices are renamed, added and removed', async () => {
    const { db } = database;
    const version = async () =>
      (
        await db.select({ v: deviceCounts.version }).from(deviceCounts).where(eq(deviceCounts.ownerId, owner))
      )[0]?.v ?? 0;
    const before = await version();
    // Renaming moves devices across many anchors (the anchors of the previous test are cached).
    await db.execute(
      sql`update ${devices} set label = 'aaa ' || label where owner_id = ${owner}::uuid and right(device_id, 1) in ('3', 'a')`,
    );
    expect(await version()).toBeGreaterThan(before);
    await checkAllOrders();
    await db.execute(
      sql`delete from ${devices} where owner_id = ${owner}::uuid and right(device_id, 1) = '7'`,
    );
    await db.execute(sql`
      insert into ${devices} (device_id, owner_id, label, client_name)
      select 'new-' || n, ${owner}::uuid, 'box 0350', 'client-0' from generate_series(1, 1234) as n`);
    await checkAllOrders();
  });
});
