/**
 * Issue 7: every way of stopping `npm start` stops every process it started. The stack is started exactly as
 * a user does (`npm start` in the repository, its own DATA_DIR and port), every process below npm is recorded
 * once the console answers (supervisor, stack process with the server, PostgreSQL and its backends, the three
 * agents), then npm gets a signal — or npm's parent dies — and none of those processes may remain after a
 * few seconds. Linux only (/proc).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getFreePort } from '../../../src/server/db/embedded';
import { removeDataDir } from '../../../src/server/db/embedded';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
/** How long everything may take to stop. */
const STOP_WITHIN_MS = 8_000;

interface Proc {
  pid: number;
  ppid: number;
  start: string;
  state: string;
  cmd: string;
}

function readProc(pid: number): Proc | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
    return { pid, ppid: Number(rest[1]), state: rest[0]!, start: rest[19]!, cmd };
  } catch {
    return null;
  }
}

/** Every live process below `root` (children, grandchildren, …), root included. */
function tree(root: number): Proc[] {
  const all = readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => readProc(Number(d)))
    .filter((p): p is Proc => p !== null && p.state !== 'Z');
  const out: Proc[] = [];
  const queue = [root];
  while (queue.length) {
    const pid = queue.shift()!;
    const p = all.find((x) => x.pid === pid);
    if (!p) continue;
    out.push(p);
    for (const c of all) if (c.ppid === pid) queue.push(c.pid);
  }
  return out;
}

/** The recorded processes still alive (same pid and start time, not a zombie). */
function survivors(procs: Proc[]): Proc[] {
  return procs.filter((p) => {
    const now = readProc(p.pid);
    return now !== null && now.start === p.start && now.state !== 'Z';
  });
}

async function waitGone(procs: Proc[], ms: number): Promise<Proc[]> {
  const deadline = Date.now() + ms;
  let left = survivors(procs);
  while (left.length > 0 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    left = survivors(procs);
  }
  return left;
}

let dataDir: string;
const started: ChildProcess[] = [];

beforeAll(() => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'edge-console-lifecycle-'));
});
afterAll(() => {
  // A failed test must not leave its stack running: kill what is still there.
  for (const c of started) if (c.pid && c.exitCode === null) for (const p of tree(c.pid)) killQuietly(p.pid);
  removeDataDir(dataDir);
});

function killQuietly(pid: number) {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // gone
  }
}

/**
 * `npm start` as a user runs it, under a throwaway parent shell (`sh -c 'npm start; …'`) so that "the parent
 * dies" can be tested too. Resolves once the console answers, with npm's pid and every process below it.
 */
async function startLikeAUser(): Promise<{ launcher: ChildProcess; npmPid: number; procs: Proc[] }> {
  const port = await getFreePort();
  const launcher = spawn('sh', ['-c', 'npm start & echo "npm:$!"; wait'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      BUILD_CONSOLE: '0',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  started.push(launcher);
  let output = '';
  const npmPid = await new Promise<number>((resolve, reject) => {
    let pid = 0;
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const m = /npm:(\d+)/.exec(output);
      if (m) pid = Number(m[1]);
      if (pid && output.includes('Edge AI console is running at')) resolve(pid);
    };
    launcher.stdout!.on('data', onData);
    launcher.stderr!.on('data', onData);
    launcher.once('exit', (code) => reject(new Error(`npm start exited (${code}) before ready:\n${output}`)));
    setTimeout(() => reject(new Error(`npm start not ready after 90 s:\n${output}`)), 90_000);
  });
  const res = await fetch(`http://127.0.0.1:${port}/api/demo-account`);
  expect(res.status).toBe(200);
  const procs = tree(npmPid);
  // What `npm start` started, so the assertion below means something.
  expect(procs.filter((p) => p.cmd.includes('src/start.ts')).length).toBe(2); // supervisor + stack
  expect(procs.filter((p) => p.cmd.includes('src/agent/main.ts')).length).toBe(3);
  expect(procs.some((p) => /\/postgres -D /.test(p.cmd))).toBe(true);
  return { launcher, npmPid, procs };
}

const describeLinux =
  process.platform === 'linux' && existsSync('/proc/self/stat') ? describe : describe.skip;

describeLinux('stopping npm start stops every process it started', () => {
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    it(`${signal} to npm`, { timeout: 120_000 }, async () => {
      const { npmPid, procs } = await startLikeAUser();
      const t0 = Date.now();
      process.kill(npmPid, signal);
      const left = await waitGone(procs, STOP_WITHIN_MS);
      expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
      expect(Date.now() - t0).toBeLessThan(STOP_WITHIN_MS);
    });
  }

  it('npm killed (SIGKILL: it cannot forward anything)', { timeout: 120_000 }, async () => {
    const { npmPid, procs } = await startLikeAUser();
    process.kill(npmPid, 'SIGKILL');
    const left = await waitGone(procs, STOP_WITHIN_MS);
    expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
  });

  it("npm's parent dies (SIGKILL)", { timeout: 120_000 }, async () => {
    const { launcher, procs } = await startLikeAUser();
    process.kill(launcher.pid!, 'SIGKILL');
    const left = await waitGone(procs, STOP_WITHIN_MS);
    expect(left.map((p) => `${p.pid} ${p.cmd}`)).toEqual([]);
  });
});
