/**
 * Event charts over windows that are not whole hours (src/server/analytics/aggregate.ts): the 'split' plan
 * (rollup for the whole hours, the events table for the partial hours at each end) gives exactly the rows of
 * the 'raw' plan (the events table alone) and of a count done here in JS, with events on every edge (the
 * window's ends, the hour boundaries, a millisecond either side), filters, other users' events, and rows
 * updated and deleted after insert (the rollup's triggers). Buckets and hours are absolute instants (date_bin
 * on timestamptz, rollup hours in UTC), so the session's time zone — one with a half-hour offset — and a DST
 * change inside the window change nothing.
 */
import { drizzle } from 'drizzle-orm/node-postgres';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Chart, Dimension, Filters } from '../../../src/protocol/analytics';
import { chartPlan, chartRows, type ChartPlan, type Window } from '../../../src/server/analytics/aggregate';
import type { Db } from '../../../src/server/db';
import * as schema from '../../../src/server/db/schema';
import { startTestServer, type TestServer } from '../server/helpers';
import { sqlClient } from './db';

let server: TestServer;
let client: pg.Client;
let db: Db;
let userId: string;
let otherId: string;

const H = 3_600_000;
// 2026-03-29 01:00 UTC is the EU's DST change; the window below spans it
const FROM = new Date(Date.UTC(2026, 2, 28, 22, 17, 23, 456));
const TO = new Date(Date.UTC(2026, 2, 29, 4, 42, 0, 1));
const CLASSES = ['person', 'car', 'truck'];
const CAMERAS = ['cam-1', 'cam-2'];
const SEVERITIES = ['info', 'warning', 'critical'];
interface Ev {
  at: number;
  class: string;
  camera: string;
  severity: string;
}
let owned: Ev[] = [];

/** Deterministic pseudo-random 0..1 (mulberry32). */
function rng(seed: number) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function insert(user: string, evs: Ev[], tag: string) {
  for (let i = 0; i < evs.length; i += 500) {
    const part = evs.slice(i, i + 500);
    await client.query(
      `insert into events (user_id, camera_id, at, class, score, box, severity, idempotency_key)
       select $1, c, a, k, 0.9, '{"x":0,"y":0,"w":0.1,"h":0.1}'::jsonb, s, $2 || n
       from unnest($3::text[], $4::timestamptz[], $5::text[], $6::text[]) with ordinality as u(c, a, k, s, n)`,
      [
        user,
        `${tag}-${i}-`,
        part.map((e) => e.camera),
        part.map((e) => new Date(e.at).toISOString()),
        part.map((e) => e.class),
        part.map((e) => e.severity),
      ],
    );
  }
}

function events(seed: number, n: number): Ev[] {
  const r = rng(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)] as T;
  const edges = [FROM.getTime(), TO.getTime()];
  for (let h = Math.ceil(FROM.getTime() / H) * H - H; h <= TO.getTime() + H; h += H) edges.push(h);
  const ats = edges.flatMap((t) => [t - 1, t, t + 1]);
  for (let i = 0; i < n; i++)
    ats.push(FROM.getTime() - 2 * H + Math.floor(r() * (TO.getTime() - FROM.getTime() + 4 * H)));
  return ats.map((at) => ({ at, class: pick(CLASSES), camera: pick(CAMERAS), severity: pick(SEVERITIES) }));
}

beforeAll(async () => {
  server = await startTestServer();
  userId = (await server.seed.ensureUser({ email: 'split@analytics.test', password: 'split-pass-1' })).id;
  otherId = (await server.seed.ensureUser({ email: 'other@analytics.test', password: 'other-pass-1' })).id;
  client = await sqlClient(server.dataDir);
  db = drizzle(client, { schema });
  owned = events(11, 3000);
  await insert(userId, owned, 'a');
  await insert(otherId, events(12, 1000), 'b');
  // rows that change after insert: the rollup's update and delete triggers must follow
  await client.query(
    `update events set class = 'car', at = at + interval '37 minutes' where user_id = $1 and class = 'truck'
       and idempotency_key like 'a-0-%' and (substring(idempotency_key from 5))::int % 7 = 0`,
    [userId],
  );
  await client.query(
    `delete from events where user_id = $1 and idempotency_key like 'a-500-%'
       and (substring(idempotency_key from 7))::int % 5 = 0`,
    [userId],
  );
  const rows = await client.query(
    `select extract(epoch from at) * 1000 as at, class, camera_id, severity from events where user_id = $1`,
    [userId],
  );
  owned = rows.rows.map((x) => ({
    at: Math.round(Number(x.at)),
    class: x.class,
    camera: x.camera_id,
    severity: x.severity,
  }));
}, 90_000);
afterAll(async () => {
  await client?.end();
  await server?.dispose();
});

