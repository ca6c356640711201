/**
 * `npm run bench`: what the user feels, measured on the real stack (server, embedded PostgreSQL, simulated
 * agents, real WebRTC) in Debian's Chromium, printed as one JSON document on stdout.
 *
 *   login_js_gzip_kb      JavaScript the browser loads for /login, gzipped (level 9), KB
 *   device_connect_ms     click "Connect" → the device link is open (grant, PeerJS, hello), p50/p95
 *   command_rtt_ms        console → agent → console round trip of the `ping` command on an open link, p50/p95
 *   first_frame_ms        click "Open" on a camera → first decoded frame (requestVideoFrameCallback), p50/p95
 *
 * BENCH_ONLY=camera_page runs only the camera page's measures.
 *
 * camera_page          issue 3's measures (tests/bench/cameraPage.ts): 12 cameras, hidden cells, agent restart,
 *                      100 open/close cycles
 * containers           issue 8's console measure (tests/bench/containers.ts): a container's state shown after the
 *                      device reports it, start/stop cycles on a sim device; BENCH_ONLY=containers runs only it
 * uploads              issue 9's uploads (tests/bench/uploads.ts, own server): 1 GiB tus upload MB/s and server RSS,
 *                      SIGKILL mid-upload and resume, the browser tab's memory; BENCH_ONLY=uploads only (not in
 *                      the full run: it writes 1 GiB files)
 * tunnel               issue 8's measures (tests/bench/tunnel.ts, own server, run first): added latency of a GET
 *                      and a WebSocket echo through the device tunnel, 100 MB download, server/agent memory;
 *                      BENCH_ONLY=tunnel runs only these
 * logs                 issue 16's log follow (tests/bench/logs.ts): a sim log at 1,000 lines/s for 5 s — lines lost,
 *                      line-to-screen p50/p95, long tasks; BENCH_ONLY=logs runs only it
 * metrics              issue 16's metrics tab (tests/bench/metrics.ts): 24 h of 1 s samples → first chart drawn,
 *                      first open and later opens; BENCH_ONLY=metrics runs only it
 * device_list          issue 16's device list with 100,000 devices (tests/bench/deviceList.ts): get_devices/ page,
 *                      sort and search p95, the table's page change in Chromium; BENCH_ONLY=device_list runs only it
 *
 * ssh_install          issue 12's SSH install (tests/bench/sshInstall.ts, own server and sshd): end to end, each
 *                      step, line-to-screen latency; BENCH_ONLY=ssh_install runs only it
 * onnx                 issue 10's host engine (tests/bench/onnx.ts, no server): ONNX detector fps on this CPU for a
 *                      640×640 YOLO-sized graph; BENCH_ONLY=onnx runs only it (not in the full run)
 * sign_in              issue 13's sign-in (tests/bench/signIn.ts, own server, no browser): POST login p50/p95
 *                      with argon2id at its configured cost; BENCH_ONLY=sign_in runs only it
 * admin_users          issue 13's admin user list with 100,000 users (tests/bench/adminUsers.ts, own server): page, sort, search p95; BENCH_ONLY=admin_users
 * alarm_delivery       issue 11's delivery (tests/bench/alarmDelivery.ts, own server): detection → notification on the socket and → webhook p50, server SIGKILLed mid-delivery: counts; BENCH_ONLY=alarm_delivery only
 * fleet_load           issue 15's load (tests/bench/fleetLoad.ts, own server, no browser): 1,000 devices online (999 light
 *                      signalling-only agents and one real sim agent) and 200 console sessions — API p95 by call, link
 *                      open and ping round trip, presence, server CPU and memory; BENCH_ONLY=fleet_load only
 * inference            issue 10's jobs (tests/bench/inference.ts): click Start → first detection drawn with each stage's time, drawn boxes vs the frame's pixels (IoU), metadata-to-drawn latency; BENCH_ONLY=inference only
 *
 * Targets (issue 2, this machine): first frame p50 ≤ 300 ms and p95 ≤ 500 ms; connect ≤ 200 ms (p50);
 * round trip p50 ≤ 1 ms; /login ≤ 150 KB gzipped. Nothing here asserts: it reports, and `met` says which
 * targets were reached.
 */
import { benchRemoteDesktop } from './remoteDesktop';
import { gzipSync } from 'node:zlib';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium, type Page } from '@playwright/test';
import { DEMO_DEVICES, startStack } from '../../src/stack';
import { benchCameraPage } from './cameraPage';
import { benchContainers } from './containers';
import { benchDeviceList } from './deviceList';
import { navigate, signIn } from './page';
import { benchLogs } from './logs';
import { benchMetrics } from './metrics';
import { benchTunnel } from './tunnel';
import { benchUploads } from './uploads';
import { benchSignIn } from './signIn';
import { benchAnalytics } from './analytics';
import { benchAdminUsers } from './adminUsers';
import { benchFleetLoad } from './fleetLoad';
import { benchOnnx } from './onnx';
import { benchSshInstall } from './sshInstall';
import { benchInference } from './inference';
import { benchAlarmDelivery } from './alarmDelivery';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../chromium';
import { stats } from './stats';
import { removeDataDir } from '../../src/server/db/embedded';

