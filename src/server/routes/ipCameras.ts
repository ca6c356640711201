/**
 * Handlers of the ipCameras feature's routes (src/protocol/ipCameras.ts; issue 16 §2 IP cameras; §3 IP camera; §7 ip-cameras, remove-ip-camera: add, edit, remove, a still fetched through the device that reaches the camera).
 */
import type { ipCameraRoutes } from '../../protocol/ipCameras';
import type { HandlersOf } from './register';

export const ipCameraHandlers: HandlersOf<typeof ipCameraRoutes> = () => ({});
