/**
 * The software part (src/agent/software/): the sim's version check, knobs (free disk → notEnoughStorage before
 * any download, fail_download → downloadError), simulated progress, install and restart (off the air, back
 * with the new version, kept across a restart of the part); the host's real download of a small gzip tar
 * bundle into a temp state directory, sha256 check (a mismatch → downloadError, nothing switched), unpack,
 * the atomic `current` pointer, the restart into the release's entry (a harmless stand-in), and the refusals.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as tar from 'tar';
import { afterAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import {
  createDeviceSoftware,
  SIM_KNOBS_FILE,
  type DeviceSoftwareOptions,
} from '../../../src/agent/software';
import { dockerComponentCheck } from '../../../src/agent/software/host';
import type { AgentRelease, UpdateStatus } from '../../../src/protocol/software';

const dirs: string[] = [];
const tmp = (prefix = 'software-test-') => {
  const d = mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A real gzip tar bundle of `files`. */
async function bundle(files: Record<string, string>): Promise<Buffer> {
  const dir = tmp('bundle-src-');
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  const chunks: Buffer[] = [];
  for await (const c of tar.create(
    { gzip: true, cwd: dir, portable: true },
    Object.keys(files),
  ) as AsyncIterable<Buffer>)
    chunks.push(c);
  return Buffer.concat(chunks);
}

const release = (version: string, bytes: Buffer, sha256?: string): AgentRelease => ({
  id: `r-${version}`,
  version,
  file_name: `edge-agent-${version}.tar.gz`,
  size: bytes.length,
  sha256: sha256 ?? createHash('sha256').update(bytes).digest('hex'),
  notes: 'Better.',
  created_at: new Date(0).toISOString(),
});

/** A stand-in server: the releases and their bundles, answering as the real routes do. */
function fakeServer(releases: Array<{ release: AgentRelease; bytes: Buffer }>) {
  const seen: string[] = [];
  const fetchFn = (async (input: string | URL, init?: RequestInit) => {
    const url = new URL(String(input));
    seen.push(`${url.pathname} ${(init?.headers as Record<string, string>)?.Authorization ?? ''}`);
    if (url.pathname === '/api/agent-releases/latest')
      return Response.json({ release: releases[0]?.release ?? null });
    if (url.pathname === '/api/agent-releases')
      return Response.json({ releases: releases.map((r) => r.release) });
    const m = /^\/api\/agent-releases\/([^/]+)\/bundle$/.exec(url.pathname);
    const found = m && releases.find((r) => r.release.version === decodeURIComponent(m[1]!));
    if (!found) return Response.json({ code: 'Not_found', message: 'no' }, { status: 404 });
    return new Response(new Uint8Array(found.bytes), {
      headers: { 'content-length': String(found.bytes.length) },
    });
  }) as typeof fetch;
  return { fetchFn, seen };
}

function part(mode: 'host' | 'sim', options: DeviceSoftwareOptions = {}, stateDir = tmp()) {
  const offline: number[] = [];
  const deps: AgentPartDeps = {
    mode,
    backend: { kind: 'x86' } as Backend,
    deviceId: 'dev-1',
    label: 'Box',
    stateDir,
    log: silentLogger,
    broadcast: () => undefined,
    lifecycle: { goOffline: async (ms) => void offline.push(ms) },
  };
  const sw = createDeviceSoftware(deps, {
    env: {},
    baseVersion: '0.1.0',
    server: { url: 'http://server.test', token: 'dev-token' },
    ...options,
  });
  return { sw, offline, stateDir };
}

const codeOf = (p: Promise<unknown>) =>
  p.then(
    () => 'resolved',
    (e: { code?: string }) => e.code,
  );

