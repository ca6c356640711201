/**
 * Exclusive lock on a data directory: two servers must never open one embedded PostgreSQL cluster.
 * The lock file `server.lock` holds the owner's pid; a lock whose pid is dead is stale and taken over.
 */
import { randomUUID } from 'node:crypto';
import { promises as fs, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';

/** A held lock; `release()` removes the file if it is still ours. */
export interface DataDirLock {
  file: string;
  release(): Promise<void>;
}

/** Thrown when another live process holds the lock. */
export class DataDirLockedError extends Error {
  constructor(
    readonly dataDir: string,
    readonly pid: number,
  ) {
    super(
      `Data directory ${dataDir} is in use by another server (pid ${pid}). ` +
        'Stop that server or start this one with another DATA_DIR.',
    );
    this.name = 'DataDirLockedError';
  }
}

/** True when a process with this pid exists (EPERM still means it exists). */
export function isProcessAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Takes the lock on `dataDir` (created if missing).
 * @throws DataDirLockedError when a live process (including this one) holds it.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  await fs.mkdir(dataDir, { recursive: true });
  const file = path.join(dataDir, 'server.lock');
  const content = `${process.pid}\n${randomUUID()}\n`;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, content, { flag: 'wx', mode: 0o644 });
      // The process may exit before release() runs (a signal nobody handles, process.exit elsewhere).
      const releaseSync = () => {
        try {
          if (readFileSync(file, 'utf8') === content) rmSync(file, { force: true });
        } catch {
          // already gone
        }
      };
      process.on('exit', releaseSync);
      return {
        file,
        async release() {
          process.off('exit', releaseSync);
          releaseSync();
        },
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const existing = await fs.readFile(file, 'utf8').catch(() => '');
      const pid = Number(existing.split('\n')[0]);
      if (isProcessAlive(pid)) throw new DataDirLockedError(dataDir, pid);
      // Stale lock (its server died without releasing it): take it over.
      await fs.rm(file, { force: true });
    }
  }
  throw new Error(`Could not take the lock ${file}`);
}
