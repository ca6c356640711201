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
  /**
   * The agent's presence on the air (power: a simulated reboot or shut-down, a client restart). Always given
   * by startAgent; optional so that parts' tests need not build one.
   */
  lifecycle?: AgentLifecycle;
  /**
   * The server this agent talks to: REST origin (AgentOptions.server) and the device token (sent as
   * `Authorization: Token {token}`), for parts that fetch from it (software: agent releases). Optional so that
   * parts' tests need not give one.
   */
  server?: { url: string; token: string };
}

/** What a part may do to the whole agent's presence. */
export interface AgentLifecycle {
  /**
   * Takes the device off the air for `ms` milliseconds: streams end, every link closes and the signalling
   * registration is closed (the device looks gone: check/peerjs answers absent); then it registers again
   * (a new Peer under the same id). Resolves once it is back (or when the agent was closed meanwhile). A
   * call while already off the air resolves with that one.
   */
  goOffline(ms: number): Promise<void>;
}
