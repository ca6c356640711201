/**
 * The device's power part (§7 "Client and settings": restartItself, restartDevice, shutDownDevice, force-shut-down): `host` does it for real on this machine, `sim` simulates
 * it behind the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface DevicePower {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createDevicePower(_deps: AgentPartDeps): DevicePower {
  return { close: async () => undefined };
}
