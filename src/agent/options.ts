/**
 * Command-line options of the agent (team brief "Device agent"):
 *   --server <url>            server origin (env AGENT_SERVER)
 *   --token <device token>    (env AGENT_TOKEN)
 *   --backend host|sim        default sim
 *   --kind jetson|x86         sim only; default from the server's chipset_id
 *   --cameras <2-4>           sim only; default 2
 *   --camera-source <src>     host only, repeatable: file path, rtsp:// URL or /dev/videoN (needs ffmpeg)
 *   --shared-camera <id>      sim only: the first camera is the physical camera <id> shared with other devices
 *   --sim-fault <fault>       sim only, repeatable: a simulated failure (SIM_FAULTS), e.g. inference-connection
 *   --label <text>            display label (logs, sim hostname)
 *   --docker-socket <addr>    host only: Docker Engine endpoint (env DOCKER_HOST; default /var/run/docker.sock)
 *   --display <name>          host only: X display of the remote desktop (env DISPLAY), e.g. :0
 */
import { parseArgs } from 'node:util';
import { z } from 'zod';
import { parseDockerHost } from './containers';
import type { AgentOptions } from './index';

/**
 * Simulated failures a sim device can be started with (tests of the console's failure paths):
 * - `inference-connection`: the start connection of a job on the device's default engine fails (the answer
 *   carries a wrong DTLS fingerprint, so the browser's peer connection goes `failed`): §4 step 7, the console
 *   starts the job again with the deep-stream engine, whose connection works.
 */
export const SIM_FAULTS = ['inference-connection'] as const;
export type SimFault = (typeof SIM_FAULTS)[number];

const CliOptions = z
  .object({
    server: z.url({ protocol: /^https?$/, error: '--server must be an http(s) URL (or set AGENT_SERVER)' }),
    token: z
      .string({ error: '--token is required (or set AGENT_TOKEN)' })
      .min(1, '--token must not be empty'),
    backend: z.enum(['host', 'sim'], { error: '--backend must be host or sim' }).default('sim'),
    kind: z.enum(['jetson', 'x86'], { error: '--kind must be jetson or x86' }).optional(),
    cameras: z.coerce
      .number({ error: '--cameras must be a number' })
      .int()
      .min(2, '--cameras must be 2–4')
      .max(4, '--cameras must be 2–4')
      .optional(),
    cameraSources: z.array(z.string().min(1)).default([]),
    sharedCamera: z
      .string()
      .regex(
        /^[A-Za-z0-9._:-]{1,100}$/,
        '--shared-camera must be 1–100 letters, digits, ".", "_", ":" or "-"',
      )
      .optional(),
    simFaults: z
      .array(z.enum(SIM_FAULTS, { error: `--sim-fault must be one of ${SIM_FAULTS.join(', ')}` }))
      .default([]),
    label: z.string().min(1).max(100).optional(),
    dockerHost: z
      .string()
      .refine(
        (v) => {
          try {
            parseDockerHost(v);
            return true;
          } catch {
            return false;
          }
        },
        { message: '--docker-socket must be a socket path, unix:///path or tcp://host:port' },
      )
      .optional(),
    display: z
      .string()
      .regex(/^[A-Za-z0-9._-]*:\d+(\.\d+)?$/, '--display must be an X display name such as :0')
      .optional(),
  })
  .refine((o) => o.backend === 'host' || o.display === undefined, {
    message: '--display applies to --backend host only',
  })
  .refine((o) => o.backend === 'sim' || (o.kind === undefined && o.cameras === undefined), {
    message: '--kind and --cameras apply to --backend sim only',
  })
  .refine((o) => o.backend === 'sim' || o.sharedCamera === undefined, {
    message: '--shared-camera applies to --backend sim only',
  })
  .refine((o) => o.backend === 'sim' || o.simFaults.length === 0, {
    message: '--sim-fault applies to --backend sim only',
  })
  .refine((o) => o.backend === 'host' || o.cameraSources.length === 0, {
    message: '--camera-source applies to --backend host only',
  })
  .refine((o) => o.backend === 'host' || o.dockerHost === undefined, {
    message: '--docker-socket applies to --backend host only',
  });

/** Usage text printed with --help and on errors. */
export const USAGE = `Usage: tsx src/agent/main.ts --server <url> --token <device token> [options]
  --server <url>           server origin, e.g. http://127.0.0.1:8080 (env AGENT_SERVER)
  --token <token>          device token from "generate token" (env AGENT_TOKEN)
  --backend host|sim       real machine or simulated device (default sim)
  --kind jetson|x86        sim: device kind (default from the server's chipset_id)
  --cameras <2-4>          sim: number of synthetic cameras (default 2)
  --camera-source <src>    host: camera source, repeatable: file path, rtsp:// URL or /dev/videoN (needs ffmpeg)
  --shared-camera <id>     sim: the first camera is physical camera <id>, seen by other devices too
  --sim-fault <fault>      sim, repeatable: a simulated failure for tests (${SIM_FAULTS.join(', ')})
  --label <text>           display label for logs (default the device's label)
  --docker-socket <addr>   host: Docker Engine socket path, unix:///path or tcp://host:port
                           (env DOCKER_HOST; default /var/run/docker.sock)
  --display <name>         host: X display of the remote desktop, e.g. :0 (env DISPLAY)`;

/** The result of parsing: options, help, or an error message. */
export type ParsedCli = { ok: true; options: AgentOptions } | { ok: false; help: boolean; message: string };

/** Parses argv (without node and script) and the environment. Never throws. */
export function parseCli(argv: readonly string[], env: Record<string, string | undefined>): ParsedCli {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        server: { type: 'string' },
        token: { type: 'string' },
        backend: { type: 'string' },
        kind: { type: 'string' },
        cameras: { type: 'string' },
        'camera-source': { type: 'string', multiple: true },
        'shared-camera': { type: 'string' },
        'sim-fault': { type: 'string', multiple: true },
        label: { type: 'string' },
        'docker-socket': { type: 'string' },
        display: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      strict: true,
      allowPositionals: false,
    }));
  } catch (err) {
    return { ok: false, help: false, message: err instanceof Error ? err.message : String(err) };
  }
  if (values.help) return { ok: false, help: true, message: USAGE };
  const parsed = CliOptions.safeParse({
    server: values.server ?? env.AGENT_SERVER,
    token: values.token ?? env.AGENT_TOKEN,
    backend: values.backend,
    kind: values.kind,
    cameras: values.cameras,
    cameraSources: values['camera-source'],
    sharedCamera: values['shared-camera'],
    simFaults: values['sim-fault'],
    label: values.label,
    dockerHost: values['docker-socket'] ?? (values.backend === 'host' ? env.DOCKER_HOST : undefined),
    display: values.display ?? (values.backend === 'host' ? env.DISPLAY || undefined : undefined),
  });
  if (!parsed.success) {
    return { ok: false, help: false, message: parsed.error.issues.map((i) => i.message).join('; ') };
  }
  const o = parsed.data;
  return {
    ok: true,
    options: {
      server: o.server,
      token: o.token,
      backend: o.backend,
      kind: o.kind,
      cameras: o.cameras,
      cameraSources: o.cameraSources,
      sharedCamera: o.sharedCamera,
      simFaults: o.simFaults,
      label: o.label,
      dockerHost: o.dockerHost,
      display: o.display,
    },
  };
}
