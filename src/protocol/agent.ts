/**
 * Agent-facing calls (a device token in `Authorization: Token {deviceToken}`): who the device is, its
 * physical cameras (§3 Physical camera), the IP cameras it pulls (§3 IP camera "streams through the device
 * that can reach them").
 */
import { z } from 'zod';
import { defineRoutes, Id } from './route';

/** GET device/me answer. */
export const DeviceMeResponse = z.object({
  device_id: z.string(),
  label: z.string(),
  chipset_id: z.string(),
  jetpack: z.string().nullable(),
  /**
   * The device's concurrent stream quota now (README "Stream quota": its stream_limits row or the free tier,
   * raised by an active licence); the agent refuses streams past it (issue 15). Absent from older servers: the
   * agent then uses FREE_MAX_STREAMS.
   */
  max_streams: z.number().int().nonnegative().optional(),
});

/** POST device/register-cameras: the device's physical cameras; camera_id unique. */
export const RegisterCamerasRequest = z.object({
  cameras: z
    .array(z.object({ camera_id: Id, name: z.string().max(200), unique_id: z.string().max(500) }))
    .max(64),
});
export const OkResponse = z.object({ ok: z.literal(true) });

/**
 * GET device/ip-cameras → the IP cameras this device pulls. url: rtsp://, http(s)://, or sim:// (simulated IP
 * camera of the sim backend — no network camera exists on a demo machine).
 */
export const DeviceIpCamerasResponse = z.object({
  cameras: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      url: z.string(),
      /** The camera's credentials (the password unsealed for this device only); absent = none. */
      username: z.string().nullable().optional(),
      password: z.string().nullable().optional(),
    }),
  ),
});

export const agentRoutes = defineRoutes({
  'agent.me': {
    method: 'GET',
    path: '/api/device/me',
    auth: 'device',
    summary: 'The device this device token belongs to',
    answer: DeviceMeResponse,
  },
  /** Upserts this device's physical cameras and removes the ones it no longer reports. */
  'agent.registerCameras': {
    method: 'POST',
    path: '/api/device/register-cameras',
    auth: 'device',
    summary: 'Register the device’s physical cameras (replaces the list)',
    body: RegisterCamerasRequest,
    answer: OkResponse,
  },
  /** Only this device's, ordered by label. The agent polls it (60 s). */
  'agent.ipCameras': {
    method: 'GET',
    path: '/api/device/ip-cameras',
    auth: 'device',
    summary: 'The IP cameras this device reaches',
    answer: DeviceIpCamerasResponse,
  },
});
