/**
 * The device's metrics part (§7 "Health and metrics": get-metrics-info): `host` does it for real on this machine, `sim` simulates
 * it behind the same interface.
 */
import type { AgentPartDeps } from '../parts';

export interface MetricsHistory {
  /** Stops what the part runs; idempotent. */
  close(): Promise<void>;
}

export function createMetricsHistory(_deps: AgentPartDeps): MetricsHistory {
  return { close: async () => undefined };
}
