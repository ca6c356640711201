/** Test helpers: a real server with embedded PostgreSQL in a temp dir, and a small JSON client. */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import WebSocket from 'ws';
import { decodeJwt } from 'jose';
import { startServer, type RunningServer, type ServerOptions } from '../../../src/server/index';
import { EMBEDDED_DATABASE, removeDataDir } from '../../../src/server/db/embedded';

export interface TestServer extends RunningServer {
  dataDir: string;
  /** Closes the server and removes its data directory. */
  dispose(): Promise<void>;
}

/** Starts a server on a free port with a fresh data dir under os.tmpdir(). */
export async function startTestServer(options: ServerOptions = {}): Promise<TestServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'server-test-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    staticDir: null,
    logLevel: 'silent',
    embeddedPgNoSync: true,
    ...options,
  });
  return {
    ...server,
    dataDir,
    async dispose() {
      await server.close();
      removeDataDir(dataDir);
    },
  };
}

/**
 * The connection URL of a test server's embedded PostgreSQL (from its data dir): a second server started with
 * `databaseUrl` set to it shares the first one's database (issue 15 scale-out tests).
 */
export function embeddedUrl(dataDir: string): string {
  const { password } = JSON.parse(readFileSync(path.join(dataDir, 'pg-credentials.json'), 'utf8')) as {
    password: string;
  };
  const port = Number(readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[3]);
  return `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/${EMBEDDED_DATABASE}`;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are asserted field by field in tests
export interface Answer<T = any> {
  status: number;
  body: T;
}

/** Calls `/api/${path}` with JSON; `token` goes in `Authorization: Token {token}`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- see Answer
export async function api<T = any>(
  server: { url: string },
  method: string,
  apiPath: string,
  opts: { token?: string; body?: unknown; rawBody?: string; headers?: Record<string, string> } = {},
): Promise<Answer<T>> {
  const headers: Record<string, string> = { ...opts.headers };
  if (opts.token) headers.authorization = `Token ${opts.token}`;
  let body: string | undefined;
  if (opts.rawBody !== undefined) body = opts.rawBody;
  else if (opts.body !== undefined) body = JSON.stringify(opts.body);
  if (body !== undefined) headers['content-type'] ??= 'application/json';
  const res = await fetch(`${server.url}/api/${apiPath}`, { method, headers, body });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // keep the text
  }
  return { status: res.status, body: parsed as T };
}

/** Logs in and returns the LoginResponse body (asserting status 2). */
export async function login(server: { url: string }, email: string, password: string) {
  const res = await api(server, 'POST', 'login', { body: { email, password } });
  if (res.status !== 200 || res.body.status !== 2) throw new Error(`login failed: ${JSON.stringify(res)}`);
  return res.body as { token: string; refresh_token: string; user_info: { id: string } };
}

/** Result of opening a PeerJS signalling socket. */
export type PeerOpen =
  { opened: true; first: { type: string }; socket: WebSocket } | { opened: false; status: number };

/**
 * The signalling upgrade of peer `id` as a real client makes it: `/peerjs/peerjs?key=…&id=…&token=<random>`
 * with a browser token (typ 'browser') as the cookie `edge_sig_<id>` (as the console's browser sends it) and a
 * device token (typ 'device') as `Authorization: Token …` (as the agent sends it). Anything else, or
 * `where: 'url'`, puts the token in the URL (to check that a token there is refused).
 */
export function signallingUpgrade(
  serverUrl: string,
  id: string,
  token: string | null,
  key = 'peerjs',
  where: 'auto' | 'url' = 'auto',
): { url: string; headers: Record<string, string> } {
  const params = new URLSearchParams({ key, id });
  const headers: Record<string, string> = {};
  let typ: unknown = null;
  try {
    typ = token ? decodeJwt(token).typ : null;
  } catch {
    // not a JWT: it goes in the URL as given
  }
  if (token !== null && typ === 'device' && where === 'auto') {
    headers.authorization = `Token ${token}`;
    params.set('token', `t${Math.random().toString(36).slice(2)}`);
  } else if (token !== null && typ === 'browser' && where === 'auto') {
    // As a browser sends it: the cookie get_browser_token set (src/server/signalling/cookie.ts).
    headers.cookie = `edge_sig_${id}=${token}`;
    params.set('token', `t${Math.random().toString(36).slice(2)}`);
  } else if (token !== null) params.set('token', token);
  return { url: `${serverUrl.replace('http', 'ws')}/peerjs/peerjs?${params}`, headers };
}

/** Opens a signalling socket (see signallingUpgrade) and waits for the upgrade answer and the first message. */
export function openPeerSocket(
  server: { url: string },
  id: string,
  token: string | null,
  key = 'peerjs',
  where: 'auto' | 'url' = 'auto',
): Promise<PeerOpen> {
  const upgrade = signallingUpgrade(server.url, id, token, key, where);
  const ws = new WebSocket(upgrade.url, { headers: upgrade.headers });
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      resolve({ opened: false, status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('message', (data) => resolve({ opened: true, first: JSON.parse(String(data)), socket: ws }));
    ws.on('error', (err) => reject(err));
  });
}

/** Waits until `check()` is true (polling every 20 ms, gives up after `ms`). */
export async function eventually(check: () => Promise<boolean> | boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 20));
  }
  throw new Error('condition not met in time');
}
