/**
 * The download page's contract (spec §2 /download; the device client for x86 and Jetson; §7 generate_token and
 * §8 "Generated!" for a token): the agent release the server publishes (version, size, sha256), a new device
 * with its first device token (60 days, §9), and the one-line install that works against this server:
 *
 *   curl -fsSL <server>/api/download/install.sh | AGENT_TOKEN='<token>' sh
 *
 * The script (served without auth; it holds no secret — the token comes from the environment) checks what the
 * device needs (node ≥ 20.19, curl, tar, sha256sum; ffmpeg and Docker reported), asks the server for the newest
 * release with the device token, downloads its bundle, checks its sha256, unpacks it into
 * `$EDGE_AGENT_HOME/releases/<version>` (default ~/.edge-agent), writes `agent.env` (0600: server and token)
 * and starts the bundle's entry (`release.json` "entry") with `--server <server> --backend host`. From a
 * checkout of this repository, `AGENT_TOKEN=… npm run agent -- --server <server> --backend host` runs the
 * agent directly.
 */
import { z } from 'zod';
import { defineRoutes } from './route';
import { AgentRelease } from './software';

/** The least Node.js version the agent runs on (package.json engines). */
export const AGENT_NODE_MIN = '20.19.0';
/** Longest device name, characters. */
export const DEVICE_LABEL_MAX_CHARS = 100;

/** Device kinds the page installs: x86 (§9 chipset id 0) or Jetson. */
export const DeviceKind = z.enum(['x86', 'jetson']);
export type DeviceKind = z.infer<typeof DeviceKind>;

/** The two ways to install: the one-line script, and the agent from a checkout (npm). */
export const InstallCommands = z.object({
  curl: z.string(),
  npm: z.string(),
});
export type InstallCommands = z.infer<typeof InstallCommands>;

/** The install commands for `server` (origin) and `token`. */
export function installCommands(server: string, token: string, kind: DeviceKind): InstallCommands {
  const quoted = `'${token.replace(/'/g, `'\\''`)}'`;
  return {
    curl: `curl -fsSL ${server}/api/download/install.sh | AGENT_TOKEN=${quoted} sh`,
    npm: `AGENT_TOKEN=${quoted} npm run agent -- --server ${server} --backend host --kind ${kind}`,
  };
}

export const downloadRoutes = defineRoutes({
  'download.info': {
    method: 'GET',
    path: '/api/download/info',
    auth: 'user',
    summary:
      'The download page: the newest agent release (null when none), this server’s origin and the install script’s URL.',
    answer: z.object({
      release: AgentRelease.nullable(),
      server: z.string(),
      install_script: z.string(),
    }),
  },
  'download.createDevice': {
    method: 'POST',
    path: '/api/download/devices',
    auth: 'user',
    summary:
      'Creates a device named `label` (x86 or Jetson) with its first device token (shown once) and the install commands.',
    body: z
      .object({
        label: z.string().trim().min(1, 'label is required').max(DEVICE_LABEL_MAX_CHARS),
        kind: DeviceKind,
      })
      .strict(),
    answer: z.object({
      device: z.object({ id: z.string(), device_id: z.string(), label: z.string(), kind: DeviceKind }),
      access_token: z.string(),
      /** Seconds the token is valid (§9 60 days). */
      expires_in: z.number().int(),
      commands: InstallCommands,
    }),
    errors: [409],
  },
  'download.installScript': {
    method: 'GET',
    path: '/api/download/install.sh',
    auth: 'none',
    summary:
      'The install script (text/x-shellscript): run as `curl -fsSL …/install.sh | AGENT_TOKEN=… sh` on the device.',
    answer: z.unknown(),
  },
});