describe('sim software', () => {
  it('compares the running version with the newest release', async () => {
    const bytes = Buffer.from('x');
    const { fetchFn, seen } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const { sw } = part('sim', { fetch: fetchFn });
    const check = await sw.checkVersion();
    expect(check).toMatchObject({ current: '0.1.0', update_available: true, installed: null });
    expect(check.latest?.version).toBe('0.2.0');
    expect(seen[0]).toBe('/api/agent-releases/latest Token dev-token');
  });

  it('refuses with notEnoughStorage under 1 GB free, before any download', async () => {
    const bytes = Buffer.from('x');
    const { fetchFn, seen } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const { sw, stateDir } = part('sim', { fetch: fetchFn });
    writeFileSync(path.join(stateDir, SIM_KNOBS_FILE), JSON.stringify({ free_bytes: 512 * 1024 ** 2 }));
    const steps: UpdateStatus[] = [];
    expect(await codeOf(sw.update(undefined, (s) => steps.push(s)))).toBe('notEnoughStorage');
    expect(steps.some((s) => s.state === 'downloading')).toBe(false);
    expect(sw.status()).toMatchObject({ state: 'failed', error: { code: 'notEnoughStorage' } });
    expect(seen.some((s) => s.includes('/bundle'))).toBe(false);
  });

  it('reports downloadError when the simulated download breaks off', async () => {
    const bytes = Buffer.from('x');
    const { fetchFn } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const { sw, stateDir } = part('sim', { fetch: fetchFn });
    writeFileSync(
      path.join(stateDir, SIM_KNOBS_FILE),
      JSON.stringify({ fail_download: true, download_ms: 40 }),
    );
    expect(await codeOf(sw.update(undefined))).toBe('downloadError');
  });

  it('downloads with progress, installs, restarts off the air and comes back with the new version', async () => {
    const bytes = Buffer.from('x');
    const { fetchFn } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const { sw, offline, stateDir } = part('sim', { fetch: fetchFn });
    writeFileSync(path.join(stateDir, SIM_KNOBS_FILE), JSON.stringify({ download_ms: 80 }));
    const steps: UpdateStatus[] = [];
    expect(await codeOf(sw.restart())).toBe('other'); // nothing installed yet
    await expect(sw.update(undefined, (s) => steps.push(s))).resolves.toEqual({ version: '0.2.0' });
    const downloads = steps.filter((s) => s.state === 'downloading').map((s) => s.bytes_done);
    expect(downloads.length).toBeGreaterThan(4);
    expect([...downloads].sort((a, b) => a - b)).toEqual(downloads);
    expect(steps.map((s) => s.state)).toEqual(
      expect.arrayContaining(['checking', 'verifying', 'installing', 'installed']),
    );
    expect(sw.currentVersion()).toBe('0.1.0'); // until the restart
    expect((await sw.checkVersion()).installed).toBe('0.2.0');
    const r = await sw.restart();
    expect(r).toMatchObject({ restarting: true, version: '0.2.0' });
    while (offline.length === 0) await new Promise((res) => setTimeout(res, 20));
    expect(offline[0]).toBe(r.offline_ms);
    expect(sw.currentVersion()).toBe('0.2.0');
    expect((await sw.checkVersion()).update_available).toBe(false);
    // A restarted agent (a new part on the same state directory) runs the new version.
    const again = part('sim', { fetch: fetchFn }, stateDir).sw;
    expect((await again.checkVersion()).current).toBe('0.2.0');
    await sw.close();
  });

  it('refuses a second update while one runs, and an unknown version', async () => {
    const bytes = Buffer.from('x');
    const { fetchFn } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const { sw, stateDir } = part('sim', { fetch: fetchFn });
    writeFileSync(path.join(stateDir, SIM_KNOBS_FILE), JSON.stringify({ download_ms: 200 }));
    const first = sw.update(undefined);
    await new Promise((r) => setTimeout(r, 20));
    expect(await codeOf(sw.update(undefined))).toBe('other');
    await first;
    const { sw: other } = part('sim', { fetch: fetchFn });
    expect(await codeOf(other.update('9.9.9'))).toBe('other');
  });

  it('answers other when it has no server', async () => {
    const { sw } = part('sim', { server: undefined });
    expect(await codeOf(sw.checkVersion())).toBe('other');
  });

  it('checks the stream engine and the companion service', async () => {
    const { sw } = part('sim');
    expect(await sw.checkComponent('stream-engine')).toMatchObject({
      component: 'stream-engine',
      running: true,
    });
    expect(await sw.checkComponent('companion-restart')).toMatchObject({
      component: 'companion-service',
      restart_needed: false,
    });
  });
});

