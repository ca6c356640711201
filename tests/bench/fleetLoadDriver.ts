/**
 * The load of the fleet bench (tests/bench/fleetLoad.ts), in its own process so that the server's process
 * measures only the server: `node --import tsx tests/bench/fleetLoadDriver.ts <job.json>`.
 *
 * Prints JSON lines on stdout: `{ event: 'steady' }` when the steady phase starts, then
 * `{ event: 'done', report }` (DriverReport) at its end. Light agents speak the PeerJS signalling protocol the
 * real agent speaks (OPEN, HEARTBEAT every 5 s), nothing more.
 */
import { readFileSync } from 'node:fs';
import { WebSocket } from 'ws';
import { PEERJS_KEY } from '../../src/protocol';
import { openLink, type FuzzUser, type OwnerLink } from '../fuzz/env';
import { stats, type Stats } from './stats';

export interface DriverJob {
  serverUrl: string;
  /** The light agents: device peer ids and their device tokens. */
  agents: { deviceId: string; token: string }[];
  /** Access tokens of the console sessions. */
  sessions: string[];
  owner: FuzzUser;
  realDeviceId: string;
  totalDevices: number;
  steadySeconds: number;
}

export interface DriverReport {
  agents_online: number;
  register_ms: Stats;
  presence_all_online_ms: number | null;
  api_ms: Record<string, Stats>;
  api_calls: number;
  api_errors: number;
  connect_ms: Stats;
  command_rtt_ms: Stats;
  command_errors: number;
  churn_reconnects: number;
}

const HEARTBEAT_MS = 5_000;
const CONNECT_CONCURRENCY = 50;
const SESSION_INTERVAL_MS = 500;
const CHURN_EVERY_MS = 10_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const emit = (m: unknown) => process.stdout.write(`${JSON.stringify(m)}\n`);

/** One light agent's signalling socket. Resolves with the time from open to OPEN, ms. */
function connectAgent(
  base: string,
  agent: DriverJob['agents'][number],
  sockets: Map<string, WebSocket>,
): Promise<number> {
  return new Promise((resolve, reject) => {
    // As the agent does: the device token in the Authorization header, PeerJS's random token in the URL.
    const url = `${base}/peerjs/peerjs?key=${PEERJS_KEY}&id=${agent.deviceId}&token=r${Math.random().toString(36).slice(2)}`;
    const ws = new WebSocket(url, { headers: { authorization: `Token ${agent.token}` } });
    const t0 = performance.now();
    let heartbeat: NodeJS.Timeout | undefined;
    ws.on('message', (data) => {
      const m = JSON.parse(String(data)) as { type?: string };
      if (m.type === 'OPEN') {
        heartbeat = setInterval(() => ws.send('{"type":"HEARTBEAT"}'), HEARTBEAT_MS);
        sockets.set(agent.deviceId, ws);
        resolve(performance.now() - t0);
      }
    });
    ws.on('close', () => clearInterval(heartbeat));
    ws.on('error', (err) => reject(err));
  });
}

