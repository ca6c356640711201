/**
 * The delivery outbox on a real PostgreSQL (src/server/alarmChannels/outbox.ts, worker.ts): enqueueing writes
 * one row per linked enabled channel and one notification, inside the caller's transaction (a rollback leaves
 * nothing) and only once per event (idempotency key); two workers with pools of their own share 60 rows and
 * send each exactly once; a failing channel is retried with backoff and given up after the most attempts, each
 * attempt recorded.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { enqueueEventDeliveries } from '../../../src/server/alarmChannels/outbox';
import type {
  AttemptResult,
  OutboundMessage,
  SendableChannel,
} from '../../../src/server/alarmChannels/senders';
import { startOutboxWorker } from '../../../src/server/alarmChannels/worker';
import { boxWithKey } from '../../../src/server/auth/secretBox';
import { openDatabase, type Database } from '../../../src/server/db';
import { removeDataDir } from '../../../src/server/db/embedded';
import {
  alarmChannels,
  alarms,
  channels,
  deliveries,
  deliveryAttempts,
  events,
  notifications,
  users,
} from '../../../src/server/db/schema';

const quiet = { info: () => {}, warn: () => {}, debug: () => {}, error: () => {} };
const box = boxWithKey(Buffer.alloc(32, 7));
let dataDir: string;
let database: Database;
let userId = '';
let alarmId = '';
let hookA = '';
let hookB = '';

async function newEvent(n: number) {
  const [e] = await database.db
    .insert(events)
    .values({
      userId,
      alarmId,
      cameraId: 'cam-1',
      at: new Date(),
      class: 'person',
      score: 0.87,
      box: { x: 0.1, y: 0.1, w: 0.2, h: 0.4 },
      severity: 'critical',
      idempotencyKey: `ev-${n}-${Math.random()}`,
    })
    .returning();
  return e!;
}

const workerPool = () => new pg.Pool({ ...(database.pool.options as pg.PoolConfig), max: 3 });

async function until(check: () => Promise<boolean>, ms = 20_000) {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'alarm-outbox-'));
  database = await openDatabase({ dataDir, databaseUrl: null, noSync: true }, quiet);
  const [u] = await database.db
    .insert(users)
    .values({ email: 'outbox@x.io', passwordHash: 'x', username: 'outbox' })
    .returning({ id: users.id });
  userId = u!.id;
  const [a] = await database.db
    .insert(alarms)
    .values({ userId, name: 'Yard person', severity: 'critical' })
    .returning({ id: alarms.id });
  alarmId = a!.id;
  const mk = async (name: string, enabled = true) => {
    const [c] = await database.db
      .insert(channels)
      .values({
        userId,
        name,
        kind: 'webhook',
        enabled,
        config: { kind: 'webhook', url: 'http://127.0.0.1:9/hook' },
        secretSealed: box.seal('whsec_x'),
      })
      .returning({ id: channels.id });
    return c!.id;
  };
  hookA = await mk('A');
  hookB = await mk('B');
  const off = await mk('off', false);
  await database.db
    .insert(alarmChannels)
    .values([hookA, hookB, off].map((channelId) => ({ alarmId, channelId })));
}, 120_000);

afterAll(async () => {
  await database?.close();
  removeDataDir(dataDir);
});

describe('enqueueEventDeliveries', () => {
  it('writes one row per enabled linked channel and one notification, once per event', async () => {
    const e = await newEvent(1);
    const first = await database.db.transaction((tx) => enqueueEventDeliveries(tx, e));
    expect(first.deliveries).toBe(2);
    expect(first.notification).toMatchObject({
      title: 'Yard person',
      variant: 'danger',
      read: false,
      event_id: e.id,
    });
    expect(first.notification!.message).toBe('person · 87% · cam-1');
    const again = await database.db.transaction((tx) => enqueueEventDeliveries(tx, e));
    expect(again).toEqual({ deliveries: 0, notification: null });
    const rows = await database.db.select().from(deliveries).where(eq(deliveries.eventId, e.id));
    expect(rows.map((r) => r.idempotencyKey).sort()).toEqual([`${e.id}:${hookA}`, `${e.id}:${hookB}`].sort());
    expect(rows.every((r) => r.status === 'pending' && r.attempts === 0)).toBe(true);
    const ns = await database.db.select().from(notifications).where(eq(notifications.eventId, e.id));
    expect(ns).toHaveLength(1);
  });

  it('leaves nothing when the caller’s transaction rolls back', async () => {
    const e = await newEvent(2);
    await expect(
      database.db.transaction(async (tx) => {
        await enqueueEventDeliveries(tx, e);
        throw new Error('recording failed');
      }),
    ).rejects.toThrow('recording failed');
    expect(await database.db.select().from(deliveries).where(eq(deliveries.eventId, e.id))).toHaveLength(0);
    expect(
      await database.db.select().from(notifications).where(eq(notifications.eventId, e.id)),
    ).toHaveLength(0);
  });

  it('does nothing for an event without an alarm', async () => {
    const e = { ...(await newEvent(3)), alarmId: null };
    expect(await enqueueEventDeliveries(database.db, e)).toEqual({ deliveries: 0, notification: null });
  });
});

describe('outbox worker', () => {
  it('two workers share the rows and send each exactly once', async () => {
    await database.db.delete(deliveries);
    for (let i = 0; i < 30; i++) await enqueueEventDeliveries(database.db, await newEvent(100 + i));
    const sent: string[] = [];
    const byWorker = [0, 0];
    const sender =
      (w: number) =>
      async (_c: SendableChannel, m: OutboundMessage): Promise<AttemptResult> => {
        await new Promise((r) => setTimeout(r, 5 + Math.random() * 15));
        sent.push(m.idempotencyKey!);
        byWorker[w]! += 1;
        return { ok: true, code: 200, error: null, durationMs: 10 };
      };
    const pools = [workerPool(), workerPool()];
    const workers = pools.map((pool, w) =>
      startOutboxWorker({
        pool,
        box,
        senders: {} as never,
        log: quiet,
        concurrency: 3,
        pollMs: 50,
        send: sender(w),
      }),
    );
    await until(async () => {
      const [r] = await database.db
        .select({ n: sql<number>`count(*)::int` })
        .from(deliveries)
        .where(eq(deliveries.status, 'delivered'));
      return r!.n === 60;
    });
    await Promise.all(workers.map((w) => w.stop()));
    await Promise.all(pools.map((p) => p.end()));
    expect(sent).toHaveLength(60);
    expect(new Set(sent).size).toBe(60);
    expect(byWorker[0]).toBeGreaterThan(0);
    expect(byWorker[1]).toBeGreaterThan(0);
    const attempts = await database.db.select().from(deliveryAttempts);
    expect(attempts.filter((a) => a.ok && a.deliveryId)).toHaveLength(60);
  });

  it('retries a failing channel with backoff, then gives up after the most attempts', async () => {
    await database.db.delete(deliveries);
    const e = await newEvent(200);
    await enqueueEventDeliveries(database.db, e);
    const tries = new Map<string, number[]>();
    const pool = workerPool();
    const worker = startOutboxWorker({
      pool,
      box,
      senders: {} as never,
      log: quiet,
      concurrency: 2,
      pollMs: 20,
      maxAttempts: 3,
      backoff: (n) => n * 100,
      send: async (c) => {
        tries.set(c.id, [...(tries.get(c.id) ?? []), Date.now()]);
        // A recovers on its third try; B never does.
        const ok = c.id === hookA && tries.get(c.id)!.length === 3;
        return ok
          ? { ok: true, code: 200, error: null, durationMs: 1 }
          : { ok: false, code: 503, error: 'HTTP 503', durationMs: 1 };
      },
    });
    await until(async () => {
      const rows = await database.db.select().from(deliveries).where(eq(deliveries.eventId, e.id));
      return rows.every((r) => r.status !== 'pending');
    });
    await worker.stop();
    await pool.end();
    const rows = await database.db.select().from(deliveries).where(eq(deliveries.eventId, e.id));
    const a = rows.find((r) => r.channelId === hookA)!;
    const b = rows.find((r) => r.channelId === hookB)!;
    expect(a).toMatchObject({ status: 'delivered', attempts: 3 });
    expect(b).toMatchObject({ status: 'failed', attempts: 3, lastError: 'HTTP 503' });
    const gaps = tries
      .get(hookB)!
      .map((t, i, all) => (i ? t - all[i - 1]! : 0))
      .slice(1);
    expect(gaps[0]).toBeGreaterThanOrEqual(90);
    expect(gaps[1]).toBeGreaterThanOrEqual(190);
    const logged = await database.db
      .select()
      .from(deliveryAttempts)
      .where(eq(deliveryAttempts.deliveryId, b.id));
    expect(logged.map((l) => [l.ok, l.responseCode])).toEqual([
      [false, 503],
      [false, 503],
      [false, 503],
    ]);
  });
});
