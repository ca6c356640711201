/**
 * What views read of the groups actor (systemId 'groups'; machines/groups/groups.machine.ts): pure
 * `groupsToView` and `flattenGroups`, and hooks that select them. No protocol values are imported.
 */
import { useMemo } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type {
  CameraFilterMembers,
  GroupError,
  GroupMember,
  groupsMachine,
  GroupType,
} from '../../../../machines/groups/groups.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Group } from '../../../protocol/devices';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type GroupsRef = ActorRefFrom<typeof groupsMachine>;
type GroupsSnapshot = SnapshotFrom<typeof groupsMachine>;

/** One group in tree order with its depth (0 = root) and how many groups are below it. */
export interface FlatGroup {
  id: string;
  name: string;
  depth: number;
  parentId: string | null;
  descendants: string[];
}

/** The forest in display order (parents before children), each with its depth and descendants' ids. */
export function flattenGroups(forest: readonly Group[]): FlatGroup[] {
  const out: FlatGroup[] = [];
  const walk = (nodes: readonly Group[], depth: number, parentId: string | null): string[] => {
    const ids: string[] = [];
    for (const g of nodes) {
      const row: FlatGroup = { id: g.id, name: g.name, depth, parentId, descendants: [] };
      out.push(row);
      row.descendants = walk(g.children, depth + 1, g.id);
      ids.push(g.id, ...row.descendants);
    }
    return ids;
  };
  walk(forest, 0, null);
  return out;
}

export interface GroupsView {
  status: 'loading' | 'ready' | 'saving' | 'failed';
  device: Group[];
  camera: Group[];
  error: GroupError | null;
  notice: string | null;
  revision: number;
  membersType: GroupType | null;
  membersStatus: 'idle' | 'loading' | 'ready' | 'failed';
  members: GroupMember[];
}

export function groupsToView(s: GroupsSnapshot): GroupsView {
  const tree = (s.value as { tree: GroupsView['status'] }).tree;
  const members = (s.value as { members: GroupsView['membersStatus'] }).members;
  return {
    status: tree,
    device: s.context.device,
    camera: s.context.camera,
    error: s.context.error,
    notice: s.context.notice,
    revision: s.context.revision,
    membersType: s.context.membersType,
    membersStatus: members,
    members: s.context.members,
  };
}

/** The camera list's group filter: the group (null = all) and, once loaded, whether a camera is in it. */
export interface CameraFilterView {
  groupId: string | null;
  loading: boolean;
  members: CameraFilterMembers;
}
export function cameraFilterToView(s: GroupsSnapshot): CameraFilterView {
  return {
    groupId: s.context.cameraFilter.groupId,
    loading: s.matches({ cameraFilter: 'loading' }),
    members: s.context.cameraFilter.members,
  };
}

export function useGroupsRef(): GroupsRef {
  return actorOf<GroupsRef>(useSystem(), SYSTEM_IDS.groups);
}
export function useGroupsView(): GroupsView {
  return useSelector(useGroupsRef(), groupsToView, shallowEqual);
}
export function useCameraFilterView(): CameraFilterView {
  return useSelector(useGroupsRef(), cameraFilterToView, shallowEqual);
}
export function useGroupRevision(): number {
  return useSelector(useGroupsRef(), (s) => s.context.revision);
}

/**
 * The camera page's group filter, safe before the groups feature runs (then null = no filter):
 * `{ groupId, physical(deviceId, cameraId), ip(id) }` — whether a camera is in the chosen group (or below it).
 * While the group's members load, nothing matches.
 */
export function useCameraGroupMatch(): {
  groupId: string;
  physical: (deviceId: string, cameraId: string) => boolean;
  ip: (id: string) => boolean;
} | null {
  const system = useSystem();
  const ready = useSelector(system, (s) => s.context.loaded.includes('groups'));
  const ref = ready ? (system.system.get(SYSTEM_IDS.groups) as GroupsRef | undefined) : undefined;
  const view = useSelector(ref, (s) => (s ? cameraFilterToView(s) : null), shallowEqual);
  return useMemo(() => {
    if (!view?.groupId) return null;
    const physical = new Set(view.members.physical);
    const ip = new Set(view.members.ip);
    return {
      groupId: view.groupId,
      physical: (deviceId, cameraId) => physical.has(`${deviceId}/${cameraId}`),
      ip: (id) => ip.has(id),
    };
  }, [view]);
}
