/**
 * Handlers of the ipCameras feature's device commands (src/protocol/ipCameras.ts; issue 16 §2 IP cameras; §3 IP camera; §7 ip-cameras, remove-ip-camera: add, edit, remove, a still fetched through the device that reaches the camera).
 */
import type { Handlers } from './registry';

export const ipCameraHandlers = {} satisfies Pick<Handlers, never>;
