/**
 * The agent's containers part (spec §1 containers, §3 Container / Docker process, §4 Container action, §7
 * Containers and Engine-and-images commands): the engine (host Docker or sim), the Docker process tracker,
 * and the web-target lookup a tunnel uses to reach a container's web app.
 */
import { createDockerEngine } from './docker';
import type { GpuMode } from './docker';
import type { ContainerEngine, WebTarget } from './engine';
import { createSimEngine } from './sim';

export { ContainerEngineError, ENV_LABEL, JUPYTER_PORT_LABEL } from './engine';
export type { ContainerEngine, CreateContainerOptions, WebTarget } from './engine';
export { ProcessTracker } from './processes';
export type { Broadcast } from './processes';
export { SIM_REGISTRY, SIM_PRESENT_IMAGES } from './simRegistry';
export type { SimRepository, SimTag } from './simRegistry';

/** Where the Docker Engine API is: a unix socket, or a TCP endpoint without TLS. */
export type DockerEndpoint = { socketPath: string } | { host: string; port: number };

/**
 * Reads a DOCKER_HOST-style value ('unix:///run/docker.sock', 'tcp://10.0.0.2:2375', or a bare socket path);
 * undefined or empty → /var/run/docker.sock. Throws on other schemes (ssh://, npipe://).
 */
export function parseDockerHost(value: string | undefined): DockerEndpoint {
  const v = value?.trim();
  if (!v) return { socketPath: '/var/run/docker.sock' };
  if (v.startsWith('unix://')) return { socketPath: v.slice('unix://'.length) };
  if (v.startsWith('/')) return { socketPath: v };
  const tcp = /^tcp:\/\/([^:/]+)(?::(\d+))?\/?$/.exec(v);
  if (tcp) return { host: tcp[1]!, port: Number(tcp[2] ?? 2375) };
  throw new Error(`Unsupported Docker endpoint ${JSON.stringify(v)} (use unix:///path or tcp://host:port)`);
}

export type ContainerEngineConfig = {
  deviceId: string;
  /** The device label (Container.deviceName). */
  deviceName: string;
} & (
  | {
      backend: 'host';
      endpoint: DockerEndpoint;
      /** How containers get the GPU: 'nvidia' (x86 with nvidia-smi), 'jetson' (nvidia runtime) or null. */
      gpu: GpuMode;
    }
  | {
      backend: 'sim';
      kind: 'jetson' | 'x86';
      /** Multiplies simulated durations (tests); default 1. */
      timeScale?: number;
    }
);

/** Creates the engine of the agent's backend: the Docker adapter (host) or the simulated engine (sim). */
export function createContainerEngine(config: ContainerEngineConfig): ContainerEngine {
  const device = { deviceId: config.deviceId, deviceName: config.deviceName };
  if (config.backend === 'host')
    return createDockerEngine({ ...device, ...config.endpoint, gpu: config.gpu });
  return createSimEngine({ ...device, kind: config.kind, hasGpu: true, timeScale: config.timeScale });
}

/**
 * The tunnel's lookup: the loopback address of a running container's web app by its full id or 12-character
 * prefix (remote paths use the prefix), else null. Only these addresses may be reached through a tunnel.
 */
export const webTargetLookup =
  (engine: ContainerEngine) =>
  (idOrShortId: string): Promise<WebTarget | null> =>
    engine.webTarget(idOrShortId).catch(() => null);
