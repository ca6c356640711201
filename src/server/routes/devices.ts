/**
 * Devices (spec §7 server calls, §9 table defaults; scoped to the caller — a user never sees another's):
 *   GET    get_devices/        GetDevicesQuery → { res, total_items, active_devices_count }
 *   GET    get-online-devices  → { onlineDevices (device_id list), ok, message }
 *   DELETE device              { ids } (row ids or device_ids) → { ok, deleted }; 404 when none is the caller's
 *   POST   generate_token      { id } → { result: { access_token } } device token, 60 days (§9); revokes the old
 *   GET    groups              ?group_type → { groups } (tree)
 */
import { and, eq, inArray, or } from 'drizzle-orm';
import { DEVICE_TOKEN_EXPIRY_S, type Device, type deviceRoutes } from '../../protocol';
import { userOf, type DeviceRow } from '../auth/guard';
import type { ServerContext } from '../context';
import { devicePage } from '../db/deviceList';
import { groupAndDescendants, groupTree } from '../db/groups';
import { ownerOnline } from '../db/onlineDevices';
import { ownerOf } from '../signalling/peerOwners';
import { findOwnDevice, isUuid } from '../db/scope';
import { devices } from '../db/schema';
import { notFound } from '../errors';
import type { HandlersOf } from './register';

/** §3 Device as the console lists it. decrypted_id is the peer id (no encryption of ids here). */
export function toDevice(row: DeviceRow, isActive: boolean): Device {
  return {
    id: row.id,
    decrypted_id: row.deviceId,
    device_id: row.deviceId,
    label: row.label,
    client_name: row.clientName,
    api_url: null,
    is_active: isActive,
    device_params: row.deviceParams,
    client_version: row.clientVersion,
    jetpack: row.jetpack,
    chipset_id: row.chipsetId,
    group_id: row.groupId,
    created_at: row.createdAt.toISOString(),
  };
}

/** Signs a new device token for `device` and makes it the only valid one (old jti revoked, peer kicked). */
export async function issueDeviceToken(ctx: ServerContext, device: DeviceRow): Promise<string> {
  const jti = ctx.tokens.newJti();
  const { token } = await ctx.tokens.sign(
    { typ: 'device', sub: device.ownerId, device_id: device.deviceId, jti },
    DEVICE_TOKEN_EXPIRY_S,
  );
  await ctx.db.update(devices).set({ tokenJti: jti }).where(eq(devices.id, device.id));
  ctx.presence.kick(device.deviceId, 'device token replaced');
  return token;
}

export const deviceHandlers: HandlersOf<typeof deviceRoutes> = (ctx) => ({
  'devices.list': async ({ query: q }, request) => {
    const user = userOf(request);
    const page = await devicePage(ctx.db, {
      ownerId: user.id,
      page: q.page,
      perPage: q.per_page,
      orderBy: q.order_by,
      orderAs: q.order_as,
      search: q.search,
      groupIds: q.group_id ? await groupAndDescendants(ctx.db, user.id, 'device', q.group_id) : null,
      online: ctx.presence.onlineIds(),
      ownerOfPeer: (peerId) => ownerOf(ctx, peerId),
    });
    return {
      res: page.rows.map((r) => toDevice(r, ctx.presence.isOnline(r.deviceId))),
      total_items: page.total,
      active_devices_count: page.active,
    };
  },

  'devices.online': async (_input, request) => {
    const { deviceIds } = await ownerOnline(ctx.db, userOf(request).id, ctx.presence.onlineIds(), (peerId) =>
      ownerOf(ctx, peerId),
    );
    return { onlineDevices: [...deviceIds], ok: true, message: '' };
  },

  'devices.delete': async ({ body }, request) => {
    const ids = body.ids;
    const rowIds = ids.filter(isUuid);
    const named =
      rowIds.length > 0
        ? or(inArray(devices.id, rowIds), inArray(devices.deviceId, ids))
        : inArray(devices.deviceId, ids);
    const deleted = await ctx.db
      .delete(devices)
      .where(and(eq(devices.ownerId, userOf(request).id), named))
      .returning({ deviceId: devices.deviceId });
    if (deleted.length === 0) throw notFound('Device');
    // Their device tokens die with the rows; close their signalling sessions too.
    for (const d of deleted) ctx.presence.kick(d.deviceId, 'device deleted');
    return { ok: true, deleted: deleted.length };
  },

  'devices.generateToken': async ({ body }, request) => {
    const device = await findOwnDevice(ctx.db, userOf(request).id, body.id);
    if (!device) throw notFound('Device');
    return { result: { access_token: await issueDeviceToken(ctx, device) } };
  },

  'devices.groups': async ({ query }, request) => ({
    groups: await groupTree(ctx.db, userOf(request).id, query.group_type),
  }),
});
