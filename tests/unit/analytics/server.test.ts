/**
 * Use cases and dashboards on a real server with PostgreSQL (src/server/routes/analytics.ts): a person counter
 * on a job, the device's tracker fed the sim scene's frames at 15 fps posts its crossings, and the counts per
 * bucket equal the scene truth (sceneTruth.lineCrossings); demographic and plate use cases likewise; a repeated
 * post records once; another user gets 404; dashboards over events use the hourly rollup and agree with raw SQL.
 */
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createScene, hashSeed, sceneObjectsAt } from '../../../src/agent/backends/sim/scene';
import { lineCrossings, objectsSeen } from '../../../src/agent/backends/sim/sceneTruth';
import { UseCaseTracker } from '../../../src/agent/useCases/counter';
import type { DeviceUseCase, UseCaseRecordIn } from '../../../src/protocol/analytics';
import type { Detection } from '../../../src/protocol/inference';
import { api, login, startTestServer, type TestServer } from '../server/helpers';
import { sqlClient } from './db';

let server: TestServer;
let db: pg.Client;
let owner: string;
let other: string;
let ownerId: string;
let deviceToken: string;
let jobId: string;

const W = 640;
const H = 480;
const T0 = Date.UTC(2026, 10, 27, 10, 0, 0);
const scene = createScene(hashSeed('sim-analytics-cam-1'));

