/**
 * What every device part of the agent (logs/, power/, deviceSettings/, storage/, metrics/, containers/…) is
 * built from: one shape, so that a new part is one line in index.ts. `host` parts act on this machine for
 * real; `sim` parts simulate a device behind the same interface.
 */
import type { Backend } from './backends/types';
import type { Logger } from './log';

export interface AgentPartDeps {
  /** 'host': this machine, for real; 'sim': a simulated device. */
  mode: 'host' | 'sim';
  /** The device's backend (kind 'jetson' | 'x86', metrics, cameras). */
  backend: Backend;
  /** This device's id (its peer id). */
  deviceId: string;
  /** The device's label (sim host names, logs). */
  label: string;
  /**
   * A directory of this device's own, created before the part starts, for state it keeps across restarts
   * (saved sudo password, settings, metrics history). AgentOptions.stateDir; default
   * `$XDG_STATE_HOME/edge-agent/<deviceId>` (host) or `<tmp>/edge-agent-sim/<deviceId>` (sim).
   */
  stateDir: string;
  log: Logger;
  /** Pushes an event message (link.ts EventMessage) to every ready link of the device. */
  broadcast(name: string, data: unknown): void;
}
