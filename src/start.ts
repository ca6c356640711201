/**
 * `npm start`: builds the console when it is missing or older than its sources, then runs the whole
 * system — server, embedded PostgreSQL, three simulated agents (one Jetson, two x86) — and seeds a demo
 * account that owns them. Honours PORT (8080), HOST (127.0.0.1), DATA_DIR (./data), DATABASE_URL, DEMO_EMAIL,
 * DEMO_PASSWORD. SEED_EXTRA_USERS (JSON list of UserSpec) seeds more accounts and LOGIN_RATE_LIMIT_PER_MIN
 * raises the sign-in rate limit, BUILD_CONSOLE=0 skips the console build, and REMOVE_DATA_DIR_ON_STOP=1 removes
 * DATA_DIR (with its relocated cluster) once everything has stopped, for tests.
 *
 * Two processes (README "Stopping"):
 *   - this one, the supervisor (`npm start` runs `exec node --import tsx src/start.ts`, so npm's own signal
 *     forwarding reaches it): it starts the stack process in a process group of its own and stops it on
 *     SIGINT, SIGTERM or SIGHUP, or when its parent (npm, and npm's parent) goes away. When the stack process
 *     has exited, whatever is left in its group (PostgreSQL, agents — after a crash) is signalled too.
 *   - the stack process (EDGE_CONSOLE_ROLE=stack): server, embedded PostgreSQL and agents, all in its group.
 *     It stops them in order on SIGINT/SIGTERM/SIGHUP and when the supervisor dies (it watches its parent).
 * Terminal signals (Ctrl-C) reach the supervisor only; the stack is stopped in order, not all at once.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isLoopbackHost } from './server/config';
// Types only: the supervisor does not load the server (it only starts and stops the stack process).
import type { UserSpec } from './stack';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const ROLE_ENV = 'EDGE_CONSOLE_ROLE';
/** How long the stack may take to stop in order before its whole group is killed. */
const STOP_GRACE_MS = 15_000;
/** How often a process checks that its parent (and the launcher chain) is still there. */
const PARENT_POLL_MS = 250;
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function newestMtime(p: string): number {
  const s = statSync(p);
  if (!s.isDirectory()) return s.mtimeMs;
  let newest = s.mtimeMs;
  for (const name of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, name)));
  return newest;
}

function buildConsoleIfStale(): void {
  const built = path.join(ROOT, 'dist/index.html');
  const sources = ['index.html', 'src/console', 'src/protocol', 'machines', 'vite.config.ts'].map((p) =>
    path.join(ROOT, p),
  );
  const stale =
    !existsSync(built) || sources.some((p) => existsSync(p) && newestMtime(p) > statSync(built).mtimeMs);
  if (!stale) return;
  console.log('Building the console (vite build)…');
  const r = spawnSync(process.execPath, [path.join(ROOT, 'node_modules/vite/bin/vite.js'), 'build'], {
    cwd: ROOT,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  if (r.status !== 0) throw new Error('vite build failed');
}

/** Linux: the parent pid of `pid` from /proc, or null when it cannot be read (gone, other OS). */
function parentOf(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // "pid (comm) state ppid …": comm may contain spaces and parentheses; the last ')' ends it.
    const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
    return Number.isInteger(ppid) ? ppid : null;
  } catch {
    return null;
  }
}

function commOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, 'utf8').trim();
  } catch {
    return '';
  }
}

/** True when this process started with SIGHUP ignored (`nohup npm start`): then it outlives its terminal. */
function startedUnderNohup(): boolean {
  try {
    const line = readFileSync('/proc/self/status', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('SigIgn:'));
    return line ? (BigInt(`0x${line.split(/\s+/)[1]}`) & 1n) === 1n : false;
  } catch {
    return false;
  }
}

/**
 * Calls `onGone` once when the process that started us exits. Under npm (`npm_lifecycle_event` set) the
 * launcher chain is watched too — npm, a shell between npm and us, and npm's own parent — so that killing the
 * caller of `npm start` (even with SIGKILL, which npm cannot forward) stops the system. Under nohup only the
 * direct parent is watched.
 */
function watchLauncher(onGone: (why: string) => void): void {
  const chain: Array<{ pid: number; parent: number }> = [];
  const self = { pid: process.pid, parent: process.ppid };
  chain.push(self);
  if (process.env.npm_lifecycle_event && !startedUnderNohup()) {
    let pid = process.ppid;
    for (let depth = 0; depth < 3 && pid > 1; depth++) {
      const parent = parentOf(pid);
      if (parent === null) break;
      chain.push({ pid, parent });
      // Stop after npm itself: its parent is the caller of `npm start`.
      if (!/^(sh|dash|bash|zsh)$/.test(commOf(pid))) break;
      pid = parent;
    }
  }
  let fired = false;
  const timer = setInterval(() => {
    if (fired) return;
    for (const link of chain) {
      const parent = link.pid === process.pid ? process.ppid : parentOf(link.pid);
      if (parent !== link.parent) {
        fired = true;
        clearInterval(timer);
        onGone(`process ${link.parent} (parent of ${link.pid}) exited`);
        return;
      }
    }
  }, PARENT_POLL_MS);
  timer.unref();
}

