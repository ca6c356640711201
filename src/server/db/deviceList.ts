/**
 * One page of a user's device list (spec §7 GET get_devices/: per_page, page, order_by, order_as, search,
 * group_id; §9 table defaults), fast at 100,000 devices per user (issue 16 bench: p95 ≤ 20 ms):
 * - the page's ids come from an index-only scan of the sort order's index (schema.ts devices_owner_*_idx),
 *   then only those rows are read ("deferred join"), so a deep page does not read the rows it skips;
 * - the unfiltered total is the owner's row of device_counts (kept by triggers), not a count of every row;
 * - a deep page of the unfiltered list starts from a page anchor: every ANCHOR_STEP-th (key, id) of the sort
 *   order, kept in memory per owner and order for one device_counts version (any change to the owner's devices
 *   bumps it), so no page walks more than ANCHOR_STEP index entries;
 * - a search (label, client name or peer id contains the text, case-insensitively) uses the pg_trgm indexes;
 *   when it matches few devices (≤ FEW_MATCHES, known from its count) they are collected from those indexes and
 *   sorted, else the sort order's index is walked (matches are dense enough to fill a page quickly);
 * - `is_active` is not stored (presence lives in the signalling server): online devices are few, so the page is
 *   cut from the online part and the offline part, each in id order, instead of sorting every row; the owner's
 *   online devices (and so active_devices_count, and a first page of online devices) come from ./onlineDevices.ts,
 *   read once per presence change.
 * Ties are broken by row id in the sort's direction.
 */
