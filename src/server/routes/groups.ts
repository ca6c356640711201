/**
 * Handlers of the groups feature's routes (src/protocol/groups.ts; issue 16 §2 groups; §3 Group; §7 groups):
 *   POST   groups          { name, group_type, parent_id? } → { group }; 404 unknown parent, 409 name taken
 *   PUT    groups/:id      { name?, parent_id? } → { group }; 404, 400 parent of the other type, 409 cycle / name
 *   DELETE groups/:id      → { ok, deleted } (the group and its descendants); members become ungrouped
 *   POST   groups/assign   { group_type, group_id|null, devices, physical_cameras, ip_cameras } → { ok, assigned }
 * Everything is scoped to the caller; another user's group or member is a 404 and changes nothing.
 * Also the groups provider of quick search (`searchGroups`).
 */
import { and, asc, eq, ilike, inArray, or, type SQL } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import { GROUP_TEXTS, type GroupRow, type GroupType, type groupRoutes } from '../../protocol/groups';
import { userOf } from '../auth/guard';
import type { Db } from '../db';
import { groupAndDescendants } from '../db/groups';
import { isUniqueViolation, isUuid } from '../db/scope';
import { devices, groups, ipCameras, physicalCameras } from '../db/schema';
import { badRequest, HttpError } from '../errors';
import type { HandlersOf } from './register';
import type { SearchProvider } from './searchProvider';

type Row = typeof groups.$inferSelect;

const toGroup = (r: Row): GroupRow => ({
  id: r.id,
  name: r.name,
  group_type: r.groupType as GroupType,
  parent_id: r.parentId,
});
const groupNotFound = () => new HttpError(404, API_ERROR_CODES.notFound, GROUP_TEXTS.notFound);
const duplicate = () => new HttpError(409, 'Group_exists', GROUP_TEXTS.duplicate);

/** The caller's group `id` (optionally of one type), or null. */
async function ownGroup(db: Db, ownerId: string, id: string, type?: GroupType): Promise<Row | null> {
  if (!isUuid(id)) return null;
  const [row] = await db
    .select()
    .from(groups)
    .where(and(eq(groups.id, id), eq(groups.ownerId, ownerId), type ? eq(groups.groupType, type) : undefined))
    .limit(1);
  return row ?? null;
}

/** The parent named by the caller for a group of `type`; 404 when missing, 400 when of the other type. */
async function parentOf(db: Db, ownerId: string, parentId: string, type: GroupType): Promise<Row> {
  const parent = await ownGroup(db, ownerId, parentId);
  if (!parent) throw groupNotFound();
  if (parent.groupType !== type) throw badRequest(GROUP_TEXTS.wrongType);
  return parent;
}

/** Quick search: the caller's groups whose name matches; a hit opens the device list or the cameras page. */
export const searchGroups: SearchProvider = async (db, ownerId, pattern, limit) => {
  const rows = await db
    .select({ id: groups.id, name: groups.name, type: groups.groupType })
    .from(groups)
    .where(and(eq(groups.ownerId, ownerId), ilike(groups.name, pattern)))
    .orderBy(asc(groups.name))
    .limit(limit);
  return rows.map((r) => ({
    kind: 'group' as const,
    id: r.id,
    label: r.name,
    detail: r.type,
    link:
      r.type === 'device'
        ? `/control-panel/devices?group=${encodeURIComponent(r.id)}`
        : `/control-panel/cameras?group=${encodeURIComponent(r.id)}`,
  }));
};

