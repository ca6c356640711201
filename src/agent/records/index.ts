/**
 * The device's records part (issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not exist or not connected for removal": recordings kept on devices): `host` does it for real on this machine, `sim` simulates it behind
 * the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface DeviceRecords {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createDeviceRecords(_deps: AgentPartDeps): DeviceRecords {
  return { close: async () => undefined };
}
