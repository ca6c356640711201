/**
 * Agent-facing calls (team brief; device token in `Authorization: Token {deviceToken}`):
 *   GET  device/me               → { device_id, label, chipset_id, jetpack, max_streams }
 *   POST device/register-cameras RegisterCamerasRequest → { ok: true }; upserts this device's physical cameras
 *                                (§3 Physical camera) and removes the ones it no longer reports.
 *   GET  device/ip-cameras       → DeviceIpCamerasResponse { cameras: [{ id, label, url }] }: the IP cameras
 *                                this device reaches (§3 IP camera "streams through the device that can reach
 *                                them"); only this device's, ordered by label. The agent polls it (60 s).
 */
import { and, asc, eq, notInArray, sql } from 'drizzle-orm';
import type { agentRoutes } from '../../protocol';
import { deviceOf } from '../auth/guard';
import { DEFAULT_MAX_STREAMS, ipCameras, physicalCameras, streamLimits } from '../db/schema';
import { effectiveMaxStreams } from '../billing/licences';
import { badRequest } from '../errors';
import type { HandlersOf } from './register';
import { secretBox } from '../auth/secretBox';

export const agentHandlers: HandlersOf<typeof agentRoutes> = (ctx) => ({
  'agent.me': async (_input, request) => {
    const d = deviceOf(request);
    // The quota the console's usage/check_stream_limit applies; the agent enforces it itself (issue 15).
    const [limit] = await ctx.db
      .select({ max: streamLimits.maxStreams })
      .from(streamLimits)
      .where(eq(streamLimits.deviceRowId, d.id));
    const maxStreams = await effectiveMaxStreams(ctx.db, d.id, limit?.max ?? DEFAULT_MAX_STREAMS);
    return {
      device_id: d.deviceId,
      label: d.label,
      chipset_id: d.chipsetId,
      jetpack: d.jetpack,
      max_streams: maxStreams,
    };
  },

  'agent.registerCameras': async ({ body }, request) => {
    const device = deviceOf(request);
    const cameras = body.cameras;
    const ids = cameras.map((c) => c.camera_id);
    if (new Set(ids).size !== ids.length) throw badRequest('body.cameras: camera_id must be unique');
    await ctx.db.transaction(async (tx) => {
      await tx
        .delete(physicalCameras)
        .where(
          ids.length > 0
            ? and(eq(physicalCameras.deviceRowId, device.id), notInArray(physicalCameras.cameraId, ids))
            : eq(physicalCameras.deviceRowId, device.id),
        );
      if (cameras.length > 0) {
        await tx
          .insert(physicalCameras)
          .values(
            cameras.map((c) => ({
              deviceRowId: device.id,
              cameraId: c.camera_id,
              name: c.name,
              uniqueId: c.unique_id,
            })),
          )
          .onConflictDoUpdate({
            target: [physicalCameras.deviceRowId, physicalCameras.cameraId],
            set: { name: sql`excluded.name`, uniqueId: sql`excluded.unique_id` },
          });
      }
    });
    return { ok: true as const };
  },

  'agent.ipCameras': async (_input, request) => {
    const device = deviceOf(request);
    const rows = await ctx.db
      .select({
        id: ipCameras.id,
        label: ipCameras.label,
        url: ipCameras.url,
        username: ipCameras.username,
        passwordSecret: ipCameras.passwordSecret,
      })
      .from(ipCameras)
      .where(and(eq(ipCameras.deviceRowId, device.id), eq(ipCameras.ownerId, device.ownerId)))
      .orderBy(asc(ipCameras.label), asc(ipCameras.id));
    // The only place a camera password is unsealed: for the device that reaches the camera.
    const box = rows.some((r) => r.passwordSecret) ? await secretBox(ctx.db) : null;
    return {
      cameras: rows.map(({ passwordSecret, ...r }) => {
        let password: string | null = null;
        try {
          password = passwordSecret && box ? box.open(passwordSecret) : null;
        } catch {
          password = null; // sealed under another key: listed without it
        }
        return { ...r, password };
      }),
    };
  },
});