export const groupHandlers: HandlersOf<typeof groupRoutes> = (ctx) => ({
  'groups.create': async ({ body }, request) => {
    const owner = userOf(request).id;
    if (body.parent_id) await parentOf(ctx.db, owner, body.parent_id, body.group_type);
    try {
      const [row] = await ctx.db
        .insert(groups)
        .values({
          ownerId: owner,
          name: body.name,
          groupType: body.group_type,
          parentId: body.parent_id ?? null,
        })
        .returning();
      return { group: toGroup(row!) };
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
  },

  'groups.update': async ({ params, body }, request) => {
    const owner = userOf(request).id;
    const group = await ownGroup(ctx.db, owner, params.id);
    if (!group) throw groupNotFound();
    const type = group.groupType as GroupType;
    const set: Partial<Pick<Row, 'name' | 'parentId'>> = {};
    if (body.name !== undefined) set.name = body.name;
    if (body.parent_id !== undefined) {
      if (body.parent_id !== null) {
        const parent = await parentOf(ctx.db, owner, body.parent_id, type);
        const subtree = await groupAndDescendants(ctx.db, owner, type, group.id);
        if (subtree.includes(parent.id)) throw new HttpError(409, 'Group_cycle', GROUP_TEXTS.cycle);
      }
      set.parentId = body.parent_id;
    }
    try {
      const [row] = await ctx.db
        .update(groups)
        .set(set)
        .where(and(eq(groups.id, group.id), eq(groups.ownerId, owner)))
        .returning();
      if (!row) throw groupNotFound();
      return { group: toGroup(row) };
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
  },

  'groups.delete': async ({ params }, request) => {
    const owner = userOf(request).id;
    const group = await ownGroup(ctx.db, owner, params.id);
    if (!group) throw groupNotFound();
    const subtree = await groupAndDescendants(ctx.db, owner, group.groupType as GroupType, group.id);
    // Children go by the parent_id cascade; members by group_id "set null".
    await ctx.db.delete(groups).where(and(eq(groups.id, group.id), eq(groups.ownerId, owner)));
    return { ok: true, deleted: subtree.length };
  },

  'groups.assign': async ({ body }, request) => {
    const owner = userOf(request).id;
    if (body.group_id !== null && !(await ownGroup(ctx.db, owner, body.group_id, body.group_type))) {
      throw groupNotFound();
    }
    if (body.group_type === 'device' && (body.physical_cameras.length > 0 || body.ip_cameras.length > 0)) {
      throw badRequest('Device groups hold devices only.');
    }
    if (body.group_type === 'camera' && body.devices.length > 0) {
      throw badRequest('Camera groups hold cameras only.');
    }
    const groupId = body.group_id;
    const missing = () => new HttpError(404, API_ERROR_CODES.notFound, GROUP_TEXTS.membersMissing);
    return ctx.db.transaction(async (tx) => {
      let assigned = 0;
      const deviceIds = [...new Set(body.devices)];
      if (deviceIds.length > 0) {
        const rowIds = deviceIds.filter(isUuid);
        const named = (
          rowIds.length > 0
            ? or(inArray(devices.id, rowIds), inArray(devices.deviceId, deviceIds))
            : inArray(devices.deviceId, deviceIds)
        ) as SQL;
        const rows = await tx
          .update(devices)
          .set({ groupId })
          .where(and(eq(devices.ownerId, owner), named))
          .returning({ id: devices.id });
        if (rows.length < deviceIds.length) throw missing();
        assigned += rows.length;
      }
      const ipIds = [...new Set(body.ip_cameras)];
      if (ipIds.length > 0) {
        if (!ipIds.every(isUuid)) throw missing();
        const rows = await tx
          .update(ipCameras)
          .set({ groupId })
          .where(and(eq(ipCameras.ownerId, owner), inArray(ipCameras.id, ipIds)))
          .returning({ id: ipCameras.id });
        if (rows.length < ipIds.length) throw missing();
        assigned += rows.length;
      }
      const camIds = [...new Set(body.physical_cameras)];
      if (camIds.length > 0) {
        if (!camIds.every(isUuid)) throw missing();
        const own = await tx
          .select({ id: physicalCameras.id })
          .from(physicalCameras)
          .innerJoin(devices, eq(devices.id, physicalCameras.deviceRowId))
          .where(and(eq(devices.ownerId, owner), inArray(physicalCameras.id, camIds)));
        if (own.length < camIds.length) throw missing();
        await tx.update(physicalCameras).set({ groupId }).where(inArray(physicalCameras.id, camIds));
        assigned += own.length;
      }
      return { ok: true, assigned };
    });
  },
});
