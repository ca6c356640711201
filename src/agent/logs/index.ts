/**
 * The device's logs part (§7 "Logs and remote control": log, endLogProcess): `host` does it for real on this machine, `sim` simulates
 * it behind the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface DeviceLogs {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createDeviceLogs(_deps: AgentPartDeps): DeviceLogs {
  return { close: async () => undefined };
}
