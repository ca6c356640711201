/**
 * Tunnel test helpers: a local "container web app" (HTTP + WebSocket echo) whose paths live under a remote
 * base path, like Jupyter with base_url, and small clients that carry the remote-session cookie by hand.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import WebSocket, { WebSocketServer } from 'ws';

/** Deterministic bytes (a repeating pattern with the offset mixed in). */
export function patternBytes(size: number): Buffer {
  const out = Buffer.alloc(Math.ceil(size / 4) * 4);
  for (let i = 0; i < out.length; i += 4) out.writeUInt32LE((i * 2654435761) >>> 0, i);
  return out.subarray(0, size);
}

export const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export interface WebApp {
  port: number;
  /** Requests the app saw (method, url, headers), newest last. */
  seen: { method: string; url: string; headers: http.IncomingHttpHeaders }[];
  close(): Promise<void>;
}

/**
 * A web app serving, under `base` (e.g. '/remote/dev-…/abcdef012345/'):
 *   GET  lab        'hello lab' (sets the app's own cookie)
 *   GET  big?n=…    n pattern bytes (default 5 MB)
 *   POST echo       the request body back
 *   GET  headers    the request headers as JSON
 *   WS   ws         echoes every message (text stays text, binary stays binary)
 * Anything else: 404 'app: not found' (and every path outside `base`).
 */
export async function startWebApp(base: string): Promise<WebApp> {
  const seen: WebApp['seen'] = [];
  const server = http.createServer((req, res) => {
    seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers });
    const url = new URL(req.url ?? '/', 'http://app');
    if (!url.pathname.startsWith(base)) return void res.writeHead(404).end('app: not found');
    const rest = url.pathname.slice(base.length);
    if (rest === 'lab' && req.method === 'GET') {
      res.writeHead(200, {
        'content-type': 'text/plain',
        // The app's own cookie, and an attempt to overwrite the console's session cookie.
        'set-cookie': [`_xsrf=abc; Path=${base}`, `edge_remote=evil; Path=${base}`],
      });
      return void res.end('hello lab');
    }
    if (rest === 'big') {
      const body = patternBytes(Number(url.searchParams.get('n') ?? 5 * 1024 * 1024));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': body.length });
      return void res.end(body);
    }
    if (rest === 'echo' && req.method === 'POST') {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      return void req.pipe(res);
    }
    if (rest === 'headers') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return void res.end(JSON.stringify(req.headers));
    }
    res.writeHead(404).end('app: not found');
  });
  server.keepAliveTimeout = 60_000;
  const wss = new WebSocketServer({ noServer: true });
  server.on('upgrade', (req, socket, head) => {
    if (req.url !== `${base}ws`) return void socket.destroy();
    wss.handleUpgrade(req, socket, head, (ws) => {
      ws.on('message', (data, isBinary) => ws.send(data, { binary: isBinary }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    seen,
    async close() {
      for (const ws of wss.clients) ws.terminate();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The `name=value` part of a Set-Cookie header. */
export const cookiePair = (setCookie: string): string => setCookie.split(';')[0]!.trim();

/** POST request_remote_device (target 'jupyter') as `token`: the status, the answer and its Set-Cookie. */
export async function requestRemote(serverUrl: string, token: string, deviceId: string, container: string) {
  const res = await fetch(`${serverUrl}/api/request_remote_device`, {
    method: 'POST',
    headers: { authorization: `Token ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ device_id: deviceId, target: 'jupyter', data: { container_id: container } }),
  });
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- answers are asserted field by field
  return { status: res.status, body: (await res.json()) as any, setCookie: res.headers.get('set-cookie') };
}

/** Opens a WebSocket to `url` with a Cookie header; resolves when open, or with the refusal's status. */
export function openWs(
  url: string,
  cookie?: string,
): Promise<{ ws: WebSocket; status?: never } | { ws?: never; status: number; body: string }> {
  const ws = new WebSocket(url, { headers: cookie ? { cookie } : {} });
  return new Promise((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (c: Buffer) => (body += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, body }));
    });
    ws.once('open', () => resolve({ ws }));
    ws.once('error', reject);
  });
}

/** Sends `data` and resolves with the next message (and whether it was binary). */
export function echo(ws: WebSocket, data: string | Buffer): Promise<{ data: Buffer; isBinary: boolean }> {
  return new Promise((resolve) => {
    ws.once('message', (d, isBinary) => resolve({ data: d as Buffer, isBinary }));
    ws.send(data);
  });
}
