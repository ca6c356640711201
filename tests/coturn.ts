/**
 * A throwaway TURN server for the tests (issue 15 "Relayed WebRTC"): Debian's coturn (`turnserver`, installed
 * by .ci/run) started as a plain child process, no daemon, no configuration file: UDP on 127.0.0.1 at a free
 * port, TURN REST API credentials (`use-auth-secret` with a random `static-auth-secret`), no TLS/DTLS, no CLI,
 * and loopback peers allowed (coturn refuses them by default; here both ends live on this machine). Its
 * verbose log goes to `<dir>/turnserver.log`, where every successful allocation is logged
 * ("ALLOCATE processed, success").
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';
import { openSync, readFileSync } from 'node:fs';
import path from 'node:path';

export interface TestTurnServer {
  /** e.g. 'turn:127.0.0.1:40123?transport=udp' (the server's TURN_URLS). */
  url: string;
  /** The shared secret (the server's TURN_SECRET). */
  secret: string;
  /** coturn's log file. */
  log: string;
  /** Successful allocations logged so far. */
  allocations(): number;
  /** SIGTERM (SIGKILL after 5 s); resolves when it has exited. */
  stop(): Promise<void>;
}

/** A free UDP port on 127.0.0.1. */
export function freeUdpPort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createSocket('udp4');
    s.once('error', reject);
    s.bind(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/**
 * Starts `turnserver` with its database and log in `dir`; resolves once it is listening. Rejects when it
 * cannot be started (coturn missing) or exits, or has not started within 15 s, with its log in the message.
 */
export async function startTurnServer(dir: string): Promise<TestTurnServer> {
  const log = path.join(dir, 'turnserver.log');
  const port = await freeUdpPort();
  const secret = randomBytes(24).toString('hex');
  const proc = spawn(
    'turnserver',
    [
      '-n', // no configuration file: everything is on this command line
      '--listening-ip=127.0.0.1',
      '--relay-ip=127.0.0.1',
      `--listening-port=${port}`,
      '--use-auth-secret',
      `--static-auth-secret=${secret}`,
      '--realm=edge.local',
      '--no-tls',
      '--no-dtls',
      '--allow-loopback-peers',
      '--no-cli',
      `--db=${path.join(dir, 'turndb')}`,
      '--log-file=stdout',
      '--simple-log',
      '--verbose',
    ],
    { stdio: ['ignore', openSync(log, 'w'), 'ignore'] },
  );
  let failed: Error | null = null;
  proc.once(
    'error',
    (e) => (failed = new Error(`turnserver did not start (is coturn installed?): ${e.message}`)),
  );
  const end = Date.now() + 15_000;
  while (!/Total General servers/.test(readFileSync(log, 'utf8'))) {
    if (failed) throw failed;
    if (proc.exitCode !== null || Date.now() > end) {
      proc.kill('SIGKILL');
      throw new Error(`turnserver did not start:\n${readFileSync(log, 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url: `turn:127.0.0.1:${port}?transport=udp`,
    secret,
    log,
    allocations: () => (readFileSync(log, 'utf8').match(/ALLOCATE processed, success/g) ?? []).length,
    async stop() {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      const exited = new Promise<void>((r) => proc.once('exit', () => r()));
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}
