/**
 * The groups feature's side effects (machines/groups/groups.machine.ts; src/protocol/groups.ts): the trees
 * (GET groups for both types), the changes (POST groups, PUT/DELETE groups/:id, POST groups/assign), what can be
 * assigned (GET get_devices/ — the first 100 by label — or GET physical-cameras and ip-cameras) and the camera
 * filter's members (the camera lists ?group_id, descendants included by the server).
 */
import { fromPromise } from 'xstate';
import {
  groupsMachine,
  type CameraFilterMembers,
  type GroupChange,
  type GroupMember,
  type GroupType,
} from '../../../../machines/groups/groups.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Group } from '../../../protocol/devices';
import type { Platform } from '../feature';

/** Most devices the manager offers for assignment (the server's page limit). */
export const ASSIGNABLE_DEVICES_MAX = 100;

export function groupsActors({ http }: Platform): FeatureActor[] {
  const change = async (c: GroupChange, signal: AbortSignal): Promise<void> => {
    switch (c.op) {
      case 'create':
        await http.call('groups.create', {
          body: { name: c.name, group_type: c.groupType, parent_id: c.parentId },
          signal,
        });
        return;
      case 'rename':
        await http.call('groups.update', { params: { id: c.id }, body: { name: c.name }, signal });
        return;
      case 'move':
        await http.call('groups.update', { params: { id: c.id }, body: { parent_id: c.parentId }, signal });
        return;
      case 'delete':
        await http.call('groups.delete', { params: { id: c.id }, signal });
        return;
      case 'assign':
        await http.call('groups.assign', {
          body: {
            group_type: c.groupType,
            group_id: c.groupId,
            devices: c.devices ?? [],
            physical_cameras: c.physicalCameras ?? [],
            ip_cameras: c.ipCameras ?? [],
          },
          signal,
        });
        return;
    }
  };
  const members = async (groupType: GroupType, signal: AbortSignal): Promise<GroupMember[]> => {
    if (groupType === 'device') {
      const page = await http.call('devices.list', { query: { per_page: ASSIGNABLE_DEVICES_MAX }, signal });
      return page.res.map((d) => ({
        kind: 'device' as const,
        id: d.id,
        label: d.label,
        deviceId: d.device_id,
        cameraId: null,
        groupId: d.group_id,
      }));
    }
    const [physical, ip] = await Promise.all([
      http.call('cameras.physicalCameras', { query: {}, signal }),
      http.call('cameras.ipCameras', { query: {}, signal }),
    ]);
    return [
      ...physical.data.data.map((c) => ({
        kind: 'physical' as const,
        id: c.id,
        label: `${c.label || c.name} (${c.device_id})`,
        deviceId: c.device_id,
        cameraId: c.camera_id,
        groupId: c.group_id,
      })),
      ...ip.data.data.map((c) => ({
        kind: 'ip' as const,
        id: c.id,
        label: c.label,
        deviceId: c.deviceId,
        cameraId: null,
        groupId: c.group_id,
      })),
    ];
  };
  return [
    featureActor({
      systemId: SYSTEM_IDS.groups,
      logic: groupsMachine.provide({
        actors: {
          loadTrees: fromPromise<{ device: Group[]; camera: Group[] }>(async ({ signal }) => {
            const [device, camera] = await Promise.all([
              http.call('devices.groups', { query: { group_type: 'device' }, signal }),
              http.call('devices.groups', { query: { group_type: 'camera' }, signal }),
            ]);
            return { device: device.groups, camera: camera.groups };
          }),
          change: fromPromise<void, GroupChange>(({ input, signal }) => change(input, signal)),
          loadMembers: fromPromise<GroupMember[], { groupType: GroupType }>(({ input, signal }) =>
            members(input.groupType, signal),
          ),
          loadCameraFilter: fromPromise<CameraFilterMembers, { groupId: string }>(
            async ({ input, signal }) => {
              const query = { group_id: input.groupId };
              const [physical, ip] = await Promise.all([
                http.call('cameras.physicalCameras', { query, signal }),
                http.call('cameras.ipCameras', { query, signal }),
              ]);
              return {
                physical: physical.data.data.map((c) => `${c.device_id}/${c.camera_id}`),
                ip: ip.data.data.map((c) => c.id),
              };
            },
          ),
        },
      }),
      onSignIn: [{ type: 'groups.reload' }],
      onSignOut: [{ type: 'groups.cameraFilter', groupId: null }, { type: 'groups.clear' }],
    }),
  ];
}
