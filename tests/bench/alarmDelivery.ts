/**
 * Issue 11 "Benchmarks" — alarm delivery (`BENCH_ONLY=alarm_delivery npm run bench`; also
 * `npx tsx tests/bench/alarmDelivery.ts`). Printed as JSON; nothing asserts, `met` reports.
 *
 * The server runs as a child process (alarmDeliveryParts.ts `--role server`: embedded PostgreSQL, the outbox
 * worker and the real-time socket in it) so that it can be killed. The device side is the agent's own alarms part
 * (src/agent/alarms: matching, POST device/events with its idempotency key, the JPEG snapshot) in this
 * process, given one detection at a time the way the inference part gives it every inferred frame
 * (`onDetections`); the detector itself is not in the measure (its time is the inference bench's). A webhook
 * receiver (node:http) and a socket.io client with the user's token run in this process too, so every time
 * below is read on one clock (performance.now()).
 *
 *   to_notification_ms  detection handed to the device's alarms part → the §3 notification of its event on the
 *                       user's real-time socket; p50 target ≤ 1000 ms
 *   to_webhook_ms       the same detection → its webhook POST received (signature checked); p50 ≤ 1000 ms
 *   kill_mid_delivery   EVENTS events recorded with a webhook channel whose receiver answers the first ones,
 *                       then holds the next requests unanswered (mid-delivery) and the server is SIGKILLed with
 *                       requests held; the server is started again on the same port and data directory and the
 *                       receiver answers from then on. The receiver, like a real one, processes a key once
 *                       (Idempotency-Key header) and drops a repeated key. Counts: expected, delivered (distinct
 *                       events processed), duplicates (events whose effect ran more than once after the key
 *                       check; target 0), redelivered_requests (requests repeated after the kill, dropped by key:
 *                       the outbox is at-least-once), lost (expected − delivered; target 0), and the outbox's own
 *                       counts for the channel afterwards.
 *
 * Samples are taken one after another: each waits for its notification and its webhook before the next
 * detection, so no sample races another. Every wait has a generous time-out; a sample that times out is
 * counted in `missed`, not dropped silently.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { io, type Socket } from 'socket.io-client';
import { createDeviceAlarms, type DeviceAlarms } from '../../src/agent/alarms';
import { httpEventServer } from '../../src/agent/alarms/post';
import type { Backend, I420Frame } from '../../src/agent/backends/types';
import { silentLogger } from '../../src/agent/log';
import type { DeviceAlarm } from '../../src/protocol/alarms';
import type { Detection } from '../../src/protocol/inference';
import { REALTIME_EVENT, REALTIME_PATH, type RealtimeMessage } from '../../src/protocol/notifications';
import { removeDataDir } from '../../src/server/db/embedded';
import {
  api,
  DEVICE_LABEL,
  login,
  ready,
  receiver,
  spawnServer,
  stopChild,
  until,
  WAIT_MS,
} from './alarmDeliveryParts';
import { stats } from './stats';

const SAMPLES = Number(process.env.BENCH_ALARM_SAMPLES ?? 30);
const EVENTS = Number(process.env.BENCH_ALARM_KILL_EVENTS ?? 40);
/** Requests the receiver answers before it starts holding them (phase 3). */
const ANSWER_FIRST = 10;

/** A grey 320×240 I420 frame. */
const frame = (): I420Frame => ({ width: 320, height: 240, data: new Uint8Array(320 * 240 * 1.5).fill(128) });
const person = (track: number): Detection => ({
  class_id: 0,
  class_name: 'person',
  score: 0.9,
  track_id: track,
  box: [0.4, 0.5, 0.1, 0.4],
});

/** Progress on stderr (the JSON alone goes to stdout). */
let phase = 'start';
const step = (what: string) => {
  phase = what;
  process.stderr.write(`alarm delivery bench: ${what}\n`);
};

