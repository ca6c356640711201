/**
 * What the `host` software part does for real on this machine (issue 16 §1 "Software", §4 client update):
 *
 * - free disk: `statfs` of the state directory's file system (bytes available to this user);
 * - download: the bundle from the server (`GET /api/agent-releases/:version/bundle`, the device token) into
 *   `<stateDir>/releases/.download-<version>.tar.gz`, hashed while it streams; a sha256 other than the
 *   release's → downloadError;
 * - install: unpacked (tar; absolute paths and `..` are refused by tar itself) into a fresh folder, checked
 *   (its release.json, when present, names the same version), renamed to `<stateDir>/releases/<version>`, then
 *   the `<stateDir>/current` symlink is switched to it atomically (a new link renamed over the old one);
 * - restart: a detached copy of the agent is started with the same Node options, arguments and environment —
 *   running the release's `entry` script when its release.json names one, else the same script — and this
 *   process stops cleanly (SIGTERM: its links close, then it exits 0).
 * - components: the Docker CLI (`docker image ls`, `docker ps`), images classified as the Storage tab does.
 */
import { spawn, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, readFile, readlink, rename, rm, statfs, symlink } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import type { ComponentCheck } from '../../protocol/software';
import { imageKind } from '../storage/images';

/** What a bundle's optional release.json says. */
export interface ReleaseManifest {
  version?: string;
  /** The script a host agent restarts into, relative to the release folder. */
  entry?: string;
}

/** Folder of the installed releases, and the `current` pointer. */
export const releasesDir = (stateDir: string) => path.join(stateDir, 'releases');
export const currentLink = (stateDir: string) => path.join(stateDir, 'current');

/** Bytes free for this user on the file system of `dir`. */
export async function freeBytes(dir: string): Promise<number> {
  const s = await statfs(dir);
  return Number(s.bavail) * Number(s.bsize);
}

/** A download failure (the caller maps it to downloadError). */
export class DownloadError extends Error {
  override name = 'DownloadError';
}

/**
 * Fetches `url` (with `headers`) into `file`, hashing it; `onBytes(done, total)` as it streams (total 0 when
 * the server sent no length). Resolves with the sha256 (hex); DownloadError on an HTTP failure or a broken
 * stream (the partial file removed).
 */
export async function download(
  url: string,
  headers: Record<string, string>,
  file: string,
  onBytes: (done: number, total: number) => void,
  options: { fetch?: typeof fetch; signal?: AbortSignal } = {},
): Promise<{ sha256: string; size: number }> {
  const doFetch = options.fetch ?? fetch;
  let res: Response;
  try {
    res = await doFetch(url, { headers, signal: options.signal });
  } catch (err) {
    throw new DownloadError(`The server could not be reached: ${(err as Error).message}`);
  }
  if (!res.ok || !res.body) throw new DownloadError(`The server answered ${res.status} to the download`);
  const total = Number(res.headers.get('content-length')) || 0;
  const hash = createHash('sha256');
  let done = 0;
  try {
    await pipeline(
      Readable.fromWeb(res.body as import('node:stream/web').ReadableStream<Uint8Array>),
      async function* (source: AsyncIterable<Buffer>) {
        for await (const chunk of source) {
          hash.update(chunk);
          done += chunk.length;
          onBytes(done, total);
          yield chunk;
        }
      },
      createWriteStream(file, { mode: 0o600 }),
    );
  } catch (err) {
    await rm(file, { force: true });
    throw new DownloadError(`The download broke off: ${(err as Error).message}`);
  }
  return { sha256: hash.digest('hex'), size: done };
}

/** Reads `<dir>/release.json` (null when absent or not JSON). */
export async function readManifest(dir: string): Promise<ReleaseManifest | null> {
  try {
    const raw = JSON.parse(await readFile(path.join(dir, 'release.json'), 'utf8')) as unknown;
    if (!raw || typeof raw !== 'object') return null;
    const r = raw as Record<string, unknown>;
    return {
      version: typeof r.version === 'string' ? r.version : undefined,
      entry: typeof r.entry === 'string' ? r.entry : undefined,
    };
  } catch {
    return null;
  }
}

/** The version the `current` pointer names (its release.json's, else the folder name), or null. */
export async function currentRelease(stateDir: string): Promise<{ version: string; dir: string } | null> {
  try {
    const target = await readlink(currentLink(stateDir));
    const dir = path.resolve(stateDir, target);
    const manifest = await readManifest(dir);
    return { version: manifest?.version ?? path.basename(dir), dir };
  } catch {
    return null;
  }
}

