/**
 * Faults of the embedded PostgreSQL for tests (issue 15 "PostgreSQL killed and restarted"): where its postmaster
 * is, and a way to keep it from coming back for a while. Used by tests/unit/server/databaseOutage.test.ts and
 * tests/e2e/databaseOutage.spec.ts.
 */
import { readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

/** postmaster.pid: line 1 the pid, line 4 the port. */
export function postmaster(dataDir: string): { pid: number; port: number } {
  const lines = readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n');
  return { pid: Number(lines[0]), port: Number(lines[3]) };
}

/** Binds 127.0.0.1:port as soon as the dead postmaster lets go of it; drops every connection. */
export async function holdPort(port: number, ms: number): Promise<net.Server> {
  const end = Date.now() + ms;
  for (;;) {
    const srv = net.createServer((socket) => socket.destroy());
    try {
      await new Promise<void>((resolve, reject) => {
        srv.once('error', reject);
        srv.listen(port, '127.0.0.1', () => resolve());
      });
      return srv;
    } catch (err) {
      if (Date.now() > end) throw err;
      await new Promise((r) => setTimeout(r, 5));
    }
  }
}