const PORT = Number(process.env.BENCH_PORT ?? 18090);
const CONNECT_ROUNDS = Number(process.env.BENCH_CONNECT_ROUNDS ?? 5);
const RTT_SAMPLES = Number(process.env.BENCH_RTT_SAMPLES ?? 300);
const FRAME_SAMPLES = Number(process.env.BENCH_FRAME_SAMPLES ?? 20);
const DEMO = { email: 'bench@edge.local', password: 'bench-edge-2026' };

async function loginJavaScriptGzipKb(page: Page, url: string): Promise<number> {
  const scripts = new Map<string, Promise<Buffer>>();
  page.on('response', (res) => {
    if (res.request().resourceType() === 'script') scripts.set(res.url(), res.body());
  });
  await page.goto(`${url}/login`, { waitUntil: 'networkidle' });
  let total = 0;
  for (const body of scripts.values()) total += gzipSync(await body, { level: 9 }).length;
  return Math.round((total / 1024) * 10) / 10;
}

/** Clicks `click` inside the page and resolves with the ms until `selector` matches (MutationObserver). */
function timeInPage(page: Page, click: string, selector: string): Promise<number> {
  return page.evaluate(
    ([clickSel, waitSel]) =>
      new Promise<number>((resolve, reject) => {
        const button = document.querySelector<HTMLElement>(clickSel);
        if (!button) return reject(new Error(`no ${clickSel}`));
        const t0 = performance.now();
        const done = () => {
          if (!document.querySelector(waitSel)) return false;
          observer.disconnect();
          resolve(performance.now() - t0);
          return true;
        };
        const observer = new MutationObserver(() => void done());
        observer.observe(document.body, { subtree: true, childList: true, attributes: true });
        button.click();
        setTimeout(() => reject(new Error(`timeout waiting for ${waitSel}`)), 20_000);
      }),
    [click, selector] as const,
  );
}

/** Prints `{ machine, [name]: result }` (a BENCH_ONLY part that runs on its own server). */
function printOnly(name: string, result: unknown): void {
  const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
  process.stdout.write(`${JSON.stringify({ machine, [name]: result }, null, 2)}\n`);
}

