/**
 * The software feature's contract (issue 16 §1 "Software"; §7 "Client and settings": get-client-version,
 * check-version-update, check-stream-engine-update and the companion checks, "Health and metrics":
 * get-download-upload-status; §4 "Client update"; §8 "Update failures"; §9 "Client restarts 10 s after
 * confirm. Update disk threshold 1GB"; agent releases published by the server).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 *
 * Client update flow: check-version-update (the device asks the server for the newest agent release and
 * compares it with its own version) → update-client (free disk ≥ UPDATE_MIN_FREE_BYTES checked BEFORE the
 * download; progress as link `progress` messages and in get-download-upload-status; host: download, sha256
 * check, unpack into its state directory, switch its `current` pointer; sim: the same steps simulated) →
 * the console offers a restart → restart-client-update CLIENT_RESTART_DELAY_MS after the confirm → the device
 * comes back running the new version. Refusals are CommandErrors with the §4 error types as codes
 * (UPDATE_ERROR_CODES: notEnoughStorage, downloadError, other).
 *
 * Agent releases (server): a release is a gzip-compressed tar bundle with its version (semver), notes, size
 * and sha256. An admin publishes one as the raw body of POST /api/agent-releases?version=…&notes=…
 * (Content-Type application/octet-stream); devices (and signed-in users) list them and download a bundle.
 * Bundle layout: optional `release.json` at the root `{ "version": "x.y.z", "entry": "path/to/main.js" }`
 * (entry: the script a host agent restarts into, relative to the bundle root; absent → the same command line)
 * and any other files.
 */
import { z } from 'zod';
import { defineCommands, Empty } from './command';
import { ModelDownload } from './models';
import { defineRoutes } from './route';

export { CLIENT_RESTART_DELAY_MS } from './powerTexts';

/** §9 "Update disk threshold 1GB": the least free disk space an update starts with, bytes (1 GiB). */
export const UPDATE_MIN_FREE_BYTES = 1024 ** 3;
/** Largest bundle the server accepts, bytes (200 MiB). */
export const RELEASE_MAX_BYTES = 200 * 1024 ** 2;
/** Longest release notes, characters. */
export const RELEASE_NOTES_MAX_CHARS = 2000;
/** Longest version text, characters. */
export const VERSION_MAX_CHARS = 64;

/** §4 client update error types, the CommandError codes of update-client (and restart-client-update). */
export const UPDATE_ERROR_CODES = {
  /** §8 "storage under 1GB": less than UPDATE_MIN_FREE_BYTES free, found before anything is downloaded. */
  notEnoughStorage: 'notEnoughStorage',
  /** §8 "download error": the bundle could not be fetched, or it does not match its sha256. */
  downloadError: 'downloadError',
  /** Anything else (no release, an update already running, the install failed, nothing to restart). */
  other: 'other',
} as const;
export type UpdateErrorCode = (typeof UPDATE_ERROR_CODES)[keyof typeof UPDATE_ERROR_CODES];

/**
 * A semantic version `MAJOR.MINOR.PATCH` with an optional `-prerelease` (letters, digits, dots, hyphens) and
 * `+build`; at most VERSION_MAX_CHARS characters.
 */
export const SEMVER_PATTERN =
  /^(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})\.(0|[1-9]\d{0,8})(?:-([0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*))?(?:\+[0-9A-Za-z-]+(?:\.[0-9A-Za-z-]+)*)?$/;
export const SemVer = z
  .string()
  .max(VERSION_MAX_CHARS)
  .regex(SEMVER_PATTERN, 'version must be a semantic version such as 1.4.0')
  .meta({ examples: ['1.4.0', '0.2.0-rc.1'] });

/**
 * Compares two semantic versions by semver precedence: negative when a < b, 0 when equal, positive when
 * a > b (build metadata ignored; a text that is not a version sorts before every version).
 */
export function compareVersions(a: string, b: string): number {
  const pa = SEMVER_PATTERN.exec(a);
  const pb = SEMVER_PATTERN.exec(b);
  if (!pa || !pb) return (pa ? 1 : 0) - (pb ? 1 : 0);
  for (let i = 1; i <= 3; i++) {
    const d = Number(pa[i]) - Number(pb[i]);
    if (d !== 0) return d;
  }
  const ra = pa[4];
  const rb = pb[4];
  if (ra === undefined || rb === undefined) return (ra === undefined ? 1 : 0) - (rb === undefined ? 1 : 0);
  const xa = ra.split('.');
  const xb = rb.split('.');
  for (let i = 0; i < Math.max(xa.length, xb.length); i++) {
    const x = xa[i];
    const y = xb[i];
    if (x === undefined || y === undefined) return x === undefined ? -1 : 1;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny && Number(x) !== Number(y)) return Number(x) - Number(y);
    if (nx !== ny) return nx ? -1 : 1;
    if (x !== y) return x < y ? -1 : 1;
  }
  return 0;
}

/** A published agent release. size: bytes; sha256: 64 lowercase hex digits; created_at: ISO 8601. */
export const AgentRelease = z.object({
  id: z.string(),
  version: z.string(),
  file_name: z.string(),
  size: z.number().int().min(0),
  sha256: z.string(),
  notes: z.string(),
  created_at: z.string(),
});
export type AgentRelease = z.infer<typeof AgentRelease>;

/**
 * check-version-update: current — the version the device runs; latest — the newest release the server
 * publishes (null: none); update_available — latest is newer than current; installed — a release already
 * installed that waits for the restart (null: none).
 */
export const VersionCheck = z.object({
  current: z.string(),
  latest: AgentRelease.nullable(),
  update_available: z.boolean(),
  installed: z.string().nullable(),
});
export type VersionCheck = z.infer<typeof VersionCheck>;

