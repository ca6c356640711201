/**
 * Issue 8's measures of the device tunnel (remote apps, spec §7 request_remote_device), printed as JSON by
 * `npx tsx tests/bench/tunnel.ts` (run it as `flock /tmp/e2e.lock npx tsx tests/bench/tunnel.ts`) and as the
 * `tunnel` section of `npm run bench`.
 *
 * Three processes, so that memory is each side's own: the server (child, embedded PostgreSQL), the agent's
 * tunnel client (child), and this one (driver + the "container web app": HTTP and a WebSocket echo under the
 * remote base path). Each measure waits for what it measures (the tunnel connected, every byte read, every
 * echo back); nothing is timed against a fixed sleep.
 *
 *   http_get_ms        GET of a 2-byte page, keep-alive, one at a time: direct to the app and through the
 *                      proxy; added_p50 = proxied p50 − direct p50
 *   ws_echo_ms         16-byte WebSocket echo round trip, direct and proxied; added_p50 likewise
 *   download           100 MB GET through the proxy (and direct), MB/s (1 MB = 10^6 bytes)
 *   memory_mb          server and agent RSS / heap used / array buffers (after gc) after warm-up and after each
 *                      of three rounds of all the measures above; flat = after round 3 within 10 % of the
 *                      highest after rounds 1–2 (RSS and heap)
 *
 * Targets: added GET p50 ≤ 5 ms, added WS echo p50 ≤ 5 ms, 100 MB at ≥ 50 MB/s, memory flat.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import WebSocket, { WebSocketServer } from 'ws';
import { remoteBasePath } from '../../src/protocol/containers';
import { stats } from './stats';
import { removeDataDir } from '../../src/server/db/embedded';

const CONTAINER = 'b3c4d5e6f7a8b3c4d5e6f7a8b3c4d5e6f7a8b3c4d5e6f7a8b3c4d5e6f7a8b3c4';
const SAMPLES = Number(process.env.BENCH_TUNNEL_SAMPLES ?? 400);
const DOWNLOAD_BYTES = 100 * 1024 * 1024;
const USER = { email: 'tunnel-bench@edge.local', password: 'tunnel-bench-2026' };

interface Memory {
  rss_mb: number;
  heap_used_mb: number;
  /** Buffers outside the JS heap (socket and WebSocket chunks). */
  array_buffers_mb: number;
}
type ChildMessage =
  | { type: 'server-ready'; url: string; deviceId: string; deviceToken: string }
  | { type: 'agent-ready' }
  | { type: 'memory'; memory: Memory }
  | { type: 'error'; message: string };

const mb = (bytes: number) => Math.round((bytes / 1e6) * 10) / 10;
/** Memory after a full gc; buffers' backing stores are freed after the gc's callbacks, hence the second one. */
async function memoryNow(): Promise<Memory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  await new Promise((resolve) => setImmediate(resolve));
  gc?.();
  const m = process.memoryUsage();
  return { rss_mb: mb(m.rss), heap_used_mb: mb(m.heapUsed), array_buffers_mb: mb(m.arrayBuffers) };
}

// ---------------------------------------------------------------------------------------------------------
// Children: `--role server` and `--role agent`.

