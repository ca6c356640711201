/**
 * A bench's own server (the benches that need no browser): embedded PostgreSQL in a fresh temp data dir, no
 * console files, errors-only log, no fsync. `run` gets the server and its data dir; the server is closed and the
 * data dir removed afterwards, whatever `run` does.
 */
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { removeDataDir } from '../../src/server/db/embedded';
import { startServer, type RunningServer } from '../../src/server/index';
import type { ServerOptions } from '../../src/server/config';

export async function withOwnServer<T>(
  name: string,
  options: ServerOptions,
  run: (server: RunningServer, dataDir: string) => Promise<T>,
): Promise<T> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `edge-console-bench-${name}-`));
  const server = await startServer({
    port: 0,
    dataDir,
    staticDir: null,
    logLevel: 'error',
    embeddedPgNoSync: true,
    ...options,
  });
  try {
    return await run(server, dataDir);
  } finally {
    await server.close();
    removeDataDir(dataDir);
  }
}