export async function benchAlarmDelivery(): Promise<Record<string, unknown>> {
  // A wait that nothing can end would let Node exit silently: say where it was.
  const onBeforeExit = () => process.stderr.write(`alarm delivery bench: stopped while at '${phase}'\n`);
  process.once('beforeExit', onBeforeExit);
  const work = mkdtempSync(path.join(os.tmpdir(), 'edge-console-bench-alarms-'));
  const dataDir = path.join(work, 'data');
  let secret = '';
  const hook = receiver(() => secret);
  await new Promise<void>((r) => hook.server.listen(0, '127.0.0.1', r));
  const hookUrl = `http://127.0.0.1:${(hook.server.address() as AddressInfo).port}/hook`;
  let server = spawnServer(dataDir, 0);
  let socket: Socket | null = null;
  let part: DeviceAlarms | null = null;
  try {
    step('server starting');
    const first = await ready(server);
    step('server ready');
    const url = first.url;
    const token = await login(url);

    // One webhook channel; alarm A on cam-1 (latency samples) and alarm B on cam-2 (the kill), both to it.
    const created = await api<{ channel: { id: string }; secret: string }>(
      url,
      token,
      'POST',
      'alarm-channels',
      {
        name: 'Bench hook',
        config: { kind: 'webhook', url: hookUrl },
      },
    );
    secret = created.secret;
    const alarm = async (name: string, cam: string) => {
      const a = await api<{ id: string }>(url, token, 'POST', 'alarms', {
        name,
        sources: [{ type: 'PHYSICAL', text: cam, value: `${first.deviceId}_${cam}` }],
        classes: ['person'],
        cooldown_seconds: 0,
        severity: 'critical',
      });
      await api(url, token, 'PUT', `alarm-channels/alarms/${a.id}`, { channel_ids: [created.channel.id] });
      return a.id;
    };
    const alarmA = await alarm('Bench latency', 'cam-1');
    const alarmB = await alarm('Bench kill', 'cam-2');

    // The user's real-time socket: notification arrival times by event id, event ids by detection time.
    const notifiedAt = new Map<string, number>();
    const eventIdByAt = new Map<string, string>();
    socket = io(url, { path: REALTIME_PATH, auth: { token }, transports: ['websocket'] });
    socket.on(REALTIME_EVENT, (m: RealtimeMessage) => {
      const t = performance.now();
      if (m.type === 'notification' && m.notification.event_id) notifiedAt.set(m.notification.event_id, t);
      if (m.type === 'event') eventIdByAt.set(m.event.at, m.event.id);
    });
    const s = socket;
    await new Promise<void>((resolve, reject) => {
      s.once('connect', () => resolve());
      s.once('connect_error', reject);
    });

    // The device's alarms part, with the server's list for this device (what alarm-new sends).
    const stateDir = path.join(work, 'agent');
    part = createDeviceAlarms(
      {
        mode: 'sim',
        backend: { kind: 'x86' } as Backend,
        deviceId: first.deviceId,
        label: DEVICE_LABEL,
        stateDir,
        log: silentLogger,
        broadcast: () => undefined,
        server: { url, token: first.deviceToken },
      },
      { server: httpEventServer({ url, token: first.deviceToken }), clips: false },
    );
    const list = await api<{ alarms: DeviceAlarm[] }>(url, token, 'GET', `alarms/device/${first.deviceId}`);
    await part.set(list.alarms);
    step(`socket connected, ${list.alarms.length} alarms on the device; latency samples`);
    const p = part;
    // The jobs the detections come from (ids are UUIDs, as the server checks).
    const latencyJob = randomUUID();
    const killJob = randomUUID();

    // 1 and 2: detection → notification on the socket, → webhook received; one sample at a time.
    const toNotification: number[] = [];
    const toWebhook: number[] = [];
    let missed = 0;
    let unsigned = 0;
    let wall = Date.now();
    for (let i = 0; i < SAMPLES; i++) {
      wall = Math.max(wall + 1, Date.now());
      const iso = new Date(wall).toISOString();
      const t0 = performance.now();
      p.onDetections({ job_id: latencyJob, camera_id: 'cam-1' }, frame(), [person(1000 + i)], wall);
      const gotNote = await until(() => {
        const id = eventIdByAt.get(iso);
        return !!id && notifiedAt.has(id);
      });
      const gotHook = await until(() => hook.got.some((r) => r.eventAt === iso));
      if (!gotNote || !gotHook) {
        missed += 1;
        continue;
      }
      toNotification.push(notifiedAt.get(eventIdByAt.get(iso)!)! - t0);
      const r = hook.got.find((x) => x.eventAt === iso)!;
      if (!r.signed) unsigned += 1;
      toWebhook.push(r.at - t0);
      // The snapshot upload of this sample finishes before the next detection.
      await p.idle();
    }

    step(`latency done (${toNotification.length} samples, ${missed} missed); kill phase`);
    // 3: kill mid-delivery. EVENTS detections on cam-2, each recorded by the server (its outbox rows with it).
    const before = hook.got.length;
    hook.state.answerUntil = before + ANSWER_FIRST;
    // (Times in the past, one ms apart: each detection is told apart by its time in the webhook body.)
    const firstAt = Date.now() - EVENTS - 1;
    for (let i = 0; i < EVENTS; i++) {
      p.onDetections({ job_id: killJob, camera_id: 'cam-2' }, frame(), [person(5000 + i)], firstAt + i);
    }
    // Every event recorded (and so its outbox row), without waiting for the snapshots' uploads.
    let recorded = 0;
    const countB = async () =>
      (await api<{ events: unknown[] }>(url, token, 'GET', `events?alarm_id=${alarmB}&limit=200`)).events
        .length;
    const endRecord = performance.now() + WAIT_MS;
    while ((recorded = await countB()) < EVENTS && performance.now() < endRecord)
      await new Promise((r) => setTimeout(r, 50));
    // Wait until requests are held (delivery under way), then kill the server.
    step(`${recorded} events recorded; waiting for a held request`);
    const heldInTime = await until(() => hook.held.length > 0);
    step(`${hook.held.length} requests held; SIGKILL`);
    const killKeys = new Set(hook.got.slice(before).map((r) => r.key));
    const answered = hook.got.length - before - hook.held.length;
    const inFlightAtKill = hook.held.length;
    server.kill('SIGKILL');
    await new Promise((r) => server.once('exit', r));
    hook.state.answerUntil = Number.POSITIVE_INFINITY;
    for (const res of hook.held.splice(0)) res.destroy();
    const t1 = performance.now();
    server = spawnServer(dataDir, first.port);
    const again = await ready(server);
    const restartMs = performance.now() - t1;
    const expectedKeys = EVENTS;
    const afterKill = () => new Set(hook.got.slice(before).map((r) => r.key)).size;
    step('restarted; waiting for every delivery');
    const allIn = await until(() => afterKill() >= expectedKeys, 120_000);
    const allInMs = performance.now() - t1;
    // A moment more for any late repeat to show up in the counts.
    await new Promise((r) => setTimeout(r, 2_000));
    const phase = hook.got.slice(before);
    const perEvent = new Map<string, Set<string>>();
    for (const r of phase) {
      const keys = perEvent.get(r.eventAt) ?? new Set<string>();
      keys.add(r.key);
      perEvent.set(r.eventAt, keys);
    }
    const distinctKeys = new Set(phase.map((r) => r.key)).size;
    const token2 = await login(again.url);
    const channels = await api<{ channels: { id: string; deliveries: Record<string, number> }[] }>(
      again.url,
      token2,
      'GET',
      'alarm-channels',
    );
    const outboxB = await api<{ events: unknown[] }>(
      again.url,
      token2,
      'GET',
      `events?alarm_id=${alarmB}&limit=200`,
    );
    const delivered = [...perEvent.keys()].length;
    const duplicates = [...perEvent.values()].filter((k) => k.size > 1).length;
    const n = stats(toNotification);
    const w = stats(toWebhook);
    const kill = {
      expected: EVENTS,
      events_recorded: recorded,
      events_recorded_after_restart: outboxB.events.length,
      answered_before_kill: answered,
      in_flight_at_kill: inFlightAtKill,
      requests_held_in_time: heldInTime,
      distinct_keys_before_kill: killKeys.size,
      server_restart_ms: Math.round(restartMs),
      all_delivered: allIn,
      all_delivered_ms_after_kill: Math.round(allInMs),
      delivered,
      duplicates,
      lost: EVENTS - delivered,
      requests: phase.length,
      redelivered_requests: phase.length - distinctKeys,
      unsigned: phase.filter((r) => !r.signed).length,
      outbox: channels.channels.find((c) => c.id === created.channel.id)?.deliveries ?? null,
    };
    return {
      note: 'detection = one person handed to the agent’s alarms part (src/agent/alarms), as the inference part hands every inferred frame; server in a child process with embedded PostgreSQL',
      samples: SAMPLES,
      missed,
      to_notification_ms: n,
      to_webhook_ms: w,
      webhook_unsigned: unsigned,
      alarm_latency_id: alarmA,
      kill_mid_delivery: kill,
      met: {
        to_notification_p50_1s: n.p50 <= 1000,
        to_webhook_p50_1s: w.p50 <= 1000,
        exactly_once_after_restart:
          allIn && delivered === EVENTS && duplicates === 0 && kill.unsigned === 0 && inFlightAtKill > 0,
      },
    };
  } finally {
    process.off('beforeExit', onBeforeExit);
    // (assigned in the try: TypeScript's narrowing does not see it here)
    await (part as DeviceAlarms | null)?.close().catch(() => undefined);
    (socket as Socket | null)?.close();
    hook.server.closeAllConnections();
    hook.server.close();
    await stopChild(server);
    removeDataDir(dataDir);
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  benchAlarmDelivery().then(
    (result) => {
      const machine = { cpus: os.cpus().length, loadavg_1m: Math.round(os.loadavg()[0]! * 100) / 100 };
      process.stdout.write(`${JSON.stringify({ machine, alarm_delivery: result }, null, 2)}\n`);
      process.exit(0);
    },
    (err: unknown) => {
      process.stderr.write(
        `alarm delivery bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`,
      );
      process.exit(1);
    },
  );
}
