/**
 * A user's online devices, read once per presence list (src/server/db/onlineDevices.ts), on a real embedded
 * PostgreSQL: the answer is the owner's devices among the online peer ids, in order; a frozen list (as
 * Presence.onlineIds gives) is read once per owner, a new list is read again, an unfrozen one every time.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../../../src/server/db';
import { removeDataDir } from '../../../src/server/db/embedded';
import { ownerOnline } from '../../../src/server/db/onlineDevices';
import { devices, users } from '../../../src/server/db/schema';

const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} };

describe('owner online devices', () => {
  let dataDir: string;
  let database: Database;
  let owner: string;
  let other: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'online-devices-'));
    database = await openDatabase({ dataDir, databaseUrl: null, noSync: true }, quiet);
    const made = await database.db
      .insert(users)
      .values([
        { email: 'owner@x.io', passwordHash: 'x', username: 'owner' },
        { email: 'other@x.io', passwordHash: 'x', username: 'other' },
      ])
      .returning({ id: users.id });
    [owner, other] = [made[0]!.id, made[1]!.id];
    await database.db.execute(sql`
      insert into ${devices} (device_id, owner_id, label)
      select 'dev-' || lpad(n::text, 3, '0'), ${owner}::uuid, 'box ' || n from generate_series(1, 20) as n`);
    await database.db.execute(
      sql`insert into ${devices} (device_id, owner_id, label) values ('dev-other', ${other}::uuid, 'theirs')`,
    );
  }, 120_000);

  afterAll(async () => {
    await database?.close();
    removeDataDir(dataDir);
  });

  const rowsOf = async (deviceIds: string[]) =>
    (await database.db.select({ id: devices.id, deviceId: devices.deviceId }).from(devices)).filter((r) =>
      deviceIds.includes(r.deviceId),
    );

  it("answers the owner's devices among the online peer ids, row ids and peer ids each in order", async () => {
    const online = Object.freeze(['dev-007', 'dev-003', 'dev-other', 'web-browser-1', 'dev-015']);
    const got = await ownerOnline(database.db, owner, online);
    const mine = await rowsOf(['dev-003', 'dev-007', 'dev-015']);
    expect(got.deviceIds).toEqual(['dev-003', 'dev-007', 'dev-015']);
    expect(got.ids).toEqual(mine.map((r) => r.id).sort());
    expect((await ownerOnline(database.db, other, online)).deviceIds).toEqual(['dev-other']);
    expect((await ownerOnline(database.db, owner, Object.freeze([]))).ids).toEqual([]);
  });

  it('reads a frozen list once per owner, a new list again, and an unfrozen list every time', async () => {
    const online = Object.freeze(['dev-001', 'dev-002']);
    expect((await ownerOnline(database.db, owner, online)).deviceIds).toEqual(['dev-001', 'dev-002']);
    // The row goes: the same presence list still answers what it read (the server also closes the device's
    // socket, which makes a new list) …
    await database.db.delete(devices).where(eq(devices.deviceId, 'dev-002'));
    expect((await ownerOnline(database.db, owner, online)).deviceIds).toEqual(['dev-001', 'dev-002']);
    // … and a new list is read anew.
    expect((await ownerOnline(database.db, owner, Object.freeze([...online]))).deviceIds).toEqual([
      'dev-001',
    ]);
    const unfrozen = ['dev-001', 'dev-004'];
    expect((await ownerOnline(database.db, owner, unfrozen)).deviceIds).toEqual(['dev-001', 'dev-004']);
    await database.db.delete(devices).where(eq(devices.deviceId, 'dev-004'));
    expect((await ownerOnline(database.db, owner, unfrozen)).deviceIds).toEqual(['dev-001']);
  });

  it('sends only the peer ids of this owner or of no known owner when peer owners are known', async () => {
    const online = Object.freeze(['dev-005', 'dev-006', 'dev-other', 'web-browser-2']);
    const owners: Record<string, string> = { 'dev-005': owner, 'dev-006': other, 'dev-other': other };
    const seen: string[] = [];
    const lookup = (peerId: string) => {
      seen.push(peerId);
      return owners[peerId];
    };
    // dev-006 is the owner's row, but the signalling server says another user registered it: not read.
    expect((await ownerOnline(database.db, owner, online, lookup)).deviceIds).toEqual(['dev-005']);
    expect((await ownerOnline(database.db, other, online, lookup)).deviceIds).toEqual(['dev-other']);
    expect(seen.sort()).toEqual([...online, ...online].sort());
  });
});
