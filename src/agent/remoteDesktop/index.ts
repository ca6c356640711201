/**
 * The device's remote desktop (spec §1 "control a remote desktop", §7 remote control commands, §3
 * openWindows): a desktop driver — `x11` on a host agent (a real X display), `sim` on a simulated device —
 * whose picture is one more stream source of the StreamManager under camera_id REMOTE_DESKTOP_CAMERA_ID
 * (so send-sdp, stop-stream, pause/resume and the link's cleanup work for it as for a camera).
 */
import { REMOTE_DESKTOP_CAMERA_ID } from '../../protocol/remoteDesktop';
import type { CameraDevice } from '../backends/types';
import type { Logger } from '../log';
import type { CameraLookup } from '../streams/catalog';
import { createSimDesktop } from './simDesktop';
import type { DesktopDriver } from './types';
import { createX11Desktop } from './x11Desktop';

export type { DesktopDriver } from './types';
export type DeviceRemoteDesktop = DesktopDriver;

export interface RemoteDesktopDeps {
  mode: 'host' | 'sim';
  /** host: the X display to show and control (the agent's --display, else DISPLAY). */
  display?: string;
  log: Logger;
}

/** The remote desktop of this device: `x11` (host) or `sim`. */
export function createDeviceRemoteDesktop(deps: RemoteDesktopDeps): DeviceRemoteDesktop {
  return deps.mode === 'host'
    ? createX11Desktop({ display: deps.display || undefined, logger: deps.log })
    : createSimDesktop();
}

/** A camera lookup that also finds the desktop under REMOTE_DESKTOP_CAMERA_ID (for the StreamManager). */
export function withRemoteDesktop(cameras: CameraLookup, desktop: DesktopDriver): CameraLookup {
  return {
    find: (cameraId: string): CameraDevice | undefined =>
      cameraId === REMOTE_DESKTOP_CAMERA_ID ? desktop.camera : cameras.find(cameraId),
  };
}