/** An install failure (the caller maps it to other). */
export class InstallError extends Error {
  override name = 'InstallError';
}

/**
 * Unpacks the bundle `file` as release `version` into `<stateDir>/releases/<version>` and switches
 * `<stateDir>/current` to it atomically. InstallError when the archive cannot be read or its release.json
 * names another version; nothing is switched then.
 */
export async function installBundle(
  stateDir: string,
  version: string,
  file: string,
): Promise<ReleaseManifest> {
  const root = releasesDir(stateDir);
  const work = path.join(root, `.unpack-${version}-${process.pid}-${Date.now()}`);
  await mkdir(work, { recursive: true, mode: 0o700 });
  try {
    try {
      await tar.x({ file, cwd: work, strict: true, preservePaths: false });
    } catch (err) {
      throw new InstallError(`The bundle could not be unpacked: ${(err as Error).message}`);
    }
    const manifest = (await readManifest(work)) ?? {};
    if (manifest.version !== undefined && manifest.version !== version) {
      throw new InstallError(`The bundle is release ${manifest.version}, not ${version}`);
    }
    if (manifest.entry !== undefined) {
      const entry = path.resolve(work, manifest.entry);
      if (!entry.startsWith(work + path.sep)) throw new InstallError('release.json: entry leaves the bundle');
    }
    const target = path.join(root, version);
    await rm(target, { recursive: true, force: true });
    await rename(work, target);
    const temp = path.join(stateDir, `.current-${process.pid}-${Date.now()}`);
    await symlink(path.relative(stateDir, target), temp);
    await rename(temp, currentLink(stateDir));
    return manifest;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

/**
 * Starts a detached copy of this agent (same Node options, arguments after the script, environment), running
 * `script` (default: the same script), then asks this process to stop cleanly (SIGTERM).
 */
export function restartInto(script: string | null): void {
  const args = [...process.execArgv, script ?? process.argv[1]!, ...process.argv.slice(2)];
  const child = spawn(process.execPath, args, { detached: true, stdio: 'inherit', env: process.env });
  child.unref();
  process.kill(process.pid, 'SIGTERM');
}

/** Runs a program; its stdout, or null when it cannot run or fails. */
function run(cmd: string, args: string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(cmd, args, { timeout: 10_000, maxBuffer: 4 * 1024 * 1024 }, (err, stdout) =>
      resolve(err ? null : stdout),
    );
  });
}

/**
 * A component check from the local Docker engine: the component's images (inference-engine images for the
 * stream engine, companion images for the companion service), newest first as Docker lists them; running
 * when a container runs one; restart_needed when a running container's tag is not the newest local tag of its
 * repository. No update channel is known for these images here: latest is the newest local one.
 */
export async function dockerComponentCheck(
  component: ComponentCheck['component'],
  runner: (cmd: string, args: string[]) => Promise<string | null> = run,
): Promise<ComponentCheck> {
  const kind = component === 'stream-engine' ? 'inference-engine' : 'companion';
  const images = await runner('docker', ['image', 'ls', '--format', '{{.Repository}}:{{.Tag}}']);
  if (images === null) {
    return {
      component,
      installed: null,
      latest: null,
      update_available: false,
      running: false,
      restart_needed: false,
      detail: 'Docker is not available on this device.',
    };
  }
  const tags = images
    .split('\n')
    .map((l) => l.trim())
    .filter((t) => t && !t.includes('<none>') && imageKind({ RepoTags: [t] }) === kind);
  const repoOf = (t: string) => t.slice(0, t.lastIndexOf(':'));
  const newestOf = new Map<string, string>();
  for (const t of tags) if (!newestOf.has(repoOf(t))) newestOf.set(repoOf(t), t);
  const runningImages = ((await runner('docker', ['ps', '--format', '{{.Image}}'])) ?? '')
    .split('\n')
    .map((l) => l.trim())
    .filter((t) => t && newestOf.has(repoOf(t.includes(':') ? t : `${t}:latest`)));
  const stale = runningImages.filter((t) => newestOf.get(repoOf(t)) !== t);
  const installed = tags[0] ?? null;
  return {
    component,
    installed,
    latest: installed,
    update_available: false,
    running: runningImages.length > 0,
    restart_needed: stale.length > 0,
    detail:
      installed === null
        ? 'Not installed on this device.'
        : stale.length > 0
          ? `Runs ${stale[0]} while a newer image is installed.`
          : `${tags.length} image(s) installed; no update channel is configured.`,
  };
}
