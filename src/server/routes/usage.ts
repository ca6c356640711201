/**
 * Stream limits (spec §4 "a stream quota is available or not", §7 usage calls; scoped to the caller):
 *   GET usage/check_stream_limit  ?deviceId&numOfCameras → { is_quota_available: numOfCameras <= max_streams };
 *                                 404 when the device is not the caller's
 *   GET usage/all_stream_limits   → { stream_limits: [{ deviceId (device_id), max_streams }] }
 */
import { asc, eq } from 'drizzle-orm';
import type { usageRoutes } from '../../protocol';
import { userOf } from '../auth/guard';
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
    return { is_quota_available: query.numOfCameras <= (limit?.max ?? DEFAULT_MAX_STREAMS) };
  },

  'usage.allStreamLimits': async (_input, request) => {
    const rows = await ctx.db
      .select({ deviceId: devices.deviceId, max: streamLimits.maxStreams })
      .from(devices)
      .leftJoin(streamLimits, eq(streamLimits.deviceRowId, devices.id))
      .where(eq(devices.ownerId, userOf(request).id))
      .orderBy(asc(devices.label), asc(devices.deviceId));
    return {
      stream_limits: rows.map((r) => ({ deviceId: r.deviceId, max_streams: r.max ?? DEFAULT_MAX_STREAMS })),
    };
  },
});
