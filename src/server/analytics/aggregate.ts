/**
 * Dashboard aggregates in PostgreSQL (issue 11 "a grid of charts over events aggregated in PostgreSQL by time
 * bucket"). A chart counts the rows of its source — alarm events (./alarms.ts `events`), counter crossings or
 * use-case sightings (use_case_records) — by time bucket (date_bin from the window's start, empty buckets
 * filled with 0) or by one dimension, over [from, to) with the dashboard's filters.
 *
 * Events are read from the hourly rollup (event_rollup_hourly, kept by triggers) when the window's ends and
 * the bucket are whole hours — dashboards over a million events then read thousands of rows. A dimension chart
 * over any other window reads its whole hours from the rollup and only the partial hours at its two ends from
 * the events table (same counts: the rollup holds exactly the events of each hour). A time chart whose buckets
 * are not whole rollup hours reads the events table itself (its (user_id, at) btrees bound the scan).
 *
 * Reads of the events table run with bitmap and sequential scans off for their transaction (RAW_PLAN): the
 * table's BRIN index on `at` (./db/schema/alarms.ts) has no summary for page ranges written since the last
 * VACUUM, and the planner, which cannot see that, still picks it for a time range; its bitmap then covers every
 * unsummarized page (measured after inserting 1,000,000 events: 25,513 lossy heap blocks, 961,674 rows
 * rechecked, ~400–600 ms for a 24 h window of 33,332 rows, against 23–29 ms through the (user_id, at) btree
 * with its 33,332 heap fetches). The newest events — what recent windows ask for — are exactly the ones not
 * yet summarized, so a per-user window is read through the btrees. Every value reaches SQL as a bound
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

/** The hour starts bounding the window's whole hours: [fullFrom, fullTo) (empty when fullFrom >= fullTo). */
function wholeHours(w: Window): { fullFrom: number; fullTo: number } {
  return {
    fullFrom: Math.ceil(w.from.getTime() / HOUR_MS) * HOUR_MS,
    fullTo: Math.floor(w.to.getTime() / HOUR_MS) * HOUR_MS,
  };
}

/** How a chart reads its rows: all from the rollup, all from its table, or whole hours + the two edges. */
export type ChartPlan = 'rollup' | 'raw' | 'split';
export function chartPlan(chart: Chart, w: Window): ChartPlan {
  if (chart.source !== 'events') return 'raw';
  if (rollupFits(w)) return 'rollup';
  const { fullFrom, fullTo } = wholeHours(w);
  return chart.group_by !== 'time' && fullFrom < fullTo ? 'split' : 'raw';
}

/**
 * The settings a transaction reading the events table runs with, local to it: no bitmap or sequential scan (see
 * the header: an unsummarized BRIN range was read whole; that index is gone since migration 0024, and the
 * planner is still kept on the per-user btrees, which the bench measured) and no parallel
 * workers (a split chart's parts take a few ms each; launching two workers took 600 ms of a 601 ms query on this
 * 2-core machine under load, measured with EXPLAIN ANALYZE in the bench).
 */
export const RAW_PLAN = sql`select set_config('enable_bitmapscan', 'off', true), set_config('enable_seqscan', 'off', true),
  set_config('max_parallel_workers_per_gather', '0', true)`;

/** One source's filtered counts by key over [from, to) (time column `timeCol`), as `key, value` rows. */
function countsBy(
  userId: string,
  chart: Chart,
  w: Window,
  filters: Filters,
  part: { table: string; timeCol: string; value: SQL; from: string; to: string },
): SQL {
  const dims = SOURCE_DIMENSIONS[chart.source];
  const timeCol = sql.raw(part.timeCol);
  const columns = chart.source === 'events' ? EVENT_COLUMNS : RECORD_COLUMNS;
  const where: SQL[] = [
    sql`user_id = ${userId}`,
    sql`${timeCol} >= ${part.from}::timestamptz`,
    sql`${timeCol} < ${part.to}::timestamptz`,
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
  return sql`select ${key} as key, ${part.value} as value from ${sql.raw(part.table)} where ${sql.join(where, sql` and `)} group by 1`;
}

/**
 * The SQL of one chart (exported for the bench's plans), `key, value` rows ordered by key, under `plan`
 * (default chartPlan). 'split' sums the rollup over the whole hours and the events table over the partial hours
 * at each end; the other plans read one table over [from, to).
 */
export function chartQuery(
  userId: string,
  chart: Chart,
  w: Window,
  filters: Filters,
  plan: ChartPlan = chartPlan(chart, w),
): SQL {
  const from = w.from.toISOString();
  const to = w.to.toISOString();
  const rollup = {
    table: 'event_rollup_hourly',
    timeCol: 'hour',
    value: sql`coalesce(sum(count), 0)::float8`,
  };
  const table = chart.source === 'events' ? 'events' : 'use_case_records';
  const raw = { table, timeCol: 'at', value: sql`count(*)::float8` };
  if (plan === 'rollup')
    return sql`${countsBy(userId, chart, w, filters, { ...rollup, from, to })} order by 1`;
  if (plan === 'raw') return sql`${countsBy(userId, chart, w, filters, { ...raw, from, to })} order by 1`;
  const { fullFrom, fullTo } = wholeHours(w);
  const hoursFrom = new Date(fullFrom).toISOString();
  const hoursTo = new Date(fullTo).toISOString();
  const parts = [countsBy(userId, chart, w, filters, { ...rollup, from: hoursFrom, to: hoursTo })];
  if (w.from.getTime() < fullFrom)
    parts.push(countsBy(userId, chart, w, filters, { ...raw, from, to: hoursFrom }));
  if (fullTo < w.to.getTime()) parts.push(countsBy(userId, chart, w, filters, { ...raw, from: hoursTo, to }));
  return sql`select key, sum(value)::float8 as value from (${sql.join(parts, sql` union all `)}) parts group by 1 order by 1`;
}

/** One chart's rows: time charts get every bucket (0 when empty), dimension charts their values by count. */
export async function chartRows(
  db: Db,
  userId: string,
  chart: Chart,
  w: Window,
  filters: Filters,
  plan: ChartPlan = chartPlan(chart, w),
): Promise<ChartData> {
  const query = chartQuery(userId, chart, w, filters, plan);
  const result =
    chart.source === 'events' && plan !== 'rollup'
      ? await db.transaction(async (tx) => {
          await tx.execute(RAW_PLAN);
          return tx.execute(query);
        })
      : await db.execute(query);
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