async function main() {
  if (process.env.BENCH_ONLY === 'sign_in') {
    const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
    return void process.stdout.write(
      `${JSON.stringify({ machine, sign_in: await benchSignIn() }, null, 2)}\n`,
    );
  }
  if (process.env.BENCH_ONLY === 'uploads') return void printOnly('uploads', await benchUploads());
  if (process.env.BENCH_ONLY === 'onnx') return void printOnly('onnx', await benchOnnx());
  if (process.env.BENCH_ONLY === 'admin_users') return void printOnly('admin_users', await benchAdminUsers());
  if (process.env.BENCH_ONLY === 'analytics') return void printOnly('analytics', await benchAnalytics());
  if (process.env.BENCH_ONLY === 'fleet_load') return void printOnly('fleet_load', await benchFleetLoad());
  if (process.env.BENCH_ONLY === 'alarm_delivery') return void printOnly('alarm_delivery', await benchAlarmDelivery()); // prettier-ignore
  if (process.env.BENCH_ONLY === 'ssh_install') {
    // Issue 12 (tests/bench/sshInstall.ts): its own server and throwaway sshd, a full install in Chromium.
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const sshInstall = await benchSshInstall(browser).finally(() => browser.close());
    const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
    return void process.stdout.write(`${JSON.stringify({ machine, ssh_install: sshInstall }, null, 2)}\n`);
  }
  if (process.env.BENCH_ONLY === 'tunnel') {
    const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
    process.stdout.write(`${JSON.stringify({ machine, tunnel: await benchTunnel() }, null, 2)}\n`);
    return;
  }
  // The tunnel measures run on their own server, before the stack loads the machine.
  const tunnel = process.env.BENCH_ONLY ? null : await benchTunnel();
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'edge-console-bench-'));
  const stack = await startStack({
    port: PORT,
    host: '127.0.0.1',
    dataDir,
    demo: { ...DEMO, roles: ['admin', 'user'], devices: DEMO_DEVICES },
    logLevel: 'error',
    // AGENT_LOGS=1: the agents' log lines on stderr (as `npm start` does), to see why a measure failed.
    onAgentLine: process.env.AGENT_LOGS
      ? (label, line) => process.stderr.write(`[${label}] ${line}\n`)
      : undefined,
  });
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    // gc() for the heap measure of the open/close cycles.
    args: [...CHROMIUM_ARGS, '--js-flags=--expose-gc'],
  });
  try {
    const url = stack.url;
    const containersDevice = () =>
      (stack.agents.find((a) => a.label === 'x86 Edge Box B') ?? stack.agents[0]!).deviceId;
    if (process.env.BENCH_ONLY === 'containers') {
      const containers = await benchContainers(browser, url, DEMO, containersDevice());
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, containers }, null, 2)}\n`);
      return;
    }
    if (process.env.BENCH_ONLY === 'logs' || process.env.BENCH_ONLY === 'metrics') {
      // The device page's measures only (issue 16): log follow, metrics tab.
      const only =
        process.env.BENCH_ONLY === 'logs'
          ? { logs: await benchLogs(browser, url, DEMO, containersDevice()) }
          : { metrics: await benchMetrics(browser, url, DEMO, containersDevice()) };
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, ...only }, null, 2)}\n`);
      return;
    }
    if (process.env.BENCH_ONLY === 'device_list') {
      const deviceList = await benchDeviceList(browser, stack);
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, device_list: deviceList }, null, 2)}
`);
      return;
    }
    // Issue 10 (tests/bench/inference.ts, BENCH_ONLY=inference): click Start → first detection drawn, IoU, latency.
    // Issue 14 (tests/bench/remoteDesktop.ts, BENCH_ONLY=remote_desktop): input → changed pixels on a sim desktop.
    if (process.env.BENCH_ONLY === 'remote_desktop') return void printOnly('remote_desktop', await benchRemoteDesktop(browser, url, DEMO, containersDevice())); // prettier-ignore
    if (process.env.BENCH_ONLY === 'inference') return void printOnly('inference', await benchInference(browser, url, DEMO, { deviceId: containersDevice(), label: 'x86 Edge Box B' })); // prettier-ignore
    if (process.env.BENCH_ONLY === 'camera_page') {
      // A shorter loop while working on the camera page: its measures only.
      const cameraPage = await benchCameraPage(browser, stack, url, DEMO);
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, camera_page: cameraPage }, null, 2)}\n`);
      return;
    }
    const loginJs = await loginJavaScriptGzipKb(await browser.newPage(), url);

    const context = await browser.newContext();
    // The console exposes its actor system and device calls to the page only with this flag (benchmarks, support).
    await context.addInitScript(() => localStorage.setItem('edge.debug', '1'));
    // tsx (esbuild, keepNames) wraps named functions in __name(); functions sent to the page need it too.
    await context.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    const page = await context.newPage();
    await signIn(page, url, DEMO);
    await navigate(page, '/control-panel/devices');
    for (const a of stack.agents) await page.getByTestId(`device-row-${a.deviceId}`).waitFor();

    // Connect time: every device, CONNECT_ROUNDS times (disconnect in between).
    const connect: number[] = [];
    for (let round = 0; round < CONNECT_ROUNDS; round++) {
      for (const a of stack.agents) {
        const ms = await timeInPage(
          page,
          `[data-testid="device-connect-${a.deviceId}"]`,
          `[data-testid="device-connection-${a.deviceId}"][data-state="open"]`,
        );
        connect.push(ms);
        if (round < CONNECT_ROUNDS - 1) {
          await page.getByTestId(`device-disconnect-${a.deviceId}`).click();
          await page.getByTestId(`device-connect-${a.deviceId}`).waitFor();
        }
      }
    }

    // Command round trip: `ping` over the open data channel, from the console's own device client.
    // Box B's cameras are its own (the Gate and Box A share one, which opens the chooser dialog).
    const target = stack.agents.find((a) => a.label === 'x86 Edge Box B') ?? stack.agents[0]!;
    const rtt = await page.evaluate(
      async ([deviceId, n]) => {
        const edge = (
          window as unknown as { __edgeConsole?: { callDevice: (...a: unknown[]) => Promise<unknown> } }
        ).__edgeConsole;
        if (!edge) throw new Error('window.__edgeConsole missing (edge.debug flag)');
        for (let i = 0; i < 20; i++) await edge.callDevice(deviceId, 'ping', {}); // warm-up
        const out: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          await edge.callDevice(deviceId, 'ping', {});
          out.push(performance.now() - t0);
        }
        return out;
      },
      [target.deviceId, RTT_SAMPLES] as const,
    );

    // Click → first decoded frame, cycling over the target device's cameras; each stream closed after.
    await navigate(page, '/control-panel/cameras');
    const openButtons = page.locator(`[data-testid^="camera-open-${target.deviceId}-"]`);
    await openButtons.first().waitFor();
    const buttonIds = await openButtons.evaluateAll((els) => els.map((e) => e.getAttribute('data-testid')!));
    const firstFrame: number[] = [];
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const testId = buttonIds[i % buttonIds.length]!;
      const ms = await page.evaluate(
        (buttonTestId) =>
          new Promise<number>((resolve, reject) => {
            const before = new Set(document.querySelectorAll('[data-testid^="stream-cell-"] video'));
            const t0 = performance.now();
            const watch = () => {
              const video = [
                ...document.querySelectorAll<HTMLVideoElement>('[data-testid^="stream-cell-"] video'),
              ].find((v) => !before.has(v));
              if (!video) return false;
              observer.disconnect();
              video.requestVideoFrameCallback(() => resolve(performance.now() - t0));
              return true;
            };
            const observer = new MutationObserver(() => void watch());
            observer.observe(document.body, { subtree: true, childList: true });
            document.querySelector<HTMLElement>(`[data-testid="${buttonTestId}"]`)!.click();
            setTimeout(() => reject(new Error('no frame within 20 s')), 20_000);
          }),
        testId,
      );
      firstFrame.push(ms);
      await page.locator('[data-testid^="stream-cell-"]').first().getByTestId('stream-close').click();
      await page.locator('[data-testid^="stream-cell-"]').waitFor({ state: 'detached' });
    }

    await context.close();
    const cameraPage = await benchCameraPage(browser, stack, url, DEMO);
    const containers = await benchContainers(browser, url, DEMO, containersDevice());
    const logs = await benchLogs(browser, url, DEMO, containersDevice());
    const metrics = await benchMetrics(browser, url, DEMO, containersDevice());
    // Last: 100,000 more devices in the database (another account's) would weigh on the measures above.
    const deviceList = await benchDeviceList(browser, stack);
    const sshInstall = await benchSshInstall(browser);

    const result = {
      machine: { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 },
      login_js_gzip_kb: loginJs,
      device_connect_ms: stats(connect),
      command_rtt_ms: stats(rtt),
      first_frame_ms: stats(firstFrame),
      camera_page: cameraPage,
      containers,
      logs,
      metrics,
      device_list: deviceList,
      tunnel,
      ssh_install: sshInstall,
    };
    const met = {
      login_js_le_150kb: result.login_js_gzip_kb <= 150,
      device_connect_p50_le_200ms: result.device_connect_ms.p50 <= 200,
      command_rtt_p50_le_1ms: result.command_rtt_ms.p50 <= 1,
      first_frame_p50_le_300ms: result.first_frame_ms.p50 <= 300,
      first_frame_p95_le_500ms: result.first_frame_ms.p95 <= 500,
      twelve_all_playing_le_1500ms: cameraPage.twelve.all_playing_ms <= 1500,
      twelve_each_decodes_median_ge_25fps: cameraPage.twelve.decoded_fps_median_per_cell.every(
        (f) => f >= 25,
      ),
      twelve_no_decoded_second_below_20fps: cameraPage.twelve.decoded_fps_min_second_per_cell.every(
        (f) => f >= 20,
      ),
      twelve_each_presents_median_ge_25fps: cameraPage.twelve.presented_fps_median_per_cell.every(
        (f) => f >= 25,
      ),
      hidden_agent_stops_le_5s: cameraPage.hidden.agent_stopped_ms <= 5000,
      hidden_replays_le_1s: cameraPage.hidden.replay_ms <= 1000,
      restart_video_back_le_3s: cameraPage.restart.video_back_ms <= 3000,
      cycles_no_peer_connection_left:
        cameraPage.cycles.browser_peer_connections_open === 0 && cameraPage.cycles.agent_streams_open === 0,
      cycles_heap_within_10pct: cameraPage.cycles.heap_ratio <= 1.1,
      containers_each_state_shown_le_100ms: containers.met.each_state_shown_le_100ms,
      ...Object.fromEntries(Object.entries(logs.met).map(([k, v]) => [`logs_${k}`, v])),
      ...Object.fromEntries(Object.entries(metrics.met).map(([k, v]) => [`metrics_${k}`, v])),
      ...Object.fromEntries(Object.entries(deviceList.met).map(([k, v]) => [`device_list_${k}`, v])),
      ...Object.fromEntries(Object.entries(tunnel?.met ?? {}).map(([k, v]) => [`tunnel_${k}`, v])),
    };
    process.stdout.write(`${JSON.stringify({ ...result, met }, null, 2)}\n`);
  } finally {
    await browser.close();
    await stack.close();
    removeDataDir(dataDir);
  }
}

main().catch((err: unknown) => {
  process.stderr.write(`bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
