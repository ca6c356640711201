/**
 * Containers and environments (spec §1 "create, start, stop and remove containers (including Jupyter)";
 * §2 /control-panel/containers, /containers, /containers/{alias}, /containers/details/{envId},
 * environment-detail, /admin-panel/dockers; §3 Container, Docker process, Docker images; §4 Container action;
 * §7 request_remote_device and the Containers / Engine-and-images device commands; §8 Docker texts).
 *
 * An *environment* is an entry of the catalogue kept by the server (admins edit it): a Docker image with its
 * tags, whether it serves Jupyter, whether it wants the GPU. A *container* runs an environment's image on a
 * device; the device's Docker engine is the truth about containers (the server stores none).
 * The spec gives neither the environments' paths nor the commands' shapes ("not shown"); these are ours.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';
import { defineRoutes, Id } from './route';

export { CONTAINER_EVENTS, CONTAINER_TEXTS } from './containerTexts';

// ---------------------------------------------------------------------------------------------------------
// The environment catalogue (server).

/** URL-safe name of an environment: lower-case letters, digits, '-', 1–64 characters (e.g. 'pytorch-lab'). */
export const EnvAlias = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'Use lower-case letters, digits and "-"');

/** Docker image reference without tag: `[registry/]repository`, e.g. 'nvcr.io/nvidia/l4t-pytorch'. */
export const ImageRepository = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[a-z0-9]+([._-][a-z0-9]+)*(:[0-9]+)?(\/[a-z0-9]+([._-][a-z0-9]+)*)*$/, 'Not a Docker image name');
/** A Docker tag: 1–128 of [A-Za-z0-9_.-], not starting with '.' or '-'. */
export const ImageTag = z
  .string()
  .min(1)
  .max(128)
  .regex(/^[A-Za-z0-9_][A-Za-z0-9_.-]*$/, 'Not a Docker tag');