/**
 * A component check (stream engine, companion service). installed: what the device runs (an image tag or a
 * program version; null: not installed); latest: the newest the device knows of (null: none known);
 * update_available: latest differs from installed; running: the component runs now; restart_needed: it runs
 * an older build than the one installed (a restart would pick it up); detail: one line for the operator.
 */
export const ComponentCheck = z.object({
  component: z.enum(['stream-engine', 'companion-service']),
  installed: z.string().nullable(),
  latest: z.string().nullable(),
  update_available: z.boolean(),
  running: z.boolean(),
  restart_needed: z.boolean(),
  detail: z.string(),
});
export type ComponentCheck = z.infer<typeof ComponentCheck>;

/** States of an update on the device (get-download-upload-status, update-client progress). */
export const UpdateState = z.enum([
  'idle',
  'checking',
  'downloading',
  'verifying',
  'installing',
  'installed',
  'failed',
  'restarting',
]);
export type UpdateState = z.infer<typeof UpdateState>;

/**
 * get-download-upload-status (and every update-client `progress` message): the update in flight or the last
 * one. version: its target (null: none yet); bytes_done / bytes_total: download progress in bytes
 * (bytes_total 0 until known); error: the failure of a `failed` update ({ code: UPDATE_ERROR_CODES, message });
 * updated_at: ms since the epoch.
 */
export const UpdateStatus = z.object({
  state: UpdateState,
  version: z.string().nullable(),
  bytes_done: z.number().int().min(0),
  bytes_total: z.number().int().min(0),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  updated_at: z.number().int().min(0),
});
export type UpdateStatus = z.infer<typeof UpdateStatus>;

export const softwareCommands = defineCommands({
  /**
   * §7 check-version-update: asks the server for the newest agent release and compares it with the running
   * version. CommandError other when the server cannot be asked.
   */
  'check-version-update': { request: Empty, reply: VersionCheck },
  /**
   * §7 check-stream-engine-update: the stream (inference) engine the device runs and whether a newer one is
   * known (host: the inference-engine Docker images; sim: its simulated engine).
   */
  'check-stream-engine-update': { request: Empty, reply: ComponentCheck },
  /**
   * §7 "further update checks for the companion service": the companion services (Docker images beside the
   * product, e.g. an MQTT broker) and whether a newer one is known.
   */
  'check-companion-update': { request: Empty, reply: ComponentCheck },
  /**
   * §7 "further restart checks for the companion service": does a companion service run, and does it need a
   * restart (a container runs an image other than the newest of its repository).
   */
  'check-companion-restart': { request: Empty, reply: ComponentCheck },
  /**
   * §7 get-download-upload-status: the client update in flight (or the last one); `downloads` (optional, issue 9)
   * the device's model downloads in flight and the last finished ones, newest first.
   */
  'get-download-upload-status': {
    request: Empty,
    reply: UpdateStatus.extend({ downloads: z.array(ModelDownload).optional() }),
  },
  /**
   * §4 client update: installs `version` (default: the newest release). Checks free disk ≥
   * UPDATE_MIN_FREE_BYTES BEFORE downloading (else notEnoughStorage), downloads with UpdateStatus progress
   * messages (failure or sha256 mismatch: downloadError), installs (failure: other). Answers once installed;
   * the restart is restart-client-update.
   */
  'update-client': {
    request: z.object({ version: SemVer.optional() }).strict(),
    reply: z.object({ version: z.string(), installed: z.literal(true), restart_required: z.literal(true) }),
  },
  /**
   * §4 restarting: restarts the client into the installed release (the console sends it
   * CLIENT_RESTART_DELAY_MS after the confirm). Answered first; the agent leaves shortly after and comes back
   * running the new version (sim: off the air offline_ms). CommandError other when nothing is installed.
   */
  'restart-client-update': {
    request: Empty,
    reply: z.object({
      restarting: z.literal(true),
      version: z.string(),
      offline_ms: z.number().int().nullable(),
    }),
  },
});

/** Query of the publish route: version (semver, unique), notes (≤ RELEASE_NOTES_MAX_CHARS), file name. */
export const PublishReleaseQuery = z.object({
  version: SemVer,
  notes: z.string().max(RELEASE_NOTES_MAX_CHARS).default(''),
  file_name: z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\w.+-]+$/, 'file_name: letters, digits, dots, dashes, pluses and underscores only')
    .optional(),
});

export const softwareRoutes = defineRoutes({
  'software.releases': {
    method: 'GET',
    path: '/api/agent-releases',
    auth: 'userOrDevice',
    summary: 'Lists the published agent releases, newest version first (at most 100).',
    answer: z.object({ releases: z.array(AgentRelease) }),
  },
  'software.latest': {
    method: 'GET',
    path: '/api/agent-releases/latest',
    auth: 'userOrDevice',
    summary: 'The newest published agent release (release null when none).',
    answer: z.object({ release: AgentRelease.nullable() }),
  },
  'software.bundle': {
    method: 'GET',
    path: '/api/agent-releases/:version/bundle',
    auth: 'userOrDevice',
    summary:
      "Downloads a release's bundle (application/gzip bytes; X-Content-SHA256 carries its sha256). 404 when no such release.",
    params: z.object({ version: SemVer }),
    answer: z.unknown(),
    errors: [404],
  },
  'software.publish': {
    method: 'POST',
    path: '/api/agent-releases',
    auth: 'admin',
    summary:
      'Publishes an agent release: the bundle (gzip tar, ≤ 200 MiB) is the raw body (Content-Type application/octet-stream); version and notes in the query. 409 when the version exists, 413 when too large.',
    query: PublishReleaseQuery,
    // No body schema: the body is the raw bundle, streamed to a file by the route's content-type parser.
    answer: AgentRelease,
    errors: [409, 413],
  },
});