/** Sends `signal` to a process group; false when the group is empty. */
function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The supervisor: starts the stack process in its own group and makes sure all of that group stops. */
async function supervise(): Promise<void> {
  // BUILD_CONSOLE=0 (tests of the process tree) serves whatever dist/ holds.
  if (process.env.BUILD_CONSOLE !== '0') buildConsoleIfStale();
  const child: ChildProcess = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), ...process.argv.slice(2)],
    {
      cwd: process.cwd(),
      env: { ...process.env, [ROLE_ENV]: 'stack' },
      // Its own session and process group: terminal signals reach this process only, and the whole group
      // (stack, PostgreSQL, agents) can be signalled at once when the stack process is gone.
      detached: true,
      stdio: ['ignore', 'inherit', 'inherit'],
    },
  );
  const pgid = child.pid!;
  let stopRequested = false;
  let killTimer: NodeJS.Timeout | undefined;
  const requestStop = (why: string) => {
    if (stopRequested) return;
    stopRequested = true;
    console.log(`\n${why}: stopping agents, server and PostgreSQL…`);
    child.kill('SIGTERM');
    killTimer = setTimeout(() => {
      console.error(`still running after ${STOP_GRACE_MS / 1000} s: killing process group ${pgid}`);
      signalGroup(pgid, 'SIGKILL');
    }, STOP_GRACE_MS);
  };
  for (const signal of STOP_SIGNALS) process.on(signal, () => requestStop(signal));
  watchLauncher((why) => requestStop(why));

  const { code, signal } = await new Promise<{ code: number | null; signal: NodeJS.Signals | null }>(
    (resolve) => child.once('exit', (c, s) => resolve({ code: c, signal: s })),
  );
  // Whatever the stack process left in its group (after a crash or SIGKILL: PostgreSQL, agents) stops too:
  // SIGINT is PostgreSQL's fast shutdown and stops an agent; SIGKILL after 3 s.
  if (signalGroup(pgid, 'SIGINT')) {
    for (let i = 0; i < 30 && signalGroup(pgid, 0); i++) await new Promise((r) => setTimeout(r, 100));
    signalGroup(pgid, 'SIGKILL');
  }
  clearTimeout(killTimer);
  // A throw-away stack (the end-to-end suite) leaves no data directory or relocated cluster behind.
  if (stopRequested && process.env.REMOVE_DATA_DIR_ON_STOP === '1' && process.env.DATA_DIR) {
    const { removeDataDir } = await import('./server/db/embedded');
    removeDataDir(process.env.DATA_DIR);
  }
  if (stopRequested) process.exit(0);
  if (signal) console.error(`stack process killed by ${signal}`);
  process.exit(code ?? 1);
}

/** The stack process: server, PostgreSQL, agents; stops them in order. */
async function runStack(): Promise<void> {
  let stopRequested: string | null = null;
  let stopNow: ((why: string) => void) | null = null;
  const requestStop = (why: string) => {
    stopRequested ??= why;
    stopNow?.(why);
  };
  // Installed before anything starts: a signal during start-up still stops what has started.
  for (const signal of STOP_SIGNALS) process.on(signal, () => requestStop(signal));
  watchLauncher(requestStop);

  const { DEMO_DEVICES, startStack } = await import('./stack');
  const port = Number(process.env.PORT ?? 8080);
  const host = process.env.HOST?.trim() || '127.0.0.1';
  const loopback = isLoopbackHost(host);
  // Beyond loopback the demo account is not published (config.publishDemoAccount), and the well-known default
  // password is not used: DEMO_PASSWORD, or a random one shown on this terminal only.
  const demoPassword =
    process.env.DEMO_PASSWORD ?? (loopback ? 'demo-edge-2026' : randomBytes(12).toString('base64url'));
  const demo: UserSpec = {
    email: process.env.DEMO_EMAIL ?? 'demo@edge.local',
    password: demoPassword,
    username: 'Demo Operator',
    roles: ['admin', 'user'],
    devices: DEMO_DEVICES,
  };
  const extraUsers = process.env.SEED_EXTRA_USERS
    ? (JSON.parse(process.env.SEED_EXTRA_USERS) as UserSpec[])
    : [];
  const stack = await startStack({
    port,
    host,
    dataDir: process.env.DATA_DIR ?? path.join(ROOT, 'data'),
    databaseUrl: process.env.DATABASE_URL,
    demo,
    extraUsers,
    logLevel: process.env.LOG_LEVEL ?? 'warn',
    loginRateLimitPerMin: process.env.LOGIN_RATE_LIMIT_PER_MIN
      ? Number(process.env.LOGIN_RATE_LIMIT_PER_MIN)
      : undefined,
    onAgentLine: process.env.AGENT_LOGS ? (label, line) => console.log(`[${label}] ${line}`) : undefined,
  });
  let stopping = false;
  stopNow = (why: string) => {
    if (stopping) return;
    stopping = true;
    if (why !== 'SIGTERM') console.log(`${why}: stopping agents, server and PostgreSQL…`);
    stack.close().then(
      () => process.exit(0),
      (err: unknown) => {
        console.error(err);
        process.exit(1);
      },
    );
  };
  if (stopRequested) return stopNow(stopRequested);

  console.log('');
  console.log(`Edge AI console is running at ${stack.url}`);
  if (loopback) {
    console.log(`Demo account: ${demo.email} / ${demo.password}`);
  } else {
    console.log(`Listening on ${host} (beyond loopback): the login page does not show the demo account.`);
    console.log(
      `Demo account (admin): ${demo.email} / ${process.env.DEMO_PASSWORD ? '(DEMO_PASSWORD)' : demo.password}`,
    );
  }
  console.log(`Simulated devices: ${stack.agents.map((a) => `${a.label} (${a.deviceId})`).join(', ')}`);
  console.log('Press Ctrl-C to stop.');
}

const role = process.env[ROLE_ENV] === 'stack' ? runStack : supervise;
role().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
