/**
 * Agent-facing calls (team brief; device token in `Authorization: Token {deviceToken}`):
 *   GET  device/me               → { device_id, label, chipset_id, jetpack }
 *   POST device/register-cameras RegisterCamerasRequest → { ok: true }; upserts this device's physical cameras
 *                                (§3 Physical camera) and removes the ones it no longer reports.
 */
import { and, eq, notInArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { RegisterCamerasRequest } from '../../protocol';
import { authenticateDevice, deviceOf } from '../auth/guard';
import type { ServerContext } from '../context';
import { physicalCameras } from '../db/schema';
import { badRequest } from '../errors';
import { AUTH_ERRORS, type ZodApp } from './types';

/** GET device/me answer. */
export const DeviceMeResponse = z.object({
  device_id: z.string(),
  label: z.string(),
  chipset_id: z.string(),
  jetpack: z.string().nullable(),
});

export function registerAgentRoutes(app: ZodApp, ctx: ServerContext): void {
  const auth = authenticateDevice(ctx);

  app.get(
    '/api/device/me',
    { schema: { tags: ['agent'], response: { 200: DeviceMeResponse, ...AUTH_ERRORS } }, preHandler: auth },
    async (request) => {
      const d = deviceOf(request);
      return { device_id: d.deviceId, label: d.label, chipset_id: d.chipsetId, jetpack: d.jetpack };
    },
  );

  app.post(
    '/api/device/register-cameras',
    {
      schema: {
        tags: ['agent'],
        body: RegisterCamerasRequest,
        response: { 200: z.object({ ok: z.literal(true) }), ...AUTH_ERRORS },
      },
      preHandler: auth,
    },
    async (request) => {
      const device = deviceOf(request);
      const cameras = request.body.cameras;
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
  );
}