/** A full image reference `repository:tag` (what the device commands take), e.g. 'edge/python:3.11'. */
export const ImageRef = z
  .string()
  .min(3)
  .max(384)
  .regex(
    /^[a-z0-9]+(?:[._-][a-z0-9]+)*(?::[0-9]+)?(?:\/[a-z0-9]+(?:[._-][a-z0-9]+)*)*:[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/,
    'Not a Docker image reference (repository:tag)',
  )
  .meta({ examples: ['edge/python:3.11', 'nvcr.io/nvidia/l4t-pytorch:r36.2.0-pth2.2'] });

/** Which devices a tag runs on: Jetson (arm64, chipset_id ≠ '0'), x86 (chipset_id '0') or both. */
export const EnvPlatform = z.enum(['jetson', 'x86', 'any']);
export type EnvPlatform = z.infer<typeof EnvPlatform>;

/** One version of an environment: a tag of its image. */
export const EnvTag = z.object({
  tag: ImageTag,
  platform: EnvPlatform,
  /** Download size, MB (shown before a download). */
  size_mb: z.number().int().min(0).max(1_000_000),
});
export type EnvTag = z.infer<typeof EnvTag>;

/** The editable fields of an environment (admin create / update). */
export const EnvironmentInput = z.object({
  alias: EnvAlias,
  name: z.string().trim().min(1).max(100),
  description: z.string().max(2000).default(''),
  image: ImageRepository,
  tags: z.array(EnvTag).min(1).max(50),
  /** The image serves Jupyter (JupyterLab) on `jupyter_port` inside the container. */
  jupyter: z.boolean().default(false),
  jupyter_port: z.number().int().min(1).max(65_535).default(8888),
  /** Containers get the device's GPU when it has one. */
  gpu: z.boolean().default(true),
  /** Shown to signed-out visitors on environment-detail (§2). */
  public: z.boolean().default(true),
});
export type EnvironmentInput = z.input<typeof EnvironmentInput>;

/** §2 environment (catalogue entry). id is a UUID. Times are ISO 8601. */
export const Environment = EnvironmentInput.extend({
  id: z.string(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Environment = z.infer<typeof Environment>;

/** What environment-detail shows signed out: catalogue facts only, nothing about users or devices. */
export const PublicEnvironment = Environment.pick({
  alias: true,
  name: true,
  description: true,
  image: true,
  tags: true,
  jupyter: true,
  gpu: true,
});
export type PublicEnvironment = z.infer<typeof PublicEnvironment>;

export const EnvironmentsResponse = z.object({ environments: z.array(Environment) });
export const EnvironmentResponse = z.object({ environment: Environment });
export const AliasParams = z.object({ alias: EnvAlias });
export const EnvIdParams = z.object({ id: Id });

// ---------------------------------------------------------------------------------------------------------
// Opening a container's web app (§7 request_remote_device).

/** What the device serves: the container's Jupyter, or another web app it publishes. */
export const RemoteTarget = z.enum(['jupyter', 'web']);
export const RequestRemoteDeviceBody = z.object({
  device_id: Id,
  target: RemoteTarget,
  /** §7 "data (for Jupyter)": the container whose app to open. */
  data: z.object({ container_id: Id }),
});
/**
 * data.url: a same-origin path `/remote/<device_id>/<container>/…` proxied through the agent's tunnel to the
 * container's port. It opens only in a browser of the owner: the answer also sets an HttpOnly cookie for that
 * path (REMOTE_SESSION_TTL_S), without which the proxy answers 403. expires_at: ISO 8601.
 */
export const RequestRemoteDeviceResponse = z.object({
  data: z.object({ url: z.string(), expires_at: z.string() }),
});
/** Lifetime of a remote-app session (the cookie request_remote_device sets), s. */
export const REMOTE_SESSION_TTL_S = 8 * 3600;
/** The first path segment the server proxies through device tunnels. */
export const REMOTE_PATH_PREFIX = '/remote/';
/** The short container id used in remote paths: Docker's 12-character prefix. */
export const shortContainerId = (id: string): string => id.slice(0, 12);
/**
 * The base path under which a container's web app is served through the console (Jupyter's base_url):
 * `/remote/<device_id>/<first 12 characters of the container id>/`.
 */
export const remoteBasePath = (deviceId: string, containerId: string): string =>
  `${REMOTE_PATH_PREFIX}${encodeURIComponent(deviceId)}/${shortContainerId(containerId)}/`;

export const containerRoutes = defineRoutes({
  'containers.environments': {
    method: 'GET',
    path: '/api/environments',
    auth: 'user',
    summary: 'The environment catalogue (§2 /containers)',
    answer: EnvironmentsResponse,
  },
  'containers.environment': {
    method: 'GET',
    path: '/api/environments/:alias',
    auth: 'user',
    summary: 'One environment of the catalogue (§2 /containers/{alias})',
    params: AliasParams,
    answer: EnvironmentResponse,
    errors: [404],
  },
  'containers.publicEnvironment': {
    method: 'GET',
    path: '/api/public/environments/:alias',
    auth: 'none',
    summary: 'A public environment, signed out (§2 environment-detail): catalogue facts only',
    params: AliasParams,
    answer: z.object({ environment: PublicEnvironment }),
    errors: [404],
  },
  'containers.createEnvironment': {
    method: 'POST',
    path: '/api/admin/environments',
    auth: 'admin',
    summary: 'Add an environment to the catalogue (§2 /admin-panel/dockers); 409 when the alias is taken',
    body: EnvironmentInput,
    answer: EnvironmentResponse,
    errors: [409],
  },
  'containers.updateEnvironment': {
    method: 'PUT',
    path: '/api/admin/environments/:id',
    auth: 'admin',
    summary: 'Change an environment of the catalogue; 409 when the new alias is taken',
    params: EnvIdParams,
    body: EnvironmentInput,
    answer: EnvironmentResponse,
    errors: [404, 409],
  },
  'containers.deleteEnvironment': {
    method: 'DELETE',
    path: '/api/admin/environments/:id',
    auth: 'admin',
    summary: 'Remove an environment from the catalogue (containers on devices are left running)',
    params: EnvIdParams,
    answer: z.object({ deleted: z.literal(true) }),
    errors: [404],
  },
  'containers.requestRemoteDevice': {
    method: 'POST',
    path: '/api/request_remote_device',
    auth: 'user',
    summary:
      'A short-lived URL, for the owner only, proxying a container’s web app through the device tunnel',
    body: RequestRemoteDeviceBody,
    answer: RequestRemoteDeviceResponse,
    errors: [404, 409],
  },
});

// ---------------------------------------------------------------------------------------------------------
// Device commands (§7 "Containers", "Engine and images").

/** §3 Docker images have RepoTags and Size (bytes). Id: 'sha256:…'. Created: s since the epoch. */
export const DockerImage = z.object({
  Id: z.string(),
  RepoTags: z.array(z.string()),
  Size: z.number().int().min(0),
  Created: z.number().int(),
});
export type DockerImage = z.infer<typeof DockerImage>;

/** Docker's container states (Engine API `State`). */
export const ContainerState = z.enum([
  'created',
  'running',
  'paused',
  'restarting',
  'removing',
  'exited',
  'dead',
]);
export type ContainerState = z.infer<typeof ContainerState>;

/**
 * §3 Container as the device reports it. Id: Docker's 64-hex id; Status: Docker's human text ("Up 3 minutes");
 * Jupyter: Jupyter is running in it; LocalPort: the device-local port of its web app (Jupyter or the image's
 * first published port), null when none; api_url: its remote base path (remoteBasePath) when it has a web
 * app, else null. EnvName: the environment alias it was created from (label), null for containers not made
 * by the console. Created: s since the epoch.
 */
export const Container = z.object({
  Id: z.string(),
  Name: z.string(),
  Image: z.string(),
  Status: z.string(),
  State: ContainerState,
  Jupyter: z.boolean(),
  LocalPort: z.number().int().min(1).max(65_535).nullable(),
  deviceName: z.string(),
  deviceId: z.string(),
  api_url: z.string().nullable(),
  EnvName: z.string().nullable(),
  Gpu: z.boolean(),
  Created: z.number().int(),
});
export type Container = z.infer<typeof Container>;

/** A container named by its id (full or Docker's 12-character prefix) or name. */
export const ContainerRef = z.object({ id: Id });

/**
 * §3 Docker process: one container action or image download running (or just ended) on a device.
 * docker: the image reference; envName: the environment alias; message: the current step in words;
 * error: the failure text (§8) or null; started / ended: ms since the epoch (ended null while running);
 * gpu: the container asked for the GPU; percent: overall download progress 0–100, null for other actions.
 */
export const DockerProcess = z.object({
  id: z.string(),
  device: z.string(),
  docker: z.string(),
  envName: z.string().nullable(),
  action: z.enum(['download', 'create', 'start', 'stop', 'remove']),
  message: z.string(),
  error: z.string().nullable(),
  started: z.number(),
  ended: z.number().nullable(),
  gpu: z.boolean(),
  percent: z.number().min(0).max(100).nullable(),
});
export type DockerProcess = z.infer<typeof DockerProcess>;

/** One layer of a download, as Docker reports it (status e.g. 'Downloading', 'Extracting', 'Pull complete'). */
export const LayerProgress = z.object({
  id: z.string(),
  status: z.string(),
  /** Bytes done and total of the current phase; 0 when Docker gives none. */
  current: z.number().min(0),
  total: z.number().min(0),
});
export type LayerProgress = z.infer<typeof LayerProgress>;

/**
 * Progress of download-docker-image (link `progress` message data): per-layer progress as the engine reports
 * it and the overall percent the device computed from it (downloadPercent).
 */
export const DownloadProgress = z.object({
  image: z.string(),
  layers: z.array(LayerProgress),
  percent: z.number().min(0).max(100),
});
export type DownloadProgress = z.infer<typeof DownloadProgress>;

/**
 * Overall download percent from per-layer progress: each layer weighs its total size (layers without a
 * known size weigh the mean of the known ones); a layer counts downloading as its first 80 % and extracting
 * as the last 20 %; 'Already exists' and 'Pull complete' count whole. 0 with no layers.
 */
export function downloadPercent(layers: readonly LayerProgress[]): number {
  if (layers.length === 0) return 0;
  const known = layers.filter((l) => l.total > 0);
  const mean = known.length ? known.reduce((s, l) => s + l.total, 0) / known.length : 1;
  let done = 0;
  let all = 0;
  for (const l of layers) {
    const weight = l.total > 0 && /^(Downloading|Extracting)/.test(l.status) ? l.total : mean;
    all += weight;
    const share = l.total > 0 ? Math.min(1, l.current / l.total) : 0;
    if (/^(Already exists|Pull complete|Download complete)/.test(l.status)) {
      done += l.status.startsWith('Download complete') ? weight * 0.8 : weight;
    } else if (l.status.startsWith('Downloading')) done += weight * 0.8 * share;
    else if (l.status.startsWith('Extracting')) done += weight * (0.8 + 0.2 * share);
  }
  return all > 0 ? Math.round((1000 * done) / all) / 10 : 0;
}

/** §4 check-docker-image: status 200 (present), 404 (missing: offer a download) or another failure. */
export const CheckDockerImageReply = z.object({
  status: z.number().int(),
  /** The engine's words: '' when present, e.g. 'No such image: …', or why the check failed. */
  message: z.string(),
  image: DockerImage.nullable(),
});

export const containerCommands = defineCommands({
  /** §4: is the image on the device? 503 when no Docker engine is reachable. */
  'check-docker-image': { request: z.object({ image: ImageRef }), reply: CheckDockerImageReply },
  /** The images on the device (§3 Docker images: RepoTags, Size). */
  'docker-image': { request: Empty, reply: z.object({ images: z.array(DockerImage) }) },
  /**
   * Downloads (pulls) an image; sends DownloadProgress as link `progress` messages while it runs and answers
   * when done. A second request for an image already downloading joins that download. Fails with
   * 'canceled' after cancel-docker-download, 'not_found' when the registry has no such image.
   */
  'download-docker-image': {
    request: z.object({ image: ImageRef, envName: EnvAlias.optional() }),
    reply: z.object({ image: z.string(), status: z.literal('downloaded'), image_info: DockerImage }),
  },
  /** Cancels a running download (ours: §4 "cancelable"); canceled false when none was running. */
  'cancel-docker-download': {
    request: z.object({ image: ImageRef }),
    reply: z.object({ canceled: z.boolean() }),
  },
  /**
   * Creates (not starts) a container of an environment. `name`: optional container name (Docker's rules);
   * jupyter_port: the port Jupyter listens on inside (published to a free device-local port);
   * gpu: request the GPU when the device has one. 'busy' while another action of the environment runs.
   */
  'docker-create': {
    request: z.object({
      image: ImageRef,
      envName: EnvAlias,
      name: z
        .string()
        .regex(/^[a-zA-Z0-9][a-zA-Z0-9_.-]{0,62}$/, 'Not a container name')
        .optional(),
      jupyter_port: z.number().int().min(1).max(65_535).nullable().default(null),
      gpu: z.boolean().default(false),
    }),
    reply: z.object({ container: Container }),
  },
  'docker-start': { request: ContainerRef, reply: z.object({ container: Container }) },
  'docker-stop': { request: ContainerRef, reply: z.object({ container: Container }) },
  /** Removes a container (stopping it first when it runs). */
  'docker-remove': { request: ContainerRef, reply: z.object({ removed: z.literal(true), id: z.string() }) },
  /**
   * Starts Jupyter in a running container (§4 "Jupyter start follows create/start when selected") with
   * base_url remoteBasePath(device, container); answers once it accepts HTTP.
   */
  'start-jupyter': { request: ContainerRef, reply: z.object({ container: Container }) },
  /** §3 the device's containers (all of them; EnvName null for those the console did not make). */
  getContainers: { request: Empty, reply: z.object({ containers: z.array(Container) }) },
  /** The last `tail` lines of a container's log (stdout and stderr, oldest first). */
  'docker-logs': {
    request: ContainerRef.extend({ tail: z.number().int().min(1).max(1000).default(200) }),
    reply: z.object({ lines: z.array(z.string()) }),
  },
  /** §3 Docker processes running or ended in the last 10 minutes on the device (survive a console reload). */
  'docker-processes': { request: Empty, reply: z.object({ processes: z.array(DockerProcess) }) },
});

export const ContainersChangedEvent = z.object({ containers: z.array(Container) });
