/**
 * Cameras (spec §3 Camera, Supported resolution option; §4 Camera use; §7 ip-cameras, physical-cameras and
 * the camera device commands). REST calls are scoped to the caller.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';
import { defineRoutes, Id } from './route';

/** §3 Supported resolution option; shown as "format Resolution: WxH FPS: n". */
export const ResolutionOption = z.object({
  pixel_format: z.string().max(32),
  width: z.number().int().positive().max(16_384),
  height: z.number().int().positive().max(16_384),
  fps: z.number().positive().max(1000),
});
export type ResolutionOption = z.infer<typeof ResolutionOption>;
/** §3 label of a resolution option. */
export const resolutionLabel = (r: ResolutionOption): string =>
  `${r.pixel_format} Resolution: ${r.width}x${r.height} FPS: ${r.fps}`;

/** A camera as the device reports it (§3 physical camera fields). */
export const DeviceCamera = z.object({
  id: z.string(),
  camera_id: z.string(),
  uniqueCameraId: z.string(),
  unique_id: z.string(),
  name: z.string(),
  label: z.string(),
  device_id: z.string(),
  /** 'physical' for V4L2 / synthetic cameras, 'ip' for RTSP sources the device pulls. */
  camera_type: z.enum(['physical', 'ip', 'local']),
});
export type DeviceCamera = z.infer<typeof DeviceCamera>;

/** §3 IP camera, listed from the server. */
export const IpCamera = z.object({
  id: z.string(),
  label: z.string(),
  url: z.string(),
  camera_type: z.literal('ip'),
  /** The device that can reach it (streams through that device's agent). */
  deviceId: z.string().nullable(),
  group_id: z.string().nullable(),
});
export type IpCamera = z.infer<typeof IpCamera>;
/** §3 Physical camera, registered by a device. */
export const PhysicalCamera = z.object({
  id: z.string(),
  uniqueCameraId: z.string(),
  camera_id: z.string(),
  device_id: z.string(),
  name: z.string(),
  label: z.string(),
  unique_id: z.string(),
  camera_type: z.literal('physical'),
  group_id: z.string().nullable(),
});
export type PhysicalCamera = z.infer<typeof PhysicalCamera>;
/** group_id names a camera group; its descendants count too. */
export const CamerasQuery = z.object({ group_id: Id.optional() });
export const IpCamerasResponse = z.object({ data: z.object({ data: z.array(IpCamera) }) });
export const PhysicalCamerasResponse = z.object({ data: z.object({ data: z.array(PhysicalCamera) }) });

export const cameraRoutes = defineRoutes({
  'cameras.ipCameras': {
    method: 'GET',
    path: '/api/ip-cameras',
    auth: 'user',
    summary: 'The caller’s IP cameras (§3), each with the device that reaches it',
    query: CamerasQuery,
    answer: IpCamerasResponse,
  },
  'cameras.physicalCameras': {
    method: 'GET',
    path: '/api/physical-cameras',
    auth: 'user',
    summary: 'Cameras registered by the caller’s devices (§3 Physical camera)',
    query: CamerasQuery,
    answer: PhysicalCamerasResponse,
  },
});

/** A command's camera: its camera_id on the device. */
export const CameraRef = z.object({ camera_id: Id });

export const cameraCommands = defineCommands({
  /** Cameras of the device. */
  'camera-list': { request: Empty, reply: z.object({ cameras: z.array(DeviceCamera) }) },
  /** Resolutions a camera supports (§3). */
  'get-supported-resolutions': {
    request: CameraRef,
    reply: z.object({ resolutions: z.array(ResolutionOption) }),
  },
  /** §4 Camera use: is the camera in use by other processes (streams of other viewers, jobs)? */
  'check-camera-usage': {
    request: CameraRef,
    reply: z.object({
      in_use: z.boolean(),
      processes: z.array(z.object({ id: z.string(), kind: z.enum(['stream', 'job']) })),
    }),
  },
  /** §4 Kill the other processes using a camera; result true or false. */
  'force-kill-stream': { request: CameraRef, reply: z.object({ result: z.boolean() }) },
  /** One still frame of a camera, for the chooser dialog: a PNG data URL. */
  getOneFrameFromPhysicalCamera: {
    request: CameraRef,
    reply: z.object({ image: z.string(), width: z.number().int(), height: z.number().int() }),
  },
});
