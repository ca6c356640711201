/**
 * Issue 11 analytics bench (BENCH_ONLY=analytics, its own server and embedded PostgreSQL): 1,000,000 alarm
 * events inserted with generate_series (30 days, 5 classes, 8 cameras, 3 severities; the events table's
 * triggers keep the hourly rollup), then
 * - dashboard: a dashboard of six charts (events per hour; by class, camera, severity; a cross-filtered per-hour
 *   and by-class pair) loaded through POST analytics/dashboards/:id/data over the 30 days: wall time per load
 *   (HTTP included) and the server's own time for all six aggregates (server_ms); target ≤ 500 ms;
 * - each aggregate: the same six charts one at a time (a one-chart dashboard each), p95 per chart; target
 *   ≤ 100 ms; plus a non-hour-aligned 24 h window at 5-minute buckets, read from the events table itself.
 * BENCH_EXPLAIN=1 also prints (stderr) EXPLAIN (ANALYZE, BUFFERS) of the 24 h window's time and class charts
 * as the product runs them and without its planner settings (RAW_PLAN), with the events table's visibility map
 * and last autovacuum.
 */
import { PgDialect } from 'drizzle-orm/pg-core';
import { chartPlan, chartQuery, RAW_PLAN, type Window } from '../../src/server/analytics/aggregate';
import type { Chart } from '../../src/protocol/analytics';
import { sqlClient } from '../unit/analytics/db';
import { withOwnServer } from './ownServer';
import { stats, type Stats } from './stats';

const EVENTS = 1_000_000;
const SAMPLES = 30;
const USER = { email: 'bench@analytics.local', password: 'bench-analytics-1' };