async function main(): Promise<void> {
  const job = JSON.parse(readFileSync(process.argv[2]!, 'utf8')) as DriverJob;
  const base = job.serverUrl.replace(/^http/, 'ws');
  const sockets = new Map<string, WebSocket>();
  const get = async (apiPath: string, token: string) => {
    const res = await fetch(`${job.serverUrl}/api/${apiPath}`, {
      headers: { authorization: `Token ${token}` },
    });
    const body = (await res.json()) as Record<string, unknown>;
    return { status: res.status, body };
  };

  // Ramp: every light agent registers, 50 at a time.
  const register: number[] = [];
  const queue = [...job.agents];
  await Promise.all(
    Array.from({ length: CONNECT_CONCURRENCY }, async () => {
      for (let a = queue.shift(); a; a = queue.shift()) {
        try {
          register.push(await connectAgent(base, a, sockets));
        } catch (err) {
          process.stderr.write(`agent ${a.deviceId}: ${String(err)}\n`);
        }
      }
    }),
  );
  const lastOpen = performance.now();
  let presenceMs: number | null = null;
  for (let tries = 0; tries < 600; tries++) {
    const r = await get('get_devices/?per_page=1', job.owner.token);
    if (r.status === 200 && r.body.active_devices_count === job.totalDevices) {
      presenceMs = performance.now() - lastOpen;
      break;
    }
    await sleep(50);
  }

  // Steady phase: sessions, churn, link opens and pings, all at once.
  emit({ event: 'steady' });
  const until = performance.now() + job.steadySeconds * 1000;
  const api: Record<string, number[]> = {
    device_list: [],
    device_search: [],
    online_devices: [],
    user_info: [],
    presence: [],
  };
  let apiErrors = 0;
  const ids = job.agents.map((a) => a.deviceId);
  const pick = <T>(xs: T[]) => xs[Math.floor(Math.random() * xs.length)]!;
  const sessions = job.sessions.map(async (token, i) => {
    await sleep((i * SESSION_INTERVAL_MS) / job.sessions.length); // spread the sessions' starts
    for (let n = 0; performance.now() < until; n++) {
      const kind =
        n % 4 === 0 ? 'device_list' : pick(['online_devices', 'user_info', 'presence', 'device_search']);
      const target =
        kind === 'device_list'
          ? `get_devices/?per_page=50&page=${1 + Math.floor(Math.random() * 20)}&order_by=is_active&order_as=desc`
          : kind === 'device_search'
            ? `get_devices/?per_page=50&search=${encodeURIComponent(`Load device 000${Math.floor(Math.random() * 1000)}`.slice(0, 20))}`
            : kind === 'online_devices'
              ? 'get-online-devices'
              : kind === 'user_info'
                ? 'user-info'
                : `peerjs/peerjs/${pick(ids)}`;
      const t0 = performance.now();
      try {
        const r = await get(target, token);
        if (r.status !== 200) apiErrors++;
        else api[kind]!.push(performance.now() - t0);
      } catch {
        apiErrors++;
      }
      await sleep(SESSION_INTERVAL_MS);
    }
  });
  let churned = 0;
  const churn = (async () => {
    for (let round = 0; performance.now() + CHURN_EVERY_MS < until; round++) {
      await sleep(CHURN_EVERY_MS);
      // 1 % of the fleet, a different 1 % each round.
      const some = job.agents.filter((_, i) => i % 100 === round % 100);
      for (const a of some) {
        sockets.get(a.deviceId)?.close();
        sockets.delete(a.deviceId);
      }
      await sleep(200);
      await Promise.all(
        some.map((a) =>
          connectAgent(base, a, sockets).then(
            () => churned++,
            () => undefined,
          ),
        ),
      );
    }
  })();
  const connect: number[] = [];
  const rtt: number[] = [];
  let commandErrors = 0;
  const commands = (async () => {
    while (performance.now() < until) {
      let link: OwnerLink | null = null;
      const t0 = performance.now();
      try {
        link = await openLink({ url: job.serverUrl }, job.owner, job.realDeviceId);
        connect.push(performance.now() - t0);
        for (let i = 0; i < 50 && performance.now() < until; i++) {
          rtt.push(await ping(link, `p${connect.length}-${i}`));
          await sleep(100);
        }
      } catch (err) {
        commandErrors++;
        process.stderr.write(`command: ${String(err)}\n`);
        await sleep(500);
      } finally {
        link?.close();
      }
    }
  })();
  await Promise.all([...sessions, churn, commands]);
  const report: DriverReport = {
    agents_online: register.length,
    register_ms: stats(register),
    presence_all_online_ms: presenceMs === null ? null : Math.round(presenceMs),
    api_ms: Object.fromEntries(Object.entries(api).map(([k, v]) => [k, stats(v)])),
    api_calls: Object.values(api).reduce((n, v) => n + v.length, 0) + apiErrors,
    api_errors: apiErrors,
    connect_ms: stats(connect),
    command_rtt_ms: stats(rtt),
    command_errors: commandErrors,
    churn_reconnects: churned,
  };
  for (const ws of sockets.values()) ws.close();
  emit({ event: 'done', report });
  process.exit(0);
}

/** One `ping` request over the link; resolves with its round trip, ms; rejects after 5 s. */
function ping(link: OwnerLink, requestId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const timer = setTimeout(() => {
      link.conn.off('data', onData);
      reject(new Error(`ping ${requestId}: no answer within 5 s`));
    }, 5_000);
    const onData = (d: unknown) => {
      if ((d as { requestId?: string })?.requestId !== requestId) return;
      clearTimeout(timer);
      link.conn.off('data', onData);
      resolve(performance.now() - t0);
    };
    link.conn.on('data', onData);
    void link.conn.send({ type: 'request', process: 'ping', requestId, payload: {} });
  });
}

await main();
