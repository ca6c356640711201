/**
 * The device's storage part (§7 "Storage": get-occupied-storage-of-directory, get-total-storage-info, lists of the three image kinds, delete of product data): `host` does it for real on this machine, `sim` simulates
 * it behind the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface DeviceStorage {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createDeviceStorage(_deps: AgentPartDeps): DeviceStorage {
  return { close: async () => undefined };
}
