/** The data directory is locked: a second server refuses to open it; a stale lock is taken over. */
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { DataDirLockedError, startServer } from '../../../src/server/index';
import { api, login, startTestServer, type TestServer } from './helpers';

let first: TestServer | undefined;

afterAll(async () => {
  await first?.dispose();
});

it('refuses a second server on the same data directory with a clear error, and keeps the first running', async () => {
  first = await startTestServer();
  await first.seed.ensureUser({ email: 'keep@example.com', password: 'keep-pw-1' });
  const second = startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir: first.dataDir,
    staticDir: null,
    logLevel: 'silent',
    embeddedPgNoSync: true,
  });
  await expect(second).rejects.toBeInstanceOf(DataDirLockedError);
  await expect(second).rejects.toThrow(new RegExp(`in use by another server \\(pid ${process.pid}\\)`));
  await expect(login(first, 'keep@example.com', 'keep-pw-1')).resolves.toHaveProperty('token');
});

it('takes over a stale lock whose process is gone, keeping the data', async () => {
  const dataDir = first!.dataDir;
  await first!.close();
  // A pid that certainly belonged to a process that has exited.
  const deadPid = spawnSync(process.execPath, [
    '-e',
    'process.stdout.write(String(process.pid))',
  ]).stdout.toString();
  writeFileSync(path.join(dataDir, 'server.lock'), `${deadPid}\nstale\n`);
  const restarted = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    staticDir: null,
    logLevel: 'silent',
    embeddedPgNoSync: true,
  });
  try {
    expect(readFileSync(path.join(dataDir, 'server.lock'), 'utf8').split('\n')[0]).toBe(String(process.pid));
    await expect(login(restarted, 'keep@example.com', 'keep-pw-1')).resolves.toHaveProperty('token');
    expect((await api(restarted, 'GET', 'demo-account')).body).toEqual({ enabled: false });
  } finally {
    await restarted.close();
  }
});
