/**
 * A Distribution registry on loopback (Debian's `docker-registry` package: `/usr/bin/docker-registry serve
 * <config.yml>`) for `npm start` and the tests, storing in a folder of ours, and the demo images it is seeded
 * with. `npm start` starts one when the binary exists and REGISTRY_URL is unset (src/stack.ts), so a newcomer
 * sees repositories on /repositories.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import net from 'node:net';
import path from 'node:path';
import { pushTestImage } from './images';
import { RegistryClient } from './oci';
import { DEFAULT_PROJECT, prodProject } from './settings';

/** Where Debian installs the registry. */
export const REGISTRY_BINARY = '/usr/bin/docker-registry';

/** A running local registry. url: http://127.0.0.1:port. */
export interface LocalRegistry {
  url: string;
  port: number;
  child: ChildProcess;
  /** Stops it (SIGTERM, then SIGKILL after 5 s). */
  close(): Promise<void>;
}

/** A free TCP port on loopback. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the registry storing in `dir/storage` (config in `dir/config.yml`), deletes enabled. `auth`: a YAML
 * block placed under `auth:` (e.g. a token realm); none = anonymous. Resolves once GET /v2/ answers.
 * @throws Error when the binary is missing or the registry does not answer within 15 s.
 */
export async function startLocalRegistry(options: {
  dir: string;
  port?: number;
  auth?: string;
  binary?: string;
}): Promise<LocalRegistry> {
  const binary = options.binary ?? REGISTRY_BINARY;
  if (!existsSync(binary)) throw new Error(`${binary} is missing (apt-get install docker-registry)`);
  const port = options.port ?? (await freePort());
  await mkdir(path.join(options.dir, 'storage'), { recursive: true });
  const config = [
    'version: 0.1',
    'log:',
    '  level: error',
    '  accesslog:',
    '    disabled: true',
    'storage:',
    '  filesystem:',
    `    rootdirectory: ${JSON.stringify(path.join(options.dir, 'storage'))}`,
    '  delete:',
    '    enabled: true',
    'http:',
    `  addr: 127.0.0.1:${port}`,
    ...(options.auth ? ['auth:', ...options.auth.split('\n').map((l) => `  ${l}`)] : []),
    '',
  ].join('\n');
  const file = path.join(options.dir, 'config.yml');
  await writeFile(file, config);
  const child = spawn(binary, ['serve', file], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  const url = `http://127.0.0.1:${port}`;
  const close = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  const deadline = Date.now() + 15_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`docker-registry exited (${child.exitCode}): ${stderr}`);
    const res = await fetch(`${url}/v2/`).catch(() => null);
    if (res) {
      await res.body?.cancel();
      break;
    }
    if (Date.now() > deadline) {
      await close();
      throw new Error(`docker-registry did not answer on ${url}: ${stderr}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { url, port, child, close };
}

/** The demo images: repositories in `project` and their tags (one multi-platform). */
export const DEMO_IMAGES = [
  {
    repository: 'people-detector',
    tags: [
      {
        tag: '1.0.0',
        images: [
          { architecture: 'amd64', created: '2026-10-01T09:00:00Z', file: 'people-detector 1.0.0 (x86)\n' },
          {
            architecture: 'arm64',
            variant: 'v8',
            created: '2026-10-01T09:05:00Z',
            file: 'people-detector 1.0.0 (Jetson)\n',
          },
        ],
      },
      {
        tag: '1.1.0',
        images: [{ architecture: 'arm64', created: '2026-11-02T14:30:00Z', file: 'people-detector 1.1.0\n' }],
      },
    ],
  },
  {
    repository: 'plate-reader',
    tags: [
      {
        tag: 'latest',
        images: [{ architecture: 'amd64', created: '2026-11-20T08:15:00Z', file: 'plate-reader latest\n' }],
      },
    ],
  },
] as const;

/** Pushes DEMO_IMAGES into `project` of the registry at `url` (idempotent). */
export async function seedDemoImages(url: string, project: string): Promise<void> {
  const client = new RegistryClient({ url, username: null, password: null });
  for (const repo of DEMO_IMAGES) {
    for (const t of repo.tags) await pushTestImage(client, `${project}/${repo.repository}`, t.tag, t.images);
  }
}

/**
 * `npm start`'s registry: when REGISTRY_URL is unset and the binary exists, starts a local registry storing
 * in `dir`, seeds DEMO_IMAGES into the configured project (default edge_prod) and sets REGISTRY_URL for this
 * process, so /repositories shows them. Answers null (and changes nothing) otherwise, or when it fails to
 * start (reported through `warn`).
 */
export async function startDemoRegistry(
  dir: string,
  warn: (message: string) => void = console.warn,
): Promise<LocalRegistry | null> {
  if (process.env.REGISTRY_URL || !existsSync(REGISTRY_BINARY)) return null;
  let registry: LocalRegistry | null = null;
  try {
    registry = await startLocalRegistry({ dir });
    await seedDemoImages(registry.url, prodProject(process.env.REGISTRY_PROJECT?.trim() || DEFAULT_PROJECT));
    process.env.REGISTRY_URL = registry.url;
    return registry;
  } catch (err) {
    await registry?.close();
    warn(`demo registry not started: ${(err as Error).message}`);
    return null;
  }
}
