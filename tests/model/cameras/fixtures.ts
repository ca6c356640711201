/** Shared pieces of the cameras feature's model tests (grid and opener). */
import type { EventObject } from 'xstate';
import type { DeviceCamera, ResolutionOption } from '../../../src/protocol/commands';

/** Camera 0 of a device; the same physical camera (unique_id) on every device, so the chooser is reachable. */
export const cam = (deviceId: string): DeviceCamera => ({
  id: `${deviceId}-cam0`,
  camera_id: 'cam0',
  uniqueCameraId: `${deviceId}-cam0`,
  unique_id: 'u-cam0',
  name: 'Camera 0',
  label: 'Camera 0',
  device_id: deviceId,
  camera_type: 'physical',
});
export const vga: ResolutionOption = { pixel_format: 'I420', width: 640, height: 480, fps: 30 };
/** The event an invoked actor `id` sends when it is done with `output`. */
export const done = (id: string, output: unknown) =>
  ({ type: `xstate.done.actor.${id}`, output }) as EventObject;
/** The event an invoked actor `id` sends when it fails. */
export const fail = (id: string) =>
  ({ type: `xstate.error.actor.${id}`, error: new Error('failed') }) as EventObject;
