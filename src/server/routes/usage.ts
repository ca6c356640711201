/**
 * Stream limits (spec §4 "a stream quota is available or not", §7 usage calls; scoped to the caller):
 *   GET usage/check_stream_limit  ?deviceId&numOfCameras → { is_quota_available: numOfCameras <= max_streams };
 *                                 404 when the device is not the caller's
 *   GET usage/all_stream_limits   → { stream_limits: [{ deviceId (device_id), max_streams }] }
 * max_streams is the device's stream_limits row (else DEFAULT_MAX_STREAMS, the free tier) raised by an active
 * device licence (src/server/billing/licences.ts); an expired licence no longer raises it.
 */
import { asc, eq } from 'drizzle-orm';
import type { usageRoutes } from '../../protocol';
import { userOf } from '../auth/guard';
import { effectiveMaxStreams, licensedStreams } from '../billing/licences';
import { findOwnDevice } from '../db/scope';
import { DEFAULT_MAX_STREAMS, devices, streamLimits } from '../db/schema';
import { notFound } from '../errors';
import type { HandlersOf } from './register';

export const usageHandlers: HandlersOf<typeof usageRoutes> = (ctx) => ({
  'usage.checkStreamLimit': async ({ query }, request) => {
    const device = await findOwnDevice(ctx.db, userOf(request).id, query.deviceId);
    if (!device) throw notFound('Device');
    const [limit] = await ctx.db
      .select({ max: streamLimits.maxStreams })
      .from(streamLimits)
      .where(eq(streamLimits.deviceRowId, device.id));
    const max = await effectiveMaxStreams(ctx.db, device.id, limit?.max ?? DEFAULT_MAX_STREAMS);
    return { is_quota_available: query.numOfCameras <= max };
  },

  'usage.allStreamLimits': async (_input, request) => {
    const rows = await ctx.db
      .select({ id: devices.id, deviceId: devices.deviceId, max: streamLimits.maxStreams })
      .from(devices)
      .leftJoin(streamLimits, eq(streamLimits.deviceRowId, devices.id))
      .where(eq(devices.ownerId, userOf(request).id))
      .orderBy(asc(devices.label), asc(devices.deviceId));
    const licensed = await licensedStreams(
      ctx.db,
      rows.map((r) => r.id),
    );
    return {
      stream_limits: rows.map((r) => {
        const base = r.max ?? DEFAULT_MAX_STREAMS;
        return { deviceId: r.deviceId, max_streams: Math.max(base, licensed.get(r.id)?.maxStreams ?? 0) };
      }),
    };
  },
});
