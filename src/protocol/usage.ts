/**
 * Stream limits (spec §4 "a stream quota is available or not", §7 usage calls; scoped to the caller).
 * README "Stream quota": numOfCameras is compared with the device's max_streams (default 16).
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

/** GET usage/check_stream_limit?deviceId&numOfCameras → is_quota_available. */
export const CheckStreamLimitQuery = z.object({
  deviceId: Id,
  numOfCameras: z.coerce.number().int().min(1).max(64),
});
export const CheckStreamLimitResponse = z.object({ is_quota_available: z.boolean() });
/** GET usage/all_stream_limits → stream_limits. */
export const StreamLimit = z.object({ deviceId: z.string(), max_streams: z.number().int() });
export const AllStreamLimitsResponse = z.object({ stream_limits: z.array(StreamLimit) });

export const usageRoutes = defineRoutes({
  /** 404 when the device is not the caller's. */
  'usage.checkStreamLimit': {
    method: 'GET',
    path: '/api/usage/check_stream_limit',
    auth: 'user',
    summary: 'Whether numOfCameras streams fit the device’s stream quota',
    query: CheckStreamLimitQuery,
    answer: CheckStreamLimitResponse,
    errors: [404],
  },
  'usage.allStreamLimits': {
    method: 'GET',
    path: '/api/usage/all_stream_limits',
    auth: 'user',
    summary: 'max_streams of each of the caller’s devices',
    answer: AllStreamLimitsResponse,
  },
});