export function benchAnalytics(): Promise<Record<string, unknown>> {
  return withOwnServer('analytics', {}, async (server, dataDir) => {
    const db = await sqlClient(dataDir);
    try {
      const { id: userId } = await server.seed.ensureUser(USER);
      const end = Date.UTC(2026, 10, 1);
      const start = end - 30 * 86_400_000;
      const t0 = performance.now();
      await db.query(
        `insert into events (user_id, camera_id, at, class, score, box, severity, idempotency_key)
       select $1, 'cam-' || (g % 8), $2::timestamptz + (g::float8 / $3) * interval '30 days',
         (array['person','car','truck','bicycle','dog'])[1 + (g * 7) % 5], 0.5 + (g % 50) / 100.0,
         '{"x":0.1,"y":0.1,"w":0.2,"h":0.2}'::jsonb, (array['info','warning','critical'])[1 + (g * 13) % 3], 'b' || g
       from generate_series(0, $3 - 1) g`,
        [userId, new Date(start).toISOString(), EVENTS],
      );
      const insertS = Math.round((performance.now() - t0) / 100) / 10;
      await db.query('analyze events; analyze event_rollup_hourly');
      const rollupRows = Number((await db.query('select count(*) n from event_rollup_hourly')).rows[0].n);

      const login = await fetch(`${server.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(USER),
      });
      const { token } = (await login.json()) as { token: string };
      const call = async (method: string, p: string, body: unknown) => {
        const res = await fetch(`${server.url}/api/${p}`, {
          method,
          headers: { Authorization: `Token ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        if (res.status !== 200) throw new Error(`${p}: HTTP ${res.status} ${await res.text()}`);
        return res.json() as Promise<{ id: string; server_ms: number; charts: { rows: unknown[] }[] }>;
      };
      const col = await call('POST', 'analytics/collections', { name: 'Bench' });
      const charts = [
        { id: 'per-hour', source: 'events', group_by: 'time', type: 'line' },
        { id: 'class', source: 'events', group_by: 'class', type: 'bar' },
        { id: 'camera', source: 'events', group_by: 'camera', type: 'bar' },
        { id: 'severity', source: 'events', group_by: 'severity', type: 'pie' },
        { id: 'crossings', source: 'crossings', group_by: 'direction', type: 'pie' },
        { id: 'sightings', source: 'sightings', group_by: 'gender', type: 'bar' },
      ];
      const six = await call('POST', 'analytics/dashboards', { name: 'Six', collection_id: col.id, charts });
      const singles = await Promise.all(
        charts.map((c) =>
          call('POST', 'analytics/dashboards', { name: c.id, collection_id: col.id, charts: [c] }),
        ),
      );
      const month = {
        from: new Date(start).toISOString(),
        to: new Date(end).toISOString(),
        bucket_seconds: 3600,
      };
      const day = {
        from: new Date(end - 86_400_000 + 1000).toISOString(),
        to: new Date(end).toISOString(),
        bucket_seconds: 300,
      };
      const time = async (id: string, body: object): Promise<{ wall: Stats; server: Stats }> => {
        for (let i = 0; i < 3; i++) await call('POST', `analytics/dashboards/${id}/data`, body);
        const wall: number[] = [];
        const srv: number[] = [];
        for (let i = 0; i < SAMPLES; i++) {
          const t = performance.now();
          const r = await call('POST', `analytics/dashboards/${id}/data`, body);
          wall.push(performance.now() - t);
          srv.push(r.server_ms);
        }
        return { wall: stats(wall), server: stats(srv) };
      };
      const dashboard = await time(six.id, { ...month, filters: {} });
      const filtered = await time(six.id, { ...month, filters: { class: 'car', severity: 'critical' } });
      const perChart: Record<string, Stats> = {};
      for (const [i, c] of charts.entries())
        perChart[c.id] = (await time(singles[i]!.id, { ...month, filters: {} })).wall;
      const rawDay: Record<string, Stats> = {};
      for (const [i, c] of charts.slice(0, 4).entries())
        rawDay[c.id] = (await time(singles[i]!.id, { ...day, filters: {} })).wall;
      if (process.env.BENCH_EXPLAIN) {
        const w: Window = {
          from: new Date(day.from),
          to: new Date(day.to),
          bucketSeconds: day.bucket_seconds,
        };
        const dialect = new PgDialect();
        const explain = async (label: string, chart: Chart, settings: boolean) => {
          const plan = chartPlan(chart, w);
          const q = dialect.sqlToQuery(chartQuery(userId, chart, w, {}, plan));
          await db.query('begin');
          if (settings && plan !== 'rollup') await db.query(dialect.sqlToQuery(RAW_PLAN).sql);
          const r = await db.query(`explain (analyze, buffers) ${q.sql}`, q.params);
          await db.query('commit');
          const lines = r.rows.map((x: Record<string, string>) => x['QUERY PLAN']).join('\n');
          process.stderr.write(`--- ${chart.id} (${plan}), ${label}\n${q.sql}\n${lines}\n`);
        };
        const vm = await db.query(
          `select c.relallvisible, c.relpages, s.last_autovacuum from pg_class c
         join pg_stat_user_tables s on s.relid = c.oid where c.relname = 'events'`,
        );
        process.stderr.write(`events: ${JSON.stringify(vm.rows[0])}\n`);
        for (const c of charts.slice(0, 2) as Chart[]) {
          await explain('as the product runs it', c, true);
          await explain('without RAW_PLAN', c, false);
        }
      }
      const worstP95 = Math.max(
        ...Object.values(perChart).map((s) => s.p95),
        ...Object.values(rawDay).map((s) => s.p95),
      );
      return {
        events: EVENTS,
        insert_s: insertS,
        rollup_rows: rollupRows,
        dashboard_six_charts_ms: dashboard,
        dashboard_six_charts_filtered_ms: filtered,
        aggregate_ms_30d_hourly: perChart,
        aggregate_ms_24h_5min_raw: rawDay,
        met: {
          dashboard_le_500ms: dashboard.wall.p95 <= 500 && filtered.wall.p95 <= 500,
          aggregate_p95_le_100ms: worstP95 <= 100,
        },
      };
    } finally {
      await db.end();
    }
  });
}
