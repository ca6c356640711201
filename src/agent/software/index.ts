/**
 * The device's software part (issue 16 §1 "Software"; §7 get-client-version, check-version-update, check-stream-engine-update and the companion checks, get-download-upload-status; §4 client update; agent releases published by the server): `host` does it for real on this machine, `sim` simulates it behind
 * the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface DeviceSoftware {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createDeviceSoftware(_deps: AgentPartDeps): DeviceSoftware {
  return { close: async () => undefined };
}