async function runServerRole(): Promise<void> {
  const { startServer } = await import('../../src/server/index');
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'tunnel-bench-'));
  const server = await startServer({
    port: 0,
    host: '127.0.0.1',
    dataDir,
    staticDir: null,
    logLevel: 'error',
    embeddedPgNoSync: true,
  });
  const user = await server.seed.ensureUser(USER);
  const device = await server.seed.ensureDevice({ ownerId: user.id, label: 'Bench box', chipsetId: '0' });
  const deviceToken = await server.seed.issueDeviceToken(device.id);
  const stop = async () => {
    await server.close();
    removeDataDir(dataDir);
    process.exit(0);
  };
  process.on('message', (m: { type: string }) => {
    if (m.type === 'memory') void memoryNow().then((memory) => process.send!({ type: 'memory', memory }));
    if (m.type === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  process.send!({ type: 'server-ready', url: server.url, deviceId: device.device_id, deviceToken });
}

async function runAgentRole(): Promise<void> {
  const { startTunnelClient } = await import('../../src/agent/tunnel');
  const { silentLogger } = await import('../../src/agent/log');
  const [serverUrl, deviceToken, appPort] = process.argv.slice(process.argv.indexOf('--role') + 2);
  const tunnel = startTunnelClient({
    serverUrl: serverUrl!,
    deviceToken: deviceToken!,
    log: silentLogger,
    resolveTarget: async (c) =>
      c === CONTAINER.slice(0, 12) ? { host: '127.0.0.1', port: Number(appPort) } : null,
  });
  const stop = async () => {
    await tunnel.close();
    process.exit(0);
  };
  process.on('message', (m: { type: string }) => {
    if (m.type === 'memory') void memoryNow().then((memory) => process.send!({ type: 'memory', memory }));
    if (m.type === 'stop') void stop();
  });
  process.on('disconnect', () => void stop());
  while (!tunnel.connected) await new Promise((r) => setTimeout(r, 10));
  process.send!({ type: 'agent-ready' });
}

// ---------------------------------------------------------------------------------------------------------
// Driver.

function spawnRole(role: 'server' | 'agent', args: string[] = []): ChildProcess {
  return fork(fileURLToPath(import.meta.url), ['--role', role, ...args], {
    execArgv: ['--import', 'tsx', '--expose-gc'],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
}

function nextMessage<T extends ChildMessage['type']>(
  child: ChildProcess,
  type: T,
): Promise<Extract<ChildMessage, { type: T }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (m: ChildMessage) => {
      if (m.type === 'error') return reject(new Error(m.message));
      if (m.type !== type) return;
      child.off('message', onMessage);
      resolve(m as Extract<ChildMessage, { type: T }>);
    };
    child.on('message', onMessage);
    child.once('exit', (code) => reject(new Error(`bench ${type}: child exited (${code})`)));
  });
}

async function memoryOf(child: ChildProcess): Promise<Memory> {
  const answer = nextMessage(child, 'memory');
  child.send({ type: 'memory' });
  return (await answer).memory;
}

/** The "container web app": GET small → 'ok', GET big?n → n bytes, WS ws → echo. */
async function startApp(base: string) {
  const chunk = Buffer.alloc(1024 * 1024, 7);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://app');
    if (url.pathname === `${base}small`) return void res.writeHead(200, { 'content-length': 2 }).end('ok');
    if (url.pathname === `${base}big`) {
      let left = Number(url.searchParams.get('n'));
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': left });
      const pump = () => {
        while (left > 0) {
          const part = left >= chunk.length ? chunk : chunk.subarray(0, left);
          left -= part.length;
          if (!res.write(part)) return void res.once('drain', pump);
        }
        res.end();
      };
      return pump();
    }
    res.writeHead(404).end();
  });
  server.keepAliveTimeout = 60_000;
  const wss = new WebSocketServer({ server, perMessageDeflate: false });
  wss.on('connection', (ws) => ws.on('message', (d, isBinary) => ws.send(d, { binary: isBinary })));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of wss.clients) c.terminate();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function get(url: string, agent: http.Agent, cookie: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { agent, headers: { cookie } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.length));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function timeGets(url: string, agent: http.Agent, cookie: string, n: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    const res = await get(url, agent, cookie);
    out.push(performance.now() - t0);
    if (res.status !== 200) throw new Error(`GET ${url} answered ${res.status}`);
  }
  return out;
}

async function timeEchoes(url: string, cookie: string, n: number): Promise<number[]> {
  const ws = new WebSocket(url, { headers: { cookie }, perMessageDeflate: false });
  await new Promise((resolve, reject) => ws.once('open', resolve).once('error', reject));
  const payload = Buffer.alloc(16, 1);
  const out: number[] = [];
  for (let i = 0; i < n; i++) {
    const t0 = performance.now();
    await new Promise<void>((resolve) => {
      ws.once('message', () => resolve());
      ws.send(payload);
    });
    out.push(performance.now() - t0);
  }
  ws.close();
  return out;
}

async function download(url: string, cookie: string, size = DOWNLOAD_BYTES): Promise<number> {
  const agent = new http.Agent({ keepAlive: false });
  const t0 = performance.now();
  const res = await get(url, agent, cookie);
  const seconds = (performance.now() - t0) / 1000;
  if (res.status !== 200 || res.bytes !== size) {
    throw new Error(`download answered ${res.status} with ${res.bytes} bytes`);
  }
  return Math.round((size / 1e6 / seconds) * 10) / 10;
}

