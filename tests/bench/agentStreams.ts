/**
 * Agent streaming benchmark (issue 3 "12 cameras at 640×480 … each cell decodes ≥ 25 fps (median over 10 s),
 * none below 20"), without a browser: the real stack (server, embedded PostgreSQL, the three demo sim agents
 * as separate processes) and N WebRTC receivers in this Node process (wrtc), each a recvonly peer connection
 * opened like the console does (grant, PeerJS link, hello, send-sdp). Node receivers take the browser's
 * decode cost out, so what is measured is what the agents send.
 *
 *   npx tsx tests/bench/agentStreams.ts [--streams 12] [--seconds 10] [--width 640 --height 480]
 *
 * Streams are spread round-robin over the demo devices' cameras (12 → 4 per device). After a 3 s warm-up,
 * every receiver's inbound-rtp `framesDecoded` is sampled once per second for `seconds` s. Printed JSON:
 *   per_stream[]: device, camera, fps_median, fps_min (per-second samples), frame size, kbps
 *   fps_median_of_medians, fps_worst_second, agents_cpu_percent (sum of the agent processes over the window,
 *   100 = one core), agents_cpu_ms_per_frame (agent CPU per delivered frame: comparable across runs on a
 *   loaded machine), receiver_cpu_percent (this process), setup_ms (all streams answered)
 *   met: { median_ge_25, none_below_20 }
 * Port BENCH_AGENT_PORT (default 18290); data dir under os.tmpdir(), removed at the end.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { DataConnection, Peer as PeerType } from 'peerjs';
import { peerOptions } from '../../src/agent/link/signalling';
import { authorizeSignalling, loadPeer, wrtc } from '../../src/agent/wrtc';
import { DEMO_DEVICES, startStack } from '../../src/stack';
import { removeDataDir } from '../../src/server/db/embedded';

const { values } = parseArgs({
  options: {
    streams: { type: 'string', default: '12' },
    seconds: { type: 'string', default: '10' },
    width: { type: 'string', default: '640' },
    height: { type: 'string', default: '480' },
  },
});
const STREAMS = Number(values.streams);
const SECONDS = Number(values.seconds);
const RESOLUTION = {
  pixel_format: 'I420',
  width: Number(values.width),
  height: Number(values.height),
  fps: 30,
};
const PORT = Number(process.env.BENCH_AGENT_PORT ?? 18290);
const DEMO = { email: 'agent-bench@edge.local', password: 'agent-bench-2026' };
const CLK_TCK = 100;

/** utime + stime of a process, in clock ticks (Linux /proc). */
function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? (s[(s.length - 1) >> 1]! + s[s.length >> 1]!) / 2 : NaN;
};