import { and, asc, count, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { DeviceRow } from '../auth/guard';
import type { Db } from './index';
import { ownerOnline, type PeerOwnerLookup } from './onlineDevices';
import { isAnyOf, likeContains } from './scope';
import { deviceCounts, devices } from './schema';

/** A search matching at most this many devices is collected by its trigram indexes, then sorted. */
export const FEW_MATCHES = 2000;
/** Page anchors are every ANCHOR_STEP-th position of a sort order (ascending). */
export const ANCHOR_STEP = 1000;
/** Pages starting (in ascending positions) before this walk the index from its start instead. */
export const ANCHOR_MIN_START = 4000;
/** Anchor lists kept (owner × sort order); the oldest is dropped beyond it. */
const ANCHOR_CACHE_MAX = 200;

type AnchoredOrder = 'label' | 'client_name' | 'created_at';
/** An order's anchors: keys[i] is the (sort key as text, id) at ascending position i × ANCHOR_STEP. */
interface Anchors {
  version: number;
  keys: Array<{ key: string; id: string }>;
}
const anchorCache = new Map<string, Anchors>();

/** Forgets every anchor list (tests). */
export function clearPageAnchors(): void {
  anchorCache.clear();
}

export interface DevicePageQuery {
  ownerId: string;
  page: number;
  perPage: number;
  orderBy: 'is_active' | 'label' | 'client_name' | 'created_at';
  orderAs: 'asc' | 'desc';
  /** Text the label, client name or peer id contains (trimmed; empty = no search). */
  search?: string;
  /** Only devices in these groups (null = any group or none). */
  groupIds?: string[] | null;
  /** Peer ids online now (signalling presence). */
  online: readonly string[];
  /** Who each online peer id belongs to, when known (narrows what is read; ./onlineDevices.ts). */
  ownerOfPeer?: PeerOwnerLookup;
}

export interface DevicePage {
  rows: DeviceRow[];
  /** Devices matching the filter. */
  total: number;
  /** The owner's devices online now (whatever the filter). */
  active: number;
}

export async function devicePage(db: Db, q: DevicePageQuery): Promise<DevicePage> {
  const conditions: SQL[] = [eq(devices.ownerId, q.ownerId)];
  const search = q.search?.trim();
  if (search) {
    const pattern = likeContains(search);
    conditions.push(
      or(
        ilike(devices.label, pattern),
        ilike(devices.clientName, pattern),
        ilike(devices.deviceId, pattern),
      ) as SQL,
    );
  }
  if (q.groupIds) conditions.push(inArray(devices.groupId, q.groupIds));
  const filter = and(...conditions)!;
  const isActive = isAnyOf(devices.deviceId, q.online);
  const offset = (q.page - 1) * q.perPage;
  const direction = q.orderAs === 'desc' ? desc : asc;

  const countOf = async (where: SQL | undefined) =>
    (await db.select({ n: count() }).from(devices).where(where))[0]?.n ?? 0;
  const idsOf = async (where: SQL | undefined, order: SQL[], limit: number, skip: number) =>
    limit <= 0
      ? []
      : (
          await db
            .select({ id: devices.id })
            .from(devices)
            .where(where)
            .orderBy(...order)
            .limit(limit)
            .offset(skip)
        ).map((r) => r.id);

  const column = {
    is_active: devices.id,
    label: devices.labelKey,
    client_name: devices.clientKey,
    created_at: devices.createdAt,
  }[q.orderBy];
  const unfiltered = conditions.length === 1;
  // The owner's devices online now, read once per presence change (./onlineDevices.ts).
  const onlineNow = await ownerOnline(db, q.ownerId, q.online, q.ownerOfPeer);
  const active = onlineNow.ids.length;
  // The unfiltered total is the owner's row of device_counts; a filtered one is counted.
  const totalCount = unfiltered
    ? sql`coalesce((select ${deviceCounts.n} from ${deviceCounts} where ${deviceCounts.ownerId} = ${q.ownerId}), 0)`
    : sql`(select count(*) from ${devices} where ${filter})`;

  if (q.orderBy === 'is_active') {
    // Online first, unfiltered, and the page lies within the online part: its ids are a slice of the owner's
    // online ids (id order, as below); only the total and the rows are read.
    if (unfiltered && q.orderAs === 'desc' && offset + q.perPage <= active) {
      const [rows, total] = await Promise.all([
        rowsOf(onlineNow.ids.slice(offset, offset + q.perPage)),
        unfilteredTotal(),
      ]);
      return { rows, total, active };
    }
    const page = await activeFirstIds();
    return { rows: await rowsOf(page.ids), total: page.total, active };
  }

  // A search that matches few devices: its matches, counted and sorted in one statement (materialized, so the
  // planner collects them from the trigram indexes instead of walking the sort index past every device), with
  // the owner's online count alongside.
  if (search) {
    const dir = sql.raw(q.orderAs === 'desc' ? 'desc' : 'asc');
    const found = await db.execute<{ n: string | number; ids: string[] }>(sql`
      with matches as materialized (
        select ${devices.id} as id, ${column} as key from ${devices} where ${filter} limit ${FEW_MATCHES + 1}
      )
      select (select count(*) from matches) as n,
             array(select id from matches order by key ${dir}, id ${dir} limit ${q.perPage} offset ${offset}) as ids`);
    const row = found.rows[0];
    const n = Number(row?.n ?? 0);
    if (n <= FEW_MATCHES) return { rows: await rowsOf(row?.ids ?? []), total: n, active };
    const total = await countOf(filter);
    return { rows: await rowsOf(await orderedIds(column, total)), total, active };
  }

  // Counts (and the owner's device_counts version, for page anchors) in one statement.
  const counted = await db.execute<{
    total: string | number;
    version: string | null;
  }>(
    sql`select ${totalCount} as total,
               (select ${deviceCounts.version} from ${deviceCounts} where ${deviceCounts.ownerId} = ${q.ownerId}) as version`,
  );
  const total = Number(counted.rows[0]?.total ?? 0);
  const version = Number(counted.rows[0]?.version ?? 0);
  const ids =
    (unfiltered ? await anchoredIds(q.orderBy as AnchoredOrder, column, total, version) : null) ??
    (await orderedIds(column, total));
  return { rows: await rowsOf(ids), total, active };

  /**
   * The page's ids when sorted by `is_active`, with the counts, in ONE statement. desc: online first; asc:
   * offline first; each part in id order. The first part is read only when the page starts in it (else LIMIT 0,
   * which reads nothing); the second part's LIMIT and OFFSET follow from the first part's count and rows.
   */
  async function activeFirstIds(): Promise<{ ids: string[]; total: number }> {
    // The owner's online devices are read once (materialized: one join with the online peer ids) and every
    // part below uses that set; the counts too (else each use re-runs them: EXPLAIN showed the online join
    // four times and 8 ms of planning).
    const online = sql`${devices.id} in (select id from o)`;
    const offline = sql`${devices.id} not in (select id from o)`;
    const onlineFirst = q.orderAs === 'desc';
    const firstWhere = and(filter, onlineFirst ? online : offline);
    const secondWhere = and(filter, onlineFirst ? offline : online);
    // Matching devices online: the owner's online count when there is no filter.
    const matchingOnline = unfiltered
      ? sql`(select count(*) from o)`
      : sql`(select count(*) from ${devices} where ${and(filter, online)})`;
    const firstCount = onlineFirst ? sql`(select mon from c)` : sql`(select total - mon from c)`;
    const found = await db.execute<{ total: string | number; ids: string[] }>(sql`
      with o as materialized (
        select ${devices.id} as id from ${devices} where ${and(eq(devices.ownerId, q.ownerId), isActive)}
      ),
      c as materialized (select ${totalCount} as total, ${matchingOnline} as mon),
      f as materialized (select array(
        select ${devices.id} from ${devices} where ${firstWhere} order by ${devices.id}
        limit case when ${offset}::int < ${firstCount} then ${q.perPage}::int else 0 end
        offset ${offset}::int
      ) as ids)
      select c.total,
             f.ids || array(
               select ${devices.id} from ${devices} where ${secondWhere} order by ${devices.id}
               limit ${q.perPage}::int - (select cardinality(ids) from f)
               offset greatest(0, ${offset}::int - ${firstCount})
             ) as ids
      from c, f`);
    const row = found.rows[0];
    return { ids: row?.ids ?? [], total: Number(row?.total ?? 0) };
  }

  /** The owner's device count (device_counts, kept by triggers). */
  async function unfilteredTotal(): Promise<number> {
    const found = await db.execute<{ total: string | number }>(sql`select ${totalCount} as total`);
    return Number(found.rows[0]?.total ?? 0);
  }

  /**
   * The page's ids in `column` order. A page in the second half is read backwards from the end (reverse order,
   * then reversed), so no page walks more than half of the matching devices.
   */
  async function orderedIds(column: AnyPgColumn, total: number) {
    if (offset >= total) return [];
    if (offset <= total / 2) {
      return idsOf(filter, [direction(column), direction(devices.id)], q.perPage, offset);
    }
    const reverse = q.orderAs === 'desc' ? asc : desc;
    const limit = Math.min(q.perPage, total - offset);
    const fromEnd = total - offset - limit;
    return (await idsOf(filter, [reverse(column), reverse(devices.id)], limit, fromEnd)).reverse();
  }

  /**
   * The page's ids of the unfiltered list from the nearest anchor at or before the page (ascending positions;
   * a descending page is read ascending, then reversed), or null when the page starts too near the top for
   * anchors to help.
   */
  async function anchoredIds(
    order: AnchoredOrder,
    column: AnyPgColumn,
    total: number,
    version: number,
  ): Promise<string[] | null> {
    if (offset >= total) return [];
    const limit = Math.min(q.perPage, total - offset);
    const start = q.orderAs === 'desc' ? total - offset - limit : offset;
    if (start < ANCHOR_MIN_START) return null;
    const anchors = await anchorsOf(order, column, version);
    const index = Math.min(Math.floor(start / ANCHOR_STEP), anchors.length - 1);
    const anchor = anchors[index];
    if (!anchor) return null;
    const key = order === 'created_at' ? sql`${anchor.key}::timestamptz` : sql`${anchor.key}::text`;
    const rows = await db
      .select({ id: devices.id })
      .from(devices)
      .where(
        and(eq(devices.ownerId, q.ownerId), sql`(${column}, ${devices.id}) >= (${key}, ${anchor.id}::uuid)`),
      )
      .orderBy(asc(column), asc(devices.id))
      .limit(limit)
      .offset(start - index * ANCHOR_STEP);
    const ids = rows.map((r) => r.id);
    return q.orderAs === 'desc' ? ids.reverse() : ids;
  }

  /** The owner's anchors of `order` for `version`: from the cache, or read with one index scan. */
  async function anchorsOf(order: AnchoredOrder, column: AnyPgColumn, version: number) {
    const cacheKey = `${q.ownerId}:${order}`;
    const cached = anchorCache.get(cacheKey);
    if (cached?.version === version) return cached.keys;
    const found = await db.execute<{ key: string; id: string }>(sql`
      select key, id from (
        select ${column}::text as key, ${devices.id} as id,
               row_number() over (order by ${column}, ${devices.id}) - 1 as pos
        from ${devices} where ${devices.ownerId} = ${q.ownerId}
      ) t where pos % ${ANCHOR_STEP} = 0 order by pos`);
    const keys = found.rows.map((r) => ({ key: r.key, id: r.id }));
    anchorCache.delete(cacheKey);
    anchorCache.set(cacheKey, { version, keys });
    if (anchorCache.size > ANCHOR_CACHE_MAX) anchorCache.delete(anchorCache.keys().next().value!);
    return keys;
  }

  /** The rows of `ids`, in that order. */
  async function rowsOf(ids: string[]): Promise<DeviceRow[]> {
    if (ids.length === 0) return [];
    const rows = await db.select().from(devices).where(inArray(devices.id, ids));
    const byId = new Map(rows.map((r) => [r.id, r]));
    return ids.flatMap((id) => byId.get(id) ?? []);
  }
}
