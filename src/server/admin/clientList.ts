/**
 * The admin clients list (spec §2 /admin-panel/clients; issue 13 "clients (devices of every user, online
 * state)"): every user's devices with owner, online state (signalling presence, as get_devices' is_active),
 * client version and last seen; search (label, client name, peer id or owner email contains the text,
 * case-insensitively), online/offline filter, keyset paging in (lower(label), id) order; totals counted up to
 * ADMIN_SEARCH_COUNT_CAP + 1 for a filtered list.
 *
 * "Last seen" is `device_last_seen`: the time the device last connected to or left signalling, written by
 * `trackLastSeen` on every presence change of a device.
 */
import { and, count, eq, ilike, not, or, sql, type SQL } from 'drizzle-orm';
import { ADMIN_SEARCH_COUNT_CAP, type AdminClient } from '../../protocol/admin';
import type { Db } from '../db';
import { isAnyOf, likeContains } from '../db/scope';
import { deviceLastSeen, devices, users } from '../db/schema';
import type { Presence } from '../signalling/presence';
import { cutPage, decodeCursor } from './cursor';

export interface ClientPageQuery {
  search?: string;
  state: 'all' | 'online' | 'offline';
  cursor?: string;
  perPage: number;
}

export interface ClientPage {
  clients: AdminClient[];
  total: number;
  totalCapped: boolean;
  online: number;
  next: string | null;
  prev: string | null;
}

/** Reads one page of the clients list; `online` is the peer ids registered with signalling now. */
export async function clientPage(db: Db, online: readonly string[], q: ClientPageQuery): Promise<ClientPage> {
  const request = decodeCursor(q.cursor);
  const conditions: SQL[] = [];
  const search = q.search?.trim();
  if (search) {
    const pattern = likeContains(search);
    conditions.push(
      or(
        ilike(devices.label, pattern),
        ilike(devices.clientName, pattern),
        ilike(devices.deviceId, pattern),
        ilike(users.email, pattern),
      ) as SQL,
    );
  }
  const isOnline = isAnyOf(devices.deviceId, online);
  if (q.state === 'online') conditions.push(isOnline);
  if (q.state === 'offline') conditions.push(not(isOnline));
  const filter = conditions.length ? and(...conditions) : undefined;

  const reversed = request.kind === 'last' || (request.kind === 'at' && request.side === 'before');
  const dir = sql.raw(reversed ? 'desc' : 'asc');
  const keyset =
    request.kind === 'at'
      ? sql`(${devices.labelKey}, ${devices.id}) ${sql.raw(reversed ? '<' : '>')} (${request.key}::text, ${request.id}::uuid)`
      : undefined;

  const [total, onlineCount, rows] = await Promise.all([
    db.execute<{ n: string | number }>(sql`
      select count(*) as n from (
        select 1 from ${devices} join ${users} on ${users.id} = ${devices.ownerId}
        ${filter ? sql`where ${filter}` : sql``} limit ${ADMIN_SEARCH_COUNT_CAP + 1}) m`),
    online.length ? db.select({ n: count() }).from(devices).where(isOnline) : Promise.resolve([{ n: 0 }]),
    db
      .select({
        id: devices.id,
        deviceId: devices.deviceId,
        label: devices.label,
        labelKey: devices.labelKey,
        clientName: devices.clientName,
        clientVersion: devices.clientVersion,
        chipsetId: devices.chipsetId,
        jetpack: devices.jetpack,
        createdAt: devices.createdAt,
        ownerId: users.id,
        ownerEmail: users.email,
        ownerName: users.username,
        lastSeen: deviceLastSeen.at,
      })
      .from(devices)
      .innerJoin(users, eq(users.id, devices.ownerId))
      .leftJoin(deviceLastSeen, eq(deviceLastSeen.deviceId, devices.deviceId))
      .where(and(filter, keyset))
      .orderBy(sql`${devices.labelKey} ${dir}`, sql`${devices.id} ${dir}`)
      .limit(q.perPage + 1),
  ]);
  const n = Number(total.rows[0]?.n ?? 0);
  const onlineSet = new Set(online);
  const page = cutPage(request, rows, q.perPage, (r) => ({ key: r.labelKey, id: r.id }));
  return {
    clients: page.rows.map((r) => ({
      id: r.id,
      device_id: r.deviceId,
      label: r.label,
      client_name: r.clientName,
      client_version: r.clientVersion,
      chipset_id: r.chipsetId,
      jetpack: r.jetpack,
      owner: { id: r.ownerId, email: r.ownerEmail, username: r.ownerName },
      online: onlineSet.has(r.deviceId),
      last_seen: r.lastSeen?.toISOString() ?? null,
      created_at: r.createdAt.toISOString(),
    })),
    total: n,
    totalCapped: n > ADMIN_SEARCH_COUNT_CAP,
    online: onlineCount[0]?.n ?? 0,
    next: page.next,
    prev: page.prev,
  };
}

/**
 * Writes `device_last_seen` on each presence change of a registered device (browser peers and unknown ids
 * write nothing). Returns the unsubscribe function. A failed write is logged, never thrown.
 */
export function trackLastSeen(db: Db, presence: Presence, log: { warn(obj: unknown, msg?: string): void }) {
  return presence.subscribe((peerId) => {
    db.execute(
      sql`
      insert into ${deviceLastSeen} (device_id, at)
      select ${devices.deviceId}, now() from ${devices} where ${devices.deviceId} = ${peerId}
      on conflict (device_id) do update set at = excluded.at`,
    ).catch((err: unknown) => log.warn(err, 'device last-seen write failed'));
  });
}
