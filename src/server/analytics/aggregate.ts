/**
 * Dashboard aggregates in PostgreSQL (issue 11 "a grid of charts over events aggregated in PostgreSQL by time
 * bucket"). A chart counts the rows of its source — alarm events (./alarms.ts `events`), counter crossings or
 * use-case sightings (use_case_records) — by time bucket (date_bin from the window's start, empty buckets
 * filled with 0) or by one dimension, over [from, to) with the dashboard's filters.
 *
 * Events are read from the hourly rollup (event_rollup_hourly, kept by triggers) when the window's ends and
 * the bucket are whole hours — dashboards over a million events then read thousands of rows — and from the
 * events table itself otherwise (its (user_id, at) indexes bound the scan). Every value reaches SQL as a bound
 * parameter; column names come from fixed maps.
 */
import { sql, type SQL } from 'drizzle-orm';
import type { Chart, ChartData, Dimension, Filters } from '../../protocol/analytics';
import { SOURCE_DIMENSIONS } from '../../protocol/analytics';
import type { Db } from '../db';

export interface Window {
  from: Date;
  to: Date;
  bucketSeconds: number;
}

const HOUR_MS = 3_600_000;
/** Whether an events chart may read the hourly rollup. */
export const rollupFits = (w: Window): boolean =>
  w.bucketSeconds % 3600 === 0 && w.from.getTime() % HOUR_MS === 0 && w.to.getTime() % HOUR_MS === 0;

const EVENT_COLUMNS: Record<string, string> = { class: 'class', camera: 'camera_id', severity: 'severity' };
const RECORD_COLUMNS: Record<string, string> = {
  class: 'class',
  camera: 'camera_id',
  direction: 'direction',
  age_band: 'age_band',
  gender: 'gender',
};

/** Bucket starts of the window (ISO), in order. */
export function bucketStarts(w: Window): string[] {
  const out: string[] = [];
  const step = w.bucketSeconds * 1000;
  for (let t = w.from.getTime(); t < w.to.getTime(); t += step) out.push(new Date(t).toISOString());
  return out;
}

/** The SQL of one chart (exported for the bench's per-query timings). */
export function chartQuery(userId: string, chart: Chart, w: Window, filters: Filters): SQL {
  const dims = SOURCE_DIMENSIONS[chart.source];
  const useRollup = chart.source === 'events' && rollupFits(w);
  const table =
    chart.source === 'events'
      ? useRollup
        ? sql.raw('event_rollup_hourly')
        : sql.raw('events')
      : sql.raw('use_case_records');
  const timeCol = sql.raw(useRollup ? 'hour' : 'at');
  const columns = chart.source === 'events' ? EVENT_COLUMNS : RECORD_COLUMNS;
  const value = useRollup ? sql`coalesce(sum(count), 0)::float8` : sql`count(*)::float8`;
  const where: SQL[] = [
    sql`user_id = ${userId}`,
    sql`${timeCol} >= ${w.from.toISOString()}::timestamptz`,
    sql`${timeCol} < ${w.to.toISOString()}::timestamptz`,
  ];
  if (chart.source === 'crossings') where.push(sql`kind = 'crossing'`);
  if (chart.source === 'sightings') where.push(sql`kind = 'sighting'`);
  for (const [dim, v] of Object.entries(filters) as [Dimension, string][]) {
    // a filter on a dimension this source lacks leaves the chart out of it (as Metabase does for unlinked cards)
    if (!dims.includes(dim) || v === undefined) continue;
    where.push(sql`${sql.raw(columns[dim] as string)} = ${v}`);
  }
  const key =
    chart.group_by === 'time'
      ? sql`date_bin(make_interval(secs => ${w.bucketSeconds}), ${timeCol}, ${w.from.toISOString()}::timestamptz)`
      : sql.raw(`coalesce(${columns[chart.group_by] as string}, '')`);
  return sql`select ${key} as key, ${value} as value from ${table} where ${sql.join(where, sql` and `)} group by 1 order by 1`;
}

/** One chart's rows: time charts get every bucket (0 when empty), dimension charts their values by count. */
export async function chartRows(
  db: Db,
  userId: string,
  chart: Chart,
  w: Window,
  filters: Filters,
): Promise<ChartData> {
  const result = await db.execute(chartQuery(userId, chart, w, filters));
  const rows = (result.rows as { key: unknown; value: unknown }[]).map((r) => ({
    key: r.key instanceof Date ? r.key.toISOString() : String(r.key),
    value: Number(r.value),
  }));
  if (chart.group_by !== 'time') return { id: chart.id, rows: rows.sort((a, b) => b.value - a.value) };
  const byStart = new Map(rows.map((r) => [new Date(r.key).toISOString(), r.value]));
  return { id: chart.id, rows: bucketStarts(w).map((key) => ({ key, value: byStart.get(key) ?? 0 })) };
}

/** Every chart of a dashboard, in parallel. */
export function dashboardRows(db: Db, userId: string, charts: readonly Chart[], w: Window, filters: Filters) {
  return Promise.all(charts.map((c) => chartRows(db, userId, c, w, filters)));
}
