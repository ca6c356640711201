/**
 * Cameras (spec §3 Camera, §7 ip-cameras and physical-cameras; scoped to the caller):
 *   GET ip-cameras        ?group_id → { data: { data: IpCamera[] } }
 *   GET physical-cameras  ?group_id → { data: { data: PhysicalCamera[] } } (cameras registered by own devices)
 * group_id names a camera group; its descendants count too. An unknown group yields an empty list.
 */
import { and, asc, eq, inArray, type SQL } from 'drizzle-orm';
import type { cameraRoutes } from '../../protocol';
import { userOf } from '../auth/guard';
import { groupAndDescendants } from '../db/groups';
import { devices, ipCameras, physicalCameras } from '../db/schema';
import type { HandlersOf } from './register';

export const cameraHandlers: HandlersOf<typeof cameraRoutes> = (ctx) => ({
  'cameras.ipCameras': async ({ query }, request) => {
    const user = userOf(request);
    const where: SQL[] = [eq(ipCameras.ownerId, user.id)];
    if (query.group_id) {
      where.push(
        inArray(ipCameras.groupId, await groupAndDescendants(ctx.db, user.id, 'camera', query.group_id)),
      );
    }
    const rows = await ctx.db
      .select({ cam: ipCameras, deviceId: devices.deviceId })
      .from(ipCameras)
      // The device must be the caller's too; another user's device never shows up here.
      .leftJoin(devices, and(eq(devices.id, ipCameras.deviceRowId), eq(devices.ownerId, user.id)))
      .where(and(...where))
      .orderBy(asc(ipCameras.label), asc(ipCameras.id));
    return {
      data: {
        data: rows.map(({ cam, deviceId }) => ({
          id: cam.id,
          label: cam.label,
          url: cam.url,
          camera_type: 'ip' as const,
          deviceId,
          group_id: cam.groupId,
        })),
      },
    };
  },

  'cameras.physicalCameras': async ({ query }, request) => {
    const user = userOf(request);
    const where: SQL[] = [eq(devices.ownerId, user.id)];
    if (query.group_id) {
      where.push(
        inArray(
          physicalCameras.groupId,
          await groupAndDescendants(ctx.db, user.id, 'camera', query.group_id),
        ),
      );
    }
    const rows = await ctx.db
      .select({ cam: physicalCameras, deviceId: devices.deviceId })
      .from(physicalCameras)
      .innerJoin(devices, eq(devices.id, physicalCameras.deviceRowId))
      .where(and(...where))
      .orderBy(asc(devices.label), asc(physicalCameras.cameraId));
    return {
      data: {
        data: rows.map(({ cam, deviceId }) => ({
          id: cam.id,
          uniqueCameraId: `${deviceId}_${cam.cameraId}`,
          camera_id: cam.cameraId,
          device_id: deviceId,
          name: cam.name,
          label: cam.name,
          unique_id: cam.uniqueId,
          camera_type: 'physical' as const,
          group_id: cam.groupId,
        })),
      },
    };
  },
});