describe('host software (real download, unpack and pointer in a temp state directory)', () => {
  it('installs a real bundle and switches current, then restarts into its entry', async () => {
    const bytes = await bundle({
      'release.json': JSON.stringify({ version: '0.2.0', entry: 'bin/agent.mjs' }),
      'bin/agent.mjs': 'process.exit(0);\n',
    });
    const { fetchFn, seen } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const restarts: Array<string | null> = [];
    const { sw, stateDir } = part('host', {
      fetch: fetchFn,
      freeBytes: async () => 50 * 1024 ** 3,
      restartSelf: (script) => restarts.push(script),
    });
    const steps: UpdateStatus[] = [];
    await expect(sw.update('0.2.0', (s) => steps.push(s))).resolves.toEqual({ version: '0.2.0' });
    expect(seen.some((s) => s === '/api/agent-releases/0.2.0/bundle Token dev-token')).toBe(true);
    expect(steps.at(-1)).toMatchObject({
      state: 'installed',
      bytes_done: bytes.length,
      bytes_total: bytes.length,
    });
    expect(readlinkSync(path.join(stateDir, 'current'))).toBe(path.join('releases', '0.2.0'));
    expect(readFileSync(path.join(stateDir, 'current', 'bin', 'agent.mjs'), 'utf8')).toContain(
      'process.exit',
    );
    expect(existsSync(path.join(stateDir, 'releases', '.download-0.2.0.tar.gz'))).toBe(false);
    expect(sw.currentVersion()).toBe('0.1.0');
    await expect(sw.restart()).resolves.toMatchObject({
      restarting: true,
      version: '0.2.0',
      offline_ms: null,
    });
    while (restarts.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(restarts[0]).toBe(path.join(stateDir, 'current', 'bin', 'agent.mjs'));
    // The restarted agent reads its version from the pointer.
    const again = part('host', { fetch: fetchFn }, stateDir).sw;
    expect((await again.checkVersion()).current).toBe('0.2.0');
  });

  it('a sha256 mismatch is a downloadError and switches nothing', async () => {
    const bytes = await bundle({ 'release.json': JSON.stringify({ version: '0.3.0' }) });
    const { fetchFn } = fakeServer([{ release: release('0.3.0', bytes, 'a'.repeat(64)), bytes }]);
    const { sw, stateDir } = part('host', { fetch: fetchFn, freeBytes: async () => 50 * 1024 ** 3 });
    expect(await codeOf(sw.update(undefined))).toBe('downloadError');
    expect(existsSync(path.join(stateDir, 'current'))).toBe(false);
    expect(existsSync(path.join(stateDir, 'releases', '0.3.0'))).toBe(false);
    expect(sw.status().error?.message).toMatch(/does not match/);
  });

  it('refuses under 1 GB free before downloading, and a bundle naming another version', async () => {
    const bytes = await bundle({ 'release.json': JSON.stringify({ version: '0.9.0' }) });
    const { fetchFn, seen } = fakeServer([{ release: release('0.4.0', bytes), bytes }]);
    const low = part('host', { fetch: fetchFn, freeBytes: async () => 100 * 1024 ** 2 }).sw;
    expect(await codeOf(low.update(undefined))).toBe('notEnoughStorage');
    expect(seen.some((s) => s.includes('/bundle'))).toBe(false);
    const { sw, stateDir } = part('host', { fetch: fetchFn, freeBytes: async () => 50 * 1024 ** 3 });
    expect(await codeOf(sw.update(undefined))).toBe('other');
    expect(existsSync(path.join(stateDir, 'current'))).toBe(false);
  });

  it('a failed download (404) is a downloadError; the real free-disk check runs on this machine', async () => {
    const bytes = Buffer.from('not a bundle');
    const r = release('0.5.0', bytes);
    const fetchFn = (async (input: string | URL) =>
      String(input).endsWith('/latest')
        ? Response.json({ release: r })
        : new Response('gone', { status: 404 })) as typeof fetch;
    const { sw } = part('host', { fetch: fetchFn });
    // statfs of the temp dir: this machine has more than 1 GB free in its temp dir, or refuses with the code.
    expect(['downloadError', 'notEnoughStorage']).toContain(await codeOf(sw.update(undefined)));
  });

  it('reads components from the Docker CLI, and says so when Docker is missing', async () => {
    const runner = async (_cmd: string, args: string[]) =>
      args[0] === 'image'
        ? 'nvcr.io/nvidia/tritonserver:24.02-py3\nnvcr.io/nvidia/tritonserver:24.01-py3\nredis:7-alpine\n'
        : 'nvcr.io/nvidia/tritonserver:24.01-py3\n';
    const engine = await dockerComponentCheck('stream-engine', runner);
    expect(engine).toMatchObject({
      installed: 'nvcr.io/nvidia/tritonserver:24.02-py3',
      running: true,
      restart_needed: true,
    });
    const companion = await dockerComponentCheck('companion-service', runner);
    expect(companion).toMatchObject({ installed: 'redis:7-alpine', running: false, restart_needed: false });
    const none = await dockerComponentCheck('stream-engine', async () => null);
    expect(none.detail).toMatch(/Docker is not available/);
  });
});

describe('closing', () => {
  it('stops a simulated update at once with other', async () => {
    const bytes = Buffer.from('x');
    const { fetchFn } = fakeServer([{ release: release('0.2.0', bytes), bytes }]);
    const { sw, stateDir } = part('sim', { fetch: fetchFn });
    writeFileSync(path.join(stateDir, SIM_KNOBS_FILE), JSON.stringify({ download_ms: 60_000 }));
    const running = codeOf(sw.update(undefined));
    await new Promise((r) => setTimeout(r, 50));
    await sw.close();
    expect(await running).toBe('other');
  });
});
