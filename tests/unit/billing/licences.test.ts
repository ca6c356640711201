/**
 * What licences grant over time, on a real PostgreSQL (src/server/billing/licences.ts): a device licence raises
 * the device's quota only while it runs (before its start and after its end the free/base quota holds; a
 * revoked one grants nothing); a renewal starts when the running licence ends; a feature licence grants its
 * feature to the account; the state each has at a given time and the lapsed list the renew banner reads.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FREE_MAX_STREAMS } from '../../../src/protocol/billing';
import {
  createLicence,
  effectiveMaxStreams,
  hasFeature,
  licencesOf,
  revokeLicence,
} from '../../../src/server/billing/licences';
import { planById } from '../../../src/server/billing/plans';
import { openDatabase, type Database } from '../../../src/server/db';
import { removeDataDir } from '../../../src/server/db/embedded';
import { devices, users } from '../../../src/server/db/schema';

const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} };
const DAY = 86_400_000;
let dataDir: string;
let database: Database;
let userId = '';
let device = { id: '', deviceId: 'dev-lic-1' };

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'billing-licences-'));
  database = await openDatabase({ dataDir, databaseUrl: null, noSync: true }, quiet);
  const [u] = await database.db
    .insert(users)
    .values({ email: 'lic@x.io', passwordHash: 'x', username: 'lic' })
    .returning({ id: users.id });
  userId = u!.id;
  const [d] = await database.db
    .insert(devices)
    .values({ deviceId: device.deviceId, ownerId: userId, label: 'Licensed box' })
    .returning({ id: devices.id });
  device = { id: d!.id, deviceId: device.deviceId };
}, 120_000);

afterAll(async () => {
  await database?.close();
  removeDataDir(dataDir);
});

describe('licences over time', () => {
  it('raise the quota only while they run; renewals follow; revoked and expired grant nothing', async () => {
    const db = database.db;
    const t0 = new Date('2030-01-01T00:00:00Z');
    const plan = planById('device-pro-monthly')!;
    expect(await effectiveMaxStreams(db, device.id, FREE_MAX_STREAMS, t0)).toBe(FREE_MAX_STREAMS);

    const first = await createLicence(db, { userId, plan, device, source: 'purchase' }, t0);
    expect(first.startsAt).toEqual(t0);
    expect(first.expiresAt).toEqual(new Date(t0.getTime() + 30 * DAY));
    const renewal = await createLicence(
      db,
      { userId, plan, device, source: 'purchase' },
      new Date(t0.getTime() + DAY),
    );
    expect(renewal.startsAt).toEqual(first.expiresAt);

    const at = (days: number) => new Date(t0.getTime() + days * DAY);
    expect(await effectiveMaxStreams(db, device.id, FREE_MAX_STREAMS, at(-1))).toBe(FREE_MAX_STREAMS);
    expect(await effectiveMaxStreams(db, device.id, FREE_MAX_STREAMS, at(1))).toBe(32);
    expect(await effectiveMaxStreams(db, device.id, FREE_MAX_STREAMS, at(45))).toBe(32);
    // Both ended: back to the free tier. A device whose base quota is higher keeps it.
    expect(await effectiveMaxStreams(db, device.id, FREE_MAX_STREAMS, at(61))).toBe(FREE_MAX_STREAMS);
    expect(await effectiveMaxStreams(db, device.id, 40, at(1))).toBe(40);

    // States at day 50: the first expired, the renewal running and ending within 14 days.
    const mid = await licencesOf(db, userId, at(50));
    expect(mid.licences.map((l) => l.state).sort()).toEqual(['expired', 'expiring']);
    expect(mid.lapsed).toEqual([]); // the renewal covers it
    // Day 70: both expired; the banner names the plan once. Day 100: too long ago to announce.
    const after = await licencesOf(db, userId, at(70));
    expect(after.lapsed).toHaveLength(1);
    expect(after.lapsed[0]).toMatchObject({ plan_id: 'device-pro-monthly', device_id: device.deviceId });
    expect((await licencesOf(db, userId, at(100))).lapsed).toEqual([]);

    expect(await revokeLicence(db, renewal.id, userId, at(40))).toMatchObject({ id: renewal.id });
    expect(await revokeLicence(db, renewal.id, userId, at(40))).toBe('revoked');
    expect(await revokeLicence(db, crypto.randomUUID(), userId)).toBeNull();
    expect(await effectiveMaxStreams(db, device.id, FREE_MAX_STREAMS, at(45))).toBe(FREE_MAX_STREAMS);
  });

  it('a feature licence grants its feature to the account while it runs', async () => {
    const db = database.db;
    const t0 = new Date('2031-06-01T00:00:00Z');
    expect(await hasFeature(db, userId, 'priority-support', t0)).toBe(false);
    const plan = planById('priority-support')!;
    const l = await createLicence(db, { userId, plan, device: null, source: 'admin', days: 10 }, t0);
    expect(l).toMatchObject({ scope: 'feature', deviceRowId: null, features: ['priority-support'] });
    expect(await hasFeature(db, userId, 'priority-support', new Date(t0.getTime() + DAY))).toBe(true);
    expect(await hasFeature(db, userId, 'priority-support', new Date(t0.getTime() + 11 * DAY))).toBe(false);
    await expect(
      createLicence(db, { userId, plan: planById('free')!, device: null, source: 'admin' }),
    ).rejects.toThrow('free tier');
  });
});
