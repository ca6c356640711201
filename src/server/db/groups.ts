/** §3 Group trees (device or camera groups) of one user. */
import { and, asc, eq } from 'drizzle-orm';
import type { Group } from '../../protocol';
import type { Db } from './index';
import { groups } from './schema';

export type GroupType = 'camera' | 'device';

/** The user's groups of one type as a forest (roots first, children sorted by name). */
export async function groupTree(db: Db, ownerId: string, groupType: GroupType): Promise<Group[]> {
  const rows = await db
    .select()
    .from(groups)
    .where(and(eq(groups.ownerId, ownerId), eq(groups.groupType, groupType)))
    .orderBy(asc(groups.name));
  const nodes = new Map<string, Group>(
    rows.map((r) => [r.id, { id: r.id, name: r.name, group_type: groupType, children: [] }]),
  );
  const roots: Group[] = [];
  for (const r of rows) {
    const node = nodes.get(r.id)!;
    const parent = r.parentId ? nodes.get(r.parentId) : undefined;
    (parent ? parent.children : roots).push(node);
  }
  return roots;
}

/** Ids of the group `groupId` and all its descendants, if it is one of the user's groups of that type. */
export async function groupAndDescendants(
  db: Db,
  ownerId: string,
  groupType: GroupType,
  groupId: string,
): Promise<string[]> {
  const rows = await db
    .select({ id: groups.id, parentId: groups.parentId })
    .from(groups)
    .where(and(eq(groups.ownerId, ownerId), eq(groups.groupType, groupType)));
  if (!rows.some((r) => r.id === groupId)) return [];
  const result = [groupId];
  for (let i = 0; i < result.length; i++) {
    for (const r of rows) if (r.parentId === result[i] && !result.includes(r.id)) result.push(r.id);
  }
  return result;
}
