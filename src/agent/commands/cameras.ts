/**
 * Camera commands (§7 "Streams and cameras"): camera-list (physical and IP cameras),
 * get-supported-resolutions, getOneFrameFromPhysicalCamera.
 */
import { LINK_ERROR_CODES } from '../../protocol';
import type { DeviceCamera } from '../../protocol';
import { SNAPSHOT_RESOLUTION } from '../backends/resolutions';
import type { CameraDevice } from '../backends/types';
import type { CommandContext } from './context';
import { CommandError } from './errors';
import type { Handlers } from './registry';
import { snapshotDataUrl } from './snapshot';

type CameraProcess = 'camera-list' | 'get-supported-resolutions' | 'getOneFrameFromPhysicalCamera';

/**
 * A camera as the protocol reports it (§3 physical camera fields). IP cameras (camera_type 'ip') have
 * id = camera_id = the server's IP camera id.
 */
export function toDeviceCamera(camera: CameraDevice, deviceId: string): DeviceCamera {
  return {
    id: camera.cameraId,
    camera_id: camera.cameraId,
    uniqueCameraId: camera.uniqueId,
    unique_id: camera.uniqueId,
    name: camera.name,
    label: camera.name,
    device_id: deviceId,
    camera_type: camera.cameraType,
  };
}

/** The camera with this id; throws CommandError('not_found') otherwise. */
export function requireCamera(ctx: CommandContext, cameraId: string): CameraDevice {
  const camera = ctx.streams.camera(cameraId);
  if (!camera)
    throw new CommandError(LINK_ERROR_CODES.notFound, `Camera ${cameraId} does not exist on this device`);
  return camera;
}

/**
 * Stills taken at once by this agent. Each costs a frame grab and a PNG encode (~10–20 ms of the agent's one
 * thread); a flood of them starved every other link (pings answered after 5–10 s, so the console's §9
 * health check failed). The console asks for one still per device at a time (the chooser); beyond this the
 * agent answers `busy` at once.
 */
export const MAX_STILLS_IN_FLIGHT = 4;
let stillsInFlight = 0;

export const cameraHandlers = {
  'camera-list': async (_payload, ctx) => ({
    cameras: ctx.cameras.list().map((c) => toDeviceCamera(c, ctx.deviceId)),
  }),

  'get-supported-resolutions': async ({ camera_id }, ctx) => ({
    resolutions: [...requireCamera(ctx, camera_id).resolutions],
  }),

  getOneFrameFromPhysicalCamera: async ({ camera_id }, ctx) => {
    const camera = requireCamera(ctx, camera_id);
    if (stillsInFlight >= MAX_STILLS_IN_FLIGHT) {
      throw new CommandError(
        LINK_ERROR_CODES.busy,
        'The device is busy taking other stills; try again in a moment.',
      );
    }
    stillsInFlight++;
    try {
      // Yield to I/O first: a batch of requests arriving together would otherwise each grab and encode in one
      // run of microtasks, never counted as in flight at once, while pings on other links wait.
      await new Promise((resolve) => setImmediate(resolve));
      return snapshotDataUrl(await camera.grabFrame(SNAPSHOT_RESOLUTION));
    } finally {
      stillsInFlight--;
    }
  },
} satisfies Pick<Handlers, CameraProcess>;
