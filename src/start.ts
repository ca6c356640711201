/**
 * `npm start`: builds the console when it is missing or older than its sources, then runs the whole
 * system — server, embedded PostgreSQL, three simulated agents (one Jetson, two x86) — and seeds a demo
 * account that owns them. Honours PORT (8080), DATA_DIR (./data), DATABASE_URL, DEMO_EMAIL, DEMO_PASSWORD.
 * SEED_EXTRA_USERS (JSON list of UserSpec) seeds more accounts and LOGIN_RATE_LIMIT_PER_MIN raises the
 * sign-in rate limit, for tests. Ctrl-C stops everything.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DEMO_DEVICES, startStack, type UserSpec } from './stack';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

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

async function main(): Promise<void> {
  buildConsoleIfStale();
  const port = Number(process.env.PORT ?? 8080);
  const demo: UserSpec = {
    email: process.env.DEMO_EMAIL ?? 'demo@edge.local',
    password: process.env.DEMO_PASSWORD ?? 'demo-edge-2026',
    username: 'Demo Operator',
    roles: ['admin', 'user'],
    devices: DEMO_DEVICES,
  };
  const extraUsers = process.env.SEED_EXTRA_USERS
    ? (JSON.parse(process.env.SEED_EXTRA_USERS) as UserSpec[])
    : [];
  const stack = await startStack({
    port,
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
  const url = `http://127.0.0.1:${stack.server.port}`;
  console.log('');
  console.log(`Edge AI console is running at ${url}`);
  console.log(`Demo account: ${demo.email} / ${demo.password}`);
  console.log(`Simulated devices: ${stack.agents.map((a) => `${a.label} (${a.deviceId})`).join(', ')}`);
  console.log('Press Ctrl-C to stop.');

  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`\n${signal}: stopping agents, server and PostgreSQL…`);
    await stack.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
