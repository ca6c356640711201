/**
 * The ipCameras feature (issue 16 §2 IP cameras; §3 IP camera; §7 ip-cameras, remove-ip-camera: add, edit, remove, a still fetched through the device that reaches the camera).
 */
import type { ConsoleFeature } from '../feature';

export const ipCameras: ConsoleFeature = { name: 'ipCameras' };