/** The sim engine's detections of the frame at `wall` (every object; what src/agent/inference/sim.ts sends). */
function detectionsAt(wall: number): Detection[] {
  return sceneObjectsAt(scene, W, H, wall).map((b, i) => ({
    class_id: 0,
    class_name: b.label,
    score: 0.9,
    track_id: i + 1,
    box: [b.x / W, b.y / H, b.width / W, b.height / H],
    ...(b.attributes ? { attributes: { ...b.attributes } } : {}),
  }));
}
function run(u: DeviceUseCase, t0: number, t1: number, fps = 15): UseCaseRecordIn[] {
  const tracker = new UseCaseTracker(u);
  const out: UseCaseRecordIn[] = [];
  for (let t = t0; t <= t1; t += 1000 / fps)
    out.push(...tracker.frame({ wall: t, width: W, height: H, detections: detectionsAt(t) }));
  return out;
}
const qs = (q: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString();
async function post(records: UseCaseRecordIn[]) {
  for (let i = 0; i < records.length; i += 500) {
    const r = await api(server, 'POST', 'device/use-cases/records', {
      token: deviceToken,
      body: { records: records.slice(i, i + 500) },
    });
    expect(r.status).toBe(200);
  }
}

beforeAll(async () => {
  server = await startTestServer();
  ownerId = (await server.seed.ensureUser({ email: 'owner@analytics.test', password: 'owner-pass-1' })).id;
  await server.seed.ensureUser({ email: 'other@analytics.test', password: 'other-pass-1' });
  owner = (await login(server, 'owner@analytics.test', 'owner-pass-1')).token;
  other = (await login(server, 'other@analytics.test', 'other-pass-1')).token;
  const device = await server.seed.ensureDevice({ ownerId, label: 'Counter box', chipsetId: '0' });
  deviceToken = await server.seed.issueDeviceToken(device.id);
  db = await sqlClient(server.dataDir);
  const r = await db.query(
    `insert into inference_jobs (owner_id, device_row_id, job_name, application_name, cameras, state, options, runtime)
     values ($1, $2, 'Entrance people', 'People detector', '{cam-1}', 'started', '{}', '{}') returning id`,
    [ownerId, device.id],
  );
  jobId = r.rows[0].id;
}, 90_000);
afterAll(async () => {
  await db?.end();
  await server?.dispose();
});

describe('use cases REST', () => {
  const line = { x1: 0.5, y1: 0, x2: 0.5, y2: 1 };

  it('counts a person counter’s crossings per interval exactly as the scene truth', async () => {
    const c = await api(server, 'POST', 'use-cases', {
      token: owner,
      body: { name: 'Door', kind: 'person-counter', job_id: jobId, line, interval_seconds: 60 },
    });
    expect(c.status).toBe(200);
    expect(c.body).toMatchObject({ kind: 'person-counter', camera_id: 'cam-1', line });
    const noLine = await api(server, 'POST', 'use-cases', {
      token: owner,
      body: { name: 'X', kind: 'person-counter', job_id: jobId },
    });
    expect(noLine.status).toBe(400);
    expect(JSON.stringify(noLine.body)).toMatch(/Draw the counting line/);

    const list = await api(server, 'GET', 'device/use-cases', { token: deviceToken });
    const u = list.body.use_cases.find((x: DeviceUseCase) => x.id === c.body.id) as DeviceUseCase;
    expect(u).toMatchObject({ kind: 'person-counter', job_id: jobId, camera_id: 'cam-1' });

    const records = run(u, T0, T0 + 5 * 60_000);
    await post(records);
    await post(records); // a repeated post records nothing twice

    const q = { from: new Date(T0 + 1000).toISOString(), to: new Date(T0 + 1000 + 4 * 60_000).toISOString() };
    const counts = await api(
      server,
      'GET',
      `use-cases/${c.body.id}/counts?${qs({ ...q, bucket_seconds: 60 })}`,
      { token: owner },
    );
    expect(counts.body).toMatchObject({ buckets: expect.any(Array) });
    const truth = lineCrossings(scene, W, H, line, T0, T0 + 5 * 60_000, { labels: ['person'] });
    expect(truth.length).toBeGreaterThan(10);
    for (const b of counts.body.buckets) {
      const s = Date.parse(b.start);
      // the device sees a crossing at its first frame past the line (≤ 1/15 s after the truth's time)
      const inBucket = truth.filter((t) => t.timeMs >= s && t.timeMs < s + 60_000);
      const nearEdge = truth.some(
        (t) => Math.abs(t.timeMs - s) < 100 || Math.abs(t.timeMs - s - 60_000) < 100,
      );
      if (nearEdge) continue;
      expect({ in: b.in, out: b.out }).toEqual({
        in: inBucket.filter((t) => t.direction === 'in').length,
        out: inBucket.filter((t) => t.direction === 'out').length,
      });
    }
    expect(counts.body.buckets).toHaveLength(4);
    const other404 = await api(server, 'GET', `use-cases/${c.body.id}/counts?${qs(q)}`, { token: other });
    expect(other404.status).toBe(404);
  }, 60_000);

  it('records each person seen with age band and gender, and each vehicle with its plate and speed', async () => {
    const d = await api(server, 'POST', 'use-cases', {
      token: owner,
      body: { name: 'Who', kind: 'demographic', job_id: jobId },
    });
    const v = await api(server, 'POST', 'use-cases', {
      token: owner,
      body: { name: 'Plates', kind: 'vehicle-plate', job_id: jobId },
    });
    const list = (await api(server, 'GET', 'device/use-cases', { token: deviceToken })).body
      .use_cases as DeviceUseCase[];
    const t1 = T0 + 2 * 60_000;
    await post([
      ...run(
        list.find((x) => x.id === d.body.id)!,
        T0,
        t1,
      ),
      ...run(
        list.find((x) => x.id === v.body.id)!,
        T0,
        t1,
      ),
    ]);

    const people = await api(
      server,
      'GET',
      `use-cases/${d.body.id}/people?${qs({ from: new Date(T0).toISOString(), to: new Date(t1 + 1).toISOString(), bucket_seconds: 3600 })}`,
      { token: owner },
    );
    expect(people.status).toBe(200);
    const truthPeople = new Map(
      objectsSeen(scene, W, H, T0, t1, { labels: ['person'], stepMs: 1000 / 15 }).map((s) => [
        (s.attributes as { identity: string }).identity,
        s.attributes,
      ]),
    );
    expect(people.body.people.map((p: { identity: string }) => p.identity).sort()).toEqual(
      [...truthPeople.keys()].sort(),
    );
    for (const p of people.body.people)
      expect(truthPeople.get(p.identity)).toMatchObject({ age_band: p.age_band, gender: p.gender });

    const vehicles = await api(server, 'GET', `use-cases/${v.body.id}/vehicles`, { token: owner });
    const truthCars = objectsSeen(scene, W, H, T0, t1, { labels: ['car'], stepMs: 1000 / 15 });
    const plates = truthCars.map((s) => (s.attributes as { plate: string }).plate);
    expect(vehicles.body.vehicles.map((x: { plate: string }) => x.plate).sort()).toEqual([...plates].sort());
    // measured speeds of the cars crossing the frame within 3 % of the truth (boxes are drawn at even pixels;
    // the bouncing car turns within the measured second, so its straight-line travel understates its speed)
    let measured = 0;
    for (const x of vehicles.body.vehicles as { plate: string; speed: number | null }[]) {
      const t = truthCars.find((s) => (s.attributes as { plate: string }).plate === x.plate)!;
      if (x.speed === null || scene.objects[t.track - 1]!.motion !== 'cross') continue;
      measured++;
      expect(Math.abs(x.speed - t.speed) / t.speed).toBeLessThan(0.03);
    }
    expect(measured).toBeGreaterThan(5);
    // searchable by part of the plate, any case, without the dash
    const one = plates[3]!;
    const found = await api(
      server,
      'GET',
      `use-cases/${v.body.id}/vehicles?${qs({ q: one.replace('-', '').slice(1).toLowerCase() })}`,
      { token: owner },
    );
    expect(found.body.vehicles.map((x: { plate: string }) => x.plate)).toContain(one);
    expect(found.body.vehicles.length).toBeLessThan(vehicles.body.vehicles.length);
  }, 60_000);
});

describe('dashboards REST', () => {
  it('keeps collections and dashboards with their layout, and aggregates events through the rollup', async () => {
    const col = await api(server, 'POST', 'analytics/collections', { token: owner, body: { name: 'Site' } });
    expect(col.status).toBe(200);
    expect(
      (await api(server, 'POST', 'analytics/collections', { token: owner, body: { name: 'Site' } })).status,
    ).toBe(409);
    const charts = [
      { id: 'a', title: 'Per hour', source: 'events', group_by: 'time', type: 'line' },
      { id: 'b', title: 'By class', source: 'events', group_by: 'class', type: 'bar' },
      { id: 'c', title: 'Crossings', source: 'crossings', group_by: 'direction', type: 'pie' },
    ];
    const dash = await api(server, 'POST', 'analytics/dashboards', {
      token: owner,
      body: {
        name: 'Overview',
        collection_id: col.body.id,
        charts,
        layout: [{ i: 'a', x: 0, y: 0, w: 6, h: 4 }],
      },
    });
    expect(dash.status).toBe(200);
    const saved = await api(server, 'PUT', `analytics/dashboards/${dash.body.id}`, {
      token: owner,
      body: { layout: [{ i: 'a', x: 2, y: 1, w: 5, h: 3 }] },
    });
    expect(saved.body.layout).toEqual([{ i: 'a', x: 2, y: 1, w: 5, h: 3 }]);
    expect((await api(server, 'GET', `analytics/dashboards/${dash.body.id}`, { token: other })).status).toBe(
      404,
    );

    // 5,000 events over 10 hours: classes and severities cycle
    await db.query(
      `insert into events (user_id, camera_id, at, class, score, box, severity, idempotency_key)
       select $1, 'cam-' || (g % 3), $2::timestamptz + (g * 7.2) * interval '1 second',
         (array['person','car','ball'])[1 + g % 3], 0.9, '{}'::jsonb, (array['info','warning','critical'])[1 + g % 3 / 1],
         'k' || g
       from generate_series(0, 4999) g`,
      [ownerId, new Date(T0).toISOString()],
    );
    const body = {
      from: new Date(T0).toISOString(),
      to: new Date(T0 + 10 * 3_600_000).toISOString(),
      bucket_seconds: 3600,
      filters: {},
    };
    const data = await api(server, 'POST', `analytics/dashboards/${dash.body.id}/data`, {
      token: owner,
      body,
    });
    expect(data.status).toBe(200);
    const perHour = data.body.charts.find((c: { id: string }) => c.id === 'a').rows;
    expect(perHour).toHaveLength(10);
    expect(perHour.every((r: { value: number }) => r.value === 500)).toBe(true);
    const byClass = data.body.charts.find((c: { id: string }) => c.id === 'b').rows;
    expect(byClass.map((r: { value: number }) => r.value).reduce((a: number, b: number) => a + b)).toBe(5000);
    // a filter (a clicked bar) narrows every chart of its source; a non-aligned window reads events itself
    const filtered = await api(server, 'POST', `analytics/dashboards/${dash.body.id}/data`, {
      token: owner,
      body: { ...body, from: new Date(T0 + 1000).toISOString(), filters: { class: 'car' } },
    });
    const raw = await db.query(
      `select count(*)::int n from events where user_id = $1 and class = 'car' and at >= $2 and at < $3`,
      [ownerId, new Date(T0 + 1000).toISOString(), body.to],
    );
    const sum = filtered.body.charts
      .find((c: { id: string }) => c.id === 'a')
      .rows.reduce((t: number, r: { value: number }) => t + r.value, 0);
    expect(sum).toBe(raw.rows[0].n);
    // the rollup follows deletes
    await db.query(`delete from events where user_id = $1 and class = 'ball'`, [ownerId]);
    const after = await api(server, 'POST', `analytics/dashboards/${dash.body.id}/data`, {
      token: owner,
      body,
    });
    const classes = after.body.charts
      .find((c: { id: string }) => c.id === 'b')
      .rows.map((r: { key: string }) => r.key);
    expect(classes.sort()).toEqual(['car', 'person']);
  }, 60_000);
});
