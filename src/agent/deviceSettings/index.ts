/**
 * The device's deviceSettings part (§7 "Client and settings" and "Settings changes": get-settings-info, get-device-settings-info (four infoTypes), change-*, force-refresh-device-settings, restart-client-engine, restart-frp-client, connect-cie, get-home-path): `host` does it for real on this machine, `sim` simulates
 * it behind the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface DeviceSettings {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createDeviceSettings(_deps: AgentPartDeps): DeviceSettings {
  return { close: async () => undefined };
}