async function post<T>(url: string, body: unknown, token?: string): Promise<T> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Token ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`POST ${url}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

type Msg = { type: string; requestId?: string; ok?: boolean; data?: unknown; error?: unknown };

/** A greeted device link with request/reply. */
async function openLink(peer: PeerType, deviceId: string, grant: string) {
  const conn: DataConnection = peer.connect(deviceId, { serialization: 'json', reliable: true });
  const waiters = new Map<string, (m: Msg) => void>();
  let hello: (m: Msg) => void = () => {};
  conn.on('data', (d) => {
    const m = d as Msg;
    if (m.type.startsWith('hello')) hello(m);
    else if (m.type === 'reply' && m.requestId) waiters.get(m.requestId)?.(m);
  });
  await new Promise<void>((resolve) => conn.once('open', () => resolve()));
  const greeted = new Promise<Msg>((resolve) => (hello = resolve));
  void conn.send({ type: 'hello', grant });
  const h = await greeted;
  if (h.type !== 'hello.ok') throw new Error(`hello refused: ${JSON.stringify(h)}`);
  let seq = 0;
  return {
    conn,
    call(process: string, payload: unknown): Promise<Msg> {
      const requestId = `b${++seq}`;
      return new Promise((resolve) => {
        waiters.set(requestId, resolve);
        void conn.send({ type: 'request', process, requestId, payload });
      });
    },
  };
}

async function main() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'agent-bench-'));
  const stack = await startStack({
    port: PORT,
    host: '127.0.0.1',
    dataDir,
    staticDir: null,
    demo: { ...DEMO, devices: DEMO_DEVICES },
    logLevel: 'warn',
  });
  const receivers: { pc: RTCPeerConnection; device: string; camera: string }[] = [];
  const peers: PeerType[] = [];
  try {
    const login = await post<{ token: string }>(`${stack.url}/api/login`, DEMO);
    const Peer = await loadPeer();
    const targets = Array.from({ length: STREAMS }, (_, n) => {
      const agent = stack.agents[n % stack.agents.length]!;
      return { agent, camera: `cam-${1 + (Math.floor(n / stack.agents.length) % agent.cameras)}` };
    });
    const links = new Map<string, Awaited<ReturnType<typeof openLink>>>();
    for (const agent of stack.agents) {
      const browserId = `web-bench${agent.deviceId.slice(4)}`;
      const { token } = await post<{ token: string }>(
        `${stack.url}/api/get_browser_token`,
        { browser_id: browserId },
        login.token,
      );
      authorizeSignalling(browserId, token); // a header, never the URL (issue 15)
      const peer = new Peer(browserId, peerOptions(stack.url, undefined, []));
      peers.push(peer);
      await new Promise<void>((resolve, reject) => {
        peer.once('open', () => resolve());
        peer.once('error', reject);
      });
      const { grant } = await post<{ grant: string }>(
        `${stack.url}/api/device-grant`,
        { device_id: agent.deviceId, browser_id: browserId },
        login.token,
      );
      links.set(agent.deviceId, await openLink(peer, agent.deviceId, grant));
    }

    const t0 = performance.now();
    await Promise.all(
      targets.map(async ({ agent, camera }, n) => {
        const pc = new wrtc.RTCPeerConnection({ iceServers: [] }) as unknown as RTCPeerConnection;
        pc.addTransceiver('video', { direction: 'recvonly' });
        await pc.setLocalDescription(await pc.createOffer());
        await new Promise<void>((resolve) => {
          if (pc.iceGatheringState === 'complete') resolve();
          pc.onicecandidate = (e: RTCPeerConnectionIceEvent) => !e.candidate && resolve();
        });
        const reply = await links.get(agent.deviceId)!.call('send-sdp', {
          camera_id: camera,
          callId: `bench-${n}`,
          sdp: { type: 'offer', sdp: pc.localDescription!.sdp },
          resolution: RESOLUTION,
        });
        if (!reply.ok) throw new Error(`send-sdp ${agent.label} ${camera}: ${JSON.stringify(reply.error)}`);
        await pc.setRemoteDescription((reply.data as { sdp: RTCSessionDescriptionInit }).sdp);
        receivers.push({ pc, device: agent.label, camera });
      }),
    );
    const setupMs = performance.now() - t0;

    const sample = async () => {
      const at = performance.now();
      const perReceiver = await Promise.all(
        receivers.map(async ({ pc }) => {
          const report = await pc.getStats();
          let out = { frames: 0, bytes: 0, width: 0, height: 0 };
          report.forEach((s: Record<string, unknown>) => {
            if (s.type === 'inbound-rtp' && (s.kind === 'video' || s.mediaType === 'video')) {
              out = {
                frames: Number(s.framesDecoded ?? 0),
                bytes: Number(s.bytesReceived ?? 0),
                width: Number(s.frameWidth ?? 0),
                height: Number(s.frameHeight ?? 0),
              };
            }
          });
          return out;
        }),
      );
      return { at, perReceiver };
    };

    await new Promise((r) => setTimeout(r, 3_000));
    const pids = stack.agents.map((a) => a.child.pid!).filter(Boolean);
    const agentTicks0 = pids.reduce((n, p) => n + cpuTicks(p), 0);
    const self0 = process.cpuUsage();
    const w0 = performance.now();
    const samples = [await sample()];
    for (let i = 0; i < SECONDS; i++) {
      await new Promise((r) => setTimeout(r, 1_000));
      samples.push(await sample());
    }
    const wallS = (performance.now() - w0) / 1000;
    const agentTicks = pids.reduce((n, p) => n + cpuTicks(p), 0) - agentTicks0;
    const self = process.cpuUsage(self0);

    const perStream = receivers.map((r, i) => {
      // Frames per second between consecutive samples, by each sample's own clock.
      const perSecond = samples
        .slice(1)
        .map(
          (s, k) =>
            Math.round(
              ((s.perReceiver[i]!.frames - samples[k]!.perReceiver[i]!.frames) * 10_000) /
                (s.at - samples[k]!.at),
            ) / 10,
        );
      const last = samples.at(-1)!.perReceiver[i]!;
      return {
        device: r.device,
        camera: r.camera,
        fps_median: median(perSecond),
        fps_min: Math.min(...perSecond),
        size: `${last.width}x${last.height}`,
        kbps: Math.round(((last.bytes - samples[0]!.perReceiver[i]!.bytes) * 8) / 1000 / wallS),
      };
    });
    const medians = perStream.map((s) => s.fps_median);
    const totalFrames = receivers.reduce(
      (n, _r, i) => n + samples.at(-1)!.perReceiver[i]!.frames - samples[0]!.perReceiver[i]!.frames,
      0,
    );
    const result = {
      streams: STREAMS,
      resolution: `${RESOLUTION.width}x${RESOLUTION.height}@${RESOLUTION.fps}`,
      seconds: SECONDS,
      setup_ms: Math.round(setupMs),
      fps_median_of_medians: median(medians),
      fps_lowest_median: Math.min(...medians),
      fps_worst_second: Math.min(...perStream.map((s) => s.fps_min)),
      agents_cpu_percent: Math.round((100 * agentTicks) / CLK_TCK / wallS),
      agents_cpu_ms_per_frame: Math.round(((1000 * agentTicks) / CLK_TCK / totalFrames) * 100) / 100,
      receiver_cpu_percent: Math.round((100 * (self.user + self.system)) / 1e6 / wallS),
      cores: os.cpus().length,
      loadavg_1m: os.loadavg()[0],
      per_stream: perStream,
      met: {
        median_ge_25: medians.every((m) => m >= 25),
        none_below_20: perStream.every((s) => s.fps_min >= 20),
      },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    for (const r of receivers) r.pc.close();
    for (const p of peers) p.destroy();
    await stack.close();
    removeDataDir(dataDir);
  }
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    process.stderr.write(
      `agent bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
    );
    process.exit(1);
  },
);
