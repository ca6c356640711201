/**
 * The device's container engine (spec §1 "create, start, stop and remove containers (including Jupyter)";
 * §3 Container, Docker images; §4 Container action; §7 Containers / Engine and images). Two
 * implementations: `host` (docker.ts, the machine's Docker Engine through dockerode) and `sim` (sim.ts, in
 * memory, with a simulated JupyterLab). The engine is the truth about containers: nothing is stored elsewhere.
 */
import type { Container, DockerImage, LayerProgress } from '../../protocol/containers';

/** Label holding the environment alias a container was created from (Container.EnvName). */
export const ENV_LABEL = 'edge-console.env';
/** Label holding the port Jupyter listens on inside the container (absent: no Jupyter). */
export const JUPYTER_PORT_LABEL = 'edge-console.jupyter-port';

/**
 * Why an engine call failed:
 * - engine_unavailable: no Docker engine answers (socket missing, refused, permission denied);
 * - not_found: no such image (locally or in the registry: 'manifest unknown') or container;
 * - canceled: the call was aborted (a canceled download);
 * - conflict: the engine refused because of the current state (e.g. a name in use);
 * - failed: anything else the engine reported.
 */
export type ContainerEngineErrorCode =
  'engine_unavailable' | 'not_found' | 'canceled' | 'conflict' | 'failed';

/** An engine failure with a code and a message a user can act on (the engine's own words where it gave some). */
export class ContainerEngineError extends Error {
  constructor(
    readonly code: ContainerEngineErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ContainerEngineError';
  }
}

/** The message for an unreachable engine, e.g. "No Docker engine is reachable at /var/run/docker.sock: connect ENOENT". */
export const engineUnavailableMessage = (where: string, reason: string): string =>
  `No Docker engine is reachable at ${where}: ${reason}`;

/** What create() needs. */
export interface CreateContainerOptions {
  /** Image reference `repository:tag`; must be on the device (else ContainerEngineError 'not_found'). */
  image: string;
  /** Environment alias, stored in the ENV_LABEL label. */
  envName: string;
  /** Container name (Docker's rules); the engine picks one when absent. */
  name?: string;
  /** Port Jupyter listens on inside the container, published on 127.0.0.1 of the device; null: no Jupyter. */
  jupyterPort: number | null;
  /** Ask for the device's GPU (ignored when the device has none). */
  gpu: boolean;
}

/** Where a container's web app listens on the device (always the loopback interface). */
export interface WebTarget {
  host: string;
  port: number;
}

/**
 * One device's container engine. Every method rejects with ContainerEngineError: 'engine_unavailable' when
 * no engine is reachable, 'not_found' for an unknown image or container (containers are named by full id,
 * Docker's 12-character prefix or name). Returned Containers carry deviceName, deviceId and api_url
 * (remoteBasePath(deviceId, Id) when LocalPort is set, else null).
 */
export interface ContainerEngine {
  /** 'host' (Docker Engine) or 'sim'. */
  readonly name: 'host' | 'sim';
  /** Resolves when the engine answers; rejects 'engine_unavailable' otherwise. */
  ping(): Promise<void>;
  /** true when ping() succeeds. Never rejects. */
  available(): Promise<boolean>;
  /** The image `repository:tag` when it is on the device, else null (§4 check-docker-image). */
  inspectImage(ref: string): Promise<DockerImage | null>;
  /** Every image on the device (§3 Docker images). */
  listImages(): Promise<DockerImage[]>;
  /**
   * Pulls `repository:tag`; `onLayers` gets every layer's state after each engine event (Docker's statuses:
   * 'Pulling fs layer', 'Downloading', 'Download complete', 'Extracting', 'Pull complete', 'Already exists').
   * Resolves with the image once it is on the device. Rejects 'not_found' when the registry has no such
   * image ('manifest unknown'), 'canceled' when `signal` aborts.
   */
  pull(ref: string, onLayers: (layers: LayerProgress[]) => void, signal?: AbortSignal): Promise<DockerImage>;
  /** Creates (does not start) a container; state 'created'. */
  create(options: CreateContainerOptions): Promise<Container>;
  /** Starts a container (no-op when running); state 'running'. */
  start(id: string): Promise<Container>;
  /** Stops a container (no-op when not running); state 'exited'. Ends its Jupyter. */
  stop(id: string): Promise<Container>;
  /** Removes a container, stopping it first when it runs. Resolves with its full id. */
  remove(id: string): Promise<string>;
  /** One container, or null when there is none by that id or name. */
  get(id: string): Promise<Container | null>;
  /** Every container on the device, running or not, newest first. */
  list(): Promise<Container[]>;
  /** The last `tail` lines of the container's log, stdout and stderr, oldest first. */
  logs(id: string, tail: number): Promise<string[]>;
  /**
   * Starts JupyterLab inside a running container with `baseUrl` (remoteBasePath) as its base_url, no token,
   * listening on the container's Jupyter port; resolves once it answers HTTP on LocalPort (Jupyter true,
   * LocalPort set). Rejects 'not_found' when the container has no Jupyter port, 'failed' when Jupyter does
   * not answer within the engine's bound (60 s by default).
   */
  startJupyter(id: string, baseUrl: string): Promise<Container>;
  /**
   * The loopback address of a running container's web app (id: full or 12-character prefix), else null.
   * These are the ONLY addresses a tunnel may reach.
   */
  webTarget(idOrShortId: string): Promise<WebTarget | null>;
  /** Releases what the engine holds (simulated Jupyter servers, sockets). Idempotent. */
  close(): Promise<void>;
}

/** Device facts every engine stamps on its Containers. */
export interface EngineDevice {
  /** The device id (Container.deviceId, remote paths). */
  deviceId: string;
  /** The device label (Container.deviceName). */
  deviceName: string;
}

/** Docker's human duration ("Less than a second", "5 seconds", "About a minute", "3 hours"), from ms. */
export function humanDuration(ms: number): string {
  const s = Math.round(Math.max(0, ms) / 1000);
  if (s < 1) return 'Less than a second';
  if (s === 1) return '1 second';
  if (s < 60) return `${s} seconds`;
  const min = Math.round(s / 60);
  if (min === 1) return 'About a minute';
  if (min < 60) return `${min} minutes`;
  const h = Math.round(s / 3600);
  if (h === 1) return 'About an hour';
  if (h < 48) return `${h} hours`;
  const d = Math.round(s / 86_400);
  if (d < 14) return `${d} days`;
  if (d < 60) return `${Math.round(d / 7)} weeks`;
  if (d < 730) return `${Math.round(d / 30)} months`;
  return `${Math.round(d / 365)} years`;
}
