/**
 * The parts of the alarm delivery bench (alarmDelivery.ts) that are not the measure: the server's child
 * process (`--role server <dataDir> <port>`: startServer with embedded PostgreSQL, the bench user, a device and
 * its token, reported over IPC), the webhook receiver (records each request's arrival time, Idempotency-Key,
 * the event it carries and whether its signature verifies; answers 200 or holds the request unanswered), and
 * small REST helpers.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { fileURLToPath } from 'node:url';
import {
  IDEMPOTENCY_HEADER,
  SIGNATURE_HEADER,
  TIMESTAMP_HEADER,
  verifyWebhook,
} from '../../src/server/alarmChannels/signing';

/** Longest wait of one step, ms. */
export const WAIT_MS = 30_000;
export const USER = { email: 'alarm-bench@edge.local', password: 'alarm-bench-2026' };
export const DEVICE_LABEL = 'Alarm bench box';

export type ChildMessage =
  | { type: 'server-ready'; url: string; port: number; deviceId: string; deviceToken: string }
  | { type: 'error'; message: string };

// ---------------------------------------------------------------------------------------------------------
// Child: `--role server <dataDir> <port>`.

async function runServerRole(): Promise<void> {
  const [dataDir, portArg] = process.argv.slice(process.argv.indexOf('--role') + 2);
  const { startServer } = await import('../../src/server/index');
  let server: Awaited<ReturnType<typeof startServer>> | null = null;
  // After a SIGKILL the previous PostgreSQL may still be stopping: try again for a while.
  for (let attempt = 0; !server; attempt++) {
    try {
      server = await startServer({
        port: Number(portArg),
        host: '127.0.0.1',
        dataDir,
        staticDir: null,
        logLevel: 'error',
        embeddedPgNoSync: true,
      });
    } catch (err) {
      if (attempt > 80) throw err;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const user = await server.seed.ensureUser(USER);
  const device = await server.seed.ensureDevice({ ownerId: user.id, label: DEVICE_LABEL, chipsetId: '0' });
  const deviceToken = await server.seed.issueDeviceToken(device.id);
  const s = server;
  process.on('message', (m: { type: string }) => {
    if (m.type === 'stop') void s.close().then(() => process.exit(0));
  });
  process.on('disconnect', () => void s.close().then(() => process.exit(0)));
  process.send!({
    type: 'server-ready',
    url: server.url,
    port: server.port,
    deviceId: device.device_id,
    deviceToken,
  });
}

// ---------------------------------------------------------------------------------------------------------
// The bench side: the child server, waits, the webhook receiver, REST calls.

export function spawnServer(dataDir: string, port: number): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ['--role', 'server', dataDir, String(port)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
    env: { ...process.env, ALLOW_PRIVATE_URLS: '1' }, // the webhook receiver is on 127.0.0.1 (SSRF guard)
  });
}

export function ready(child: ChildProcess): Promise<Extract<ChildMessage, { type: 'server-ready' }>> {
  return new Promise((resolve, reject) => {
    child.on('message', (m: ChildMessage) => {
      if (m.type === 'error') reject(new Error(m.message));
      if (m.type === 'server-ready') resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready`)));
  });
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
  if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

/** Resolves when `check` is true (looked at every 20 ms), or false after `ms`. */
export async function until(check: () => boolean, ms = WAIT_MS): Promise<boolean> {
  const end = performance.now() + ms;
  while (!check()) {
    if (performance.now() > end) return false;
    await new Promise((r) => setTimeout(r, 20));
  }
  return true;
}

export interface Received {
  at: number;
  key: string;
  eventId: string;
  eventAt: string;
  signed: boolean;
}

/** A webhook receiver that records every request (arrival time, key, signature check) and answers 200. */
export function receiver(secret: () => string) {
  const got: Received[] = [];
  const held: ServerResponse[] = [];
  /** The receiver answers while fewer than `answerUntil` requests have arrived, and holds the later ones. */
  const state = { answerUntil: Number.POSITIVE_INFINITY };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      const at = performance.now();
      let eventId = '';
      let eventAt = '';
      try {
        const p = JSON.parse(body) as { event?: { id?: string; at?: string } };
        eventId = p.event?.id ?? '';
        eventAt = p.event?.at ?? '';
      } catch {
        // counted as unsigned/unknown below
      }
      const signed = verifyWebhook(
        secret(),
        {
          signature: req.headers[SIGNATURE_HEADER] as string | undefined,
          timestamp: req.headers[TIMESTAMP_HEADER] as string | undefined,
        },
        body,
      );
      got.push({ at, key: String(req.headers[IDEMPOTENCY_HEADER] ?? ''), eventId, eventAt, signed });
      if (got.length > state.answerUntil) held.push(res);
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return { server, got, held, state };
}

export async function api<T>(
  url: string,
  token: string,
  method: string,
  p: string,
  body?: unknown,
): Promise<T> {
  const res = await fetch(`${url}/api/${p}`, {
    method,
    headers: {
      Authorization: `Token ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`${method} ${p}: HTTP ${res.status} ${text}`);
  return JSON.parse(text) as T;
}

export async function login(url: string): Promise<string> {
  const res = await fetch(`${url}/api/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(USER),
  });
  return ((await res.json()) as { token: string }).token;
}

if (process.argv.includes('--role')) {
  runServerRole().catch((err: unknown) => {
    process.send?.({
      type: 'error',
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    process.exit(1);
  });
}