/** Runs the tunnel measures (see the module comment) and resolves with their JSON section. */
export async function benchTunnel() {
  const server = spawnRole('server');
  const children: ChildProcess[] = [server];
  let app: Awaited<ReturnType<typeof startApp>> | null = null;
  try {
    const ready = await nextMessage(server, 'server-ready');
    const base = remoteBasePath(ready.deviceId, CONTAINER);
    app = await startApp(base);
    const agent = spawnRole('agent', [ready.url, ready.deviceToken, String(app.port)]);
    children.push(agent);
    await nextMessage(agent, 'agent-ready');

    const login = (await (
      await fetch(`${ready.url}/api/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(USER),
      })
    ).json()) as { token: string };
    const remote = await fetch(`${ready.url}/api/request_remote_device`, {
      method: 'POST',
      headers: { authorization: `Token ${login.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ device_id: ready.deviceId, target: 'web', data: { container_id: CONTAINER } }),
    });
    if (remote.status !== 200) throw new Error(`request_remote_device answered ${remote.status}`);
    const cookie = (remote.headers.get('set-cookie') ?? '').split(';')[0]!;

    const direct = `http://127.0.0.1:${app.port}${base}`;
    const proxied = `${ready.url}${base}`;
    const directAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const proxyAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });

    const round = async () => {
      const getDirect = await timeGets(`${direct}small`, directAgent, cookie, SAMPLES);
      const getProxied = await timeGets(`${proxied}small`, proxyAgent, cookie, SAMPLES);
      const wsDirect = await timeEchoes(`${direct.replace('http', 'ws')}ws`, cookie, SAMPLES);
      const wsProxied = await timeEchoes(`${proxied.replace('http', 'ws')}ws`, cookie, SAMPLES);
      const downloadDirect = await download(`${direct}big?n=${DOWNLOAD_BYTES}`, cookie);
      const downloadProxied = await download(`${proxied}big?n=${DOWNLOAD_BYTES}`, cookie);
      return { getDirect, getProxied, wsDirect, wsProxied, downloadDirect, downloadProxied };
    };

    // Warm-up (JIT, keep-alive connections, ownership cache), then memory, then two measured rounds.
    await timeGets(`${proxied}small`, proxyAgent, cookie, 50);
    await timeGets(`${direct}small`, directAgent, cookie, 50);
    await timeEchoes(`${proxied.replace('http', 'ws')}ws`, cookie, 50);
    await download(`${proxied}big?n=${10 * 1024 * 1024}`, cookie, 10 * 1024 * 1024);
    const before = { server: await memoryOf(server), agent: await memoryOf(agent) };
    const first = await round();
    const after = { server: await memoryOf(server), agent: await memoryOf(agent) };
    const second = await round();
    const again = { server: await memoryOf(server), agent: await memoryOf(agent) };
    const third = await round();
    const last = { server: await memoryOf(server), agent: await memoryOf(agent) };
    directAgent.destroy();
    proxyAgent.destroy();

    const rounds = [first, second, third];
    const getDirect = stats(rounds.flatMap((r) => r.getDirect));
    const getProxied = stats(rounds.flatMap((r) => r.getProxied));
    const wsDirect = stats(rounds.flatMap((r) => r.wsDirect));
    const wsProxied = stats(rounds.flatMap((r) => r.wsProxied));
    const r3 = (x: number) => Math.round(x * 1000) / 1000;
    // Flat: after the third round, RSS within 10 % of its highest after an earlier round (the allocator
    // keeps freed chunk memory, so RSS settles rather than returning to the warm value), heap within 10 %.
    const flat = (earlier: Memory[], b: Memory) =>
      b.rss_mb <= Math.max(...earlier.map((m) => m.rss_mb)) * 1.1 &&
      b.heap_used_mb <= Math.max(...earlier.map((m) => m.heap_used_mb)) * 1.1;
    const result = {
      http_get_ms: { direct: getDirect, proxied: getProxied, added_p50: r3(getProxied.p50 - getDirect.p50) },
      ws_echo_ms: { direct: wsDirect, proxied: wsProxied, added_p50: r3(wsProxied.p50 - wsDirect.p50) },
      download: {
        bytes: DOWNLOAD_BYTES,
        direct_mb_s: rounds.map((r) => r.downloadDirect),
        proxied_mb_s: rounds.map((r) => r.downloadProxied),
      },
      memory_mb: { warm: before, after_round_1: after, after_round_2: again, after_round_3: last },
    };
    const met = {
      http_get_added_p50_le_5ms: result.http_get_ms.added_p50 <= 5,
      ws_echo_added_p50_le_5ms: result.ws_echo_ms.added_p50 <= 5,
      download_100mb_ge_50mb_s: Math.min(...result.download.proxied_mb_s) >= 50,
      server_memory_flat: flat([after.server, again.server], last.server),
      agent_memory_flat: flat([after.agent, again.agent], last.agent),
    };
    return { ...result, met };
  } finally {
    await app?.close();
    for (const child of children.reverse()) {
      if (child.exitCode !== null) continue;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.send({ type: 'stop' });
      await Promise.race([exited, new Promise((r) => setTimeout(r, 15_000))]);
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }
}

const roleAt = process.argv.indexOf('--role');
if (roleAt >= 0) {
  const role = process.argv[roleAt + 1];
  (role === 'server' ? runServerRole() : runAgentRole()).catch((err: unknown) => {
    process.send?.({
      type: 'error',
      message: err instanceof Error ? (err.stack ?? err.message) : String(err),
    });
    process.exit(1);
  });
} else if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  benchTunnel().then(
    (result) => {
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, tunnel: result }, null, 2)}\n`);
    },
    (err: unknown) => {
      process.stderr.write(
        `tunnel bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