const FIELD: Record<string, keyof Ev> = { class: 'class', camera: 'camera', severity: 'severity' };
function expected(dim: Dimension, w: Window, filters: Filters) {
  const counts = new Map<string, number>();
  for (const e of owned) {
    if (e.at < w.from.getTime() || e.at >= w.to.getTime()) continue;
    if (Object.entries(filters).some(([d, v]) => e[FIELD[d] as keyof Ev] !== v)) continue;
    const k = String(e[FIELD[dim] as keyof Ev]);
    counts.set(k, (counts.get(k) ?? 0) + 1);
  }
  return [...counts]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([key, value]) => ({ key, value }))
    .sort((a, b) => b.value - a.value);
}

const WINDOWS: [string, Window][] = [
  ['neither end on the hour, across the DST change', { from: FROM, to: TO, bucketSeconds: 300 }],
  ['start on the hour', { from: new Date(Math.ceil(FROM.getTime() / H) * H), to: TO, bucketSeconds: 3600 }],
  ['end on the hour', { from: FROM, to: new Date(Math.floor(TO.getTime() / H) * H), bucketSeconds: 60 }],
  [
    'one whole hour and two edges',
    {
      from: new Date(FROM.getTime() + 50 * 60_000),
      to: new Date(FROM.getTime() + 3 * H - 60_000),
      bucketSeconds: 300,
    },
  ],
];
const FILTERS: Filters[] = [{}, { class: 'car' }, { camera: 'cam-2', severity: 'critical' }];

describe('event charts over windows that are not whole hours', () => {
  it('picks the split plan for dimension charts, the events table for sub-hour time charts', () => {
    const w = WINDOWS[0]![1];
    expect(chartPlan({ id: 'c', source: 'events', group_by: 'class', type: 'bar' } as Chart, w)).toBe(
      'split',
    );
    expect(chartPlan({ id: 't', source: 'events', group_by: 'time', type: 'line' } as Chart, w)).toBe('raw');
    const within = {
      from: new Date(FROM.getTime() + 60_000),
      to: new Date(FROM.getTime() + 20 * 60_000),
      bucketSeconds: 60,
    };
    expect(chartPlan({ id: 'c', source: 'events', group_by: 'class', type: 'bar' } as Chart, within)).toBe(
      'raw',
    );
    const aligned = {
      from: new Date(Date.UTC(2026, 2, 28)),
      to: new Date(Date.UTC(2026, 2, 29)),
      bucketSeconds: 3600,
    };
    expect(chartPlan({ id: 'c', source: 'events', group_by: 'class', type: 'bar' } as Chart, aligned)).toBe(
      'rollup',
    );
  });

  for (const timeZone of ['UTC', 'Asia/Kolkata', 'Europe/Berlin'])
    for (const [name, w] of WINDOWS)
      it(`gives the events table's exact counts: ${name}, session time zone ${timeZone}`, async () => {
        await client.query(`set time zone '${timeZone}'`);
        for (const dim of ['class', 'camera', 'severity'] as Dimension[])
          for (const filters of FILTERS) {
            const chart = { id: dim, source: 'events', group_by: dim, type: 'bar' } as Chart;
            const want = expected(dim, w, filters);
            expect(want.length).toBeGreaterThan(0);
            const rows = async (plan: ChartPlan) =>
              (await chartRows(db, userId, chart, w, filters, plan)).rows;
            expect(await rows('split')).toEqual(want);
            expect(await rows('raw')).toEqual(want);
            expect(await rows(chartPlan(chart, w))).toEqual(want);
          }
        const time = { id: 't', source: 'events', group_by: 'time', type: 'line' } as Chart;
        const buckets = (await chartRows(db, userId, time, w, {})).rows;
        const total = owned.filter((e) => e.at >= w.from.getTime() && e.at < w.to.getTime()).length;
        expect(buckets.reduce((s, b) => s + b.value, 0)).toBe(total);
        expect(buckets[0]!.key).toBe(w.from.toISOString());
      });
});
