/**
 * A scheduled job started directly on the device (§4 step 4; src/agent/inference/scheduled.ts) with the real
 * inference part (sim engine, a simulated camera's frames through the real StreamManager) under the real
 * device scheduler: no console and no peer connection. The calendar's start edge runs the stages and starts
 * the job (its frames are inferred: detections running), its §4 events go to the reporter (deploying, then
 * started with the runtime fields); start-scheduled-job answers "already running"; the stop edge stops it and
 * reports stopped. An application the engine cannot run and an unknown camera become the job's error and the
 * calendar's last_error. The server reporter sends the device route with the device token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { SimCamera } from '../../../src/agent/backends/sim/camera';
import { createDeviceInference } from '../../../src/agent/inference';
import { serverJobReporter } from '../../../src/agent/inference/scheduled';
import { silentLogger } from '../../../src/agent/log';
import type { AgentPartDeps } from '../../../src/agent/parts';
import { createDeviceSchedulers, inferenceJobRunner, type Clock } from '../../../src/agent/schedulers';
import { StreamManager } from '../../../src/agent/streams/manager';
import type { JobStateBody, StartOptions } from '../../../src/protocol/inference';
import { DeviceCalendar } from '../../../src/protocol/schedulers';

const camera = new SimCamera('dev-sched', 1);
const lookup = { find: (id: string) => (id === camera.cameraId ? camera : undefined) };
const JOB = '6f1e2b0c-8f0e-4c43-9c77-0d7b0a3b1c11';
const CAL = '7e0d1f2a-1b2c-4d3e-8f40-5a6b7c8d9e0f';

const options = (over: Partial<StartOptions> = {}, task = 'object-detection'): StartOptions => ({
  job_id: JOB,
  job_name: 'lobby',
  application: {
    id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
    name: 'people',
    task,
    format: 'onnx',
    classes: [],
    model_classes: ['person', 'car', 'ball'],
    tracker: 'none',
    fps: 30,
  },
  model: { model_id: 'M1', name: 'detector', version: 1 },
  camera_id: camera.cameraId,
  resolution: { pixel_format: 'I420', width: 320, height: 240, fps: 30 },
  threshold: 0.3,
  recording: false,
  engine: null,
  ...over,
});

// Monday 5 January 2026, 10:00:00 in Paris; the calendar runs 10:00–10:02 Paris.
const T0 = Date.parse('2026-01-05T09:00:00Z');
const calendar = (job: StartOptions) =>
  DeviceCalendar.parse({
    id: CAL,
    name: 'Opening',
    time_zone: 'Europe/Paris',
    intervals: [{ weekday: 1, start: '10:00', end: '10:02' }],
    jobs: [job],
  });

/** The scheduler's clock: now is set by the test; the timer armed last can be fired by hand. */
function manualClock(start: number) {
  let now = start;
  const timers = new Map<number, { fn: () => void; at: number }>();
  let n = 0;
  const clock: Clock = {
    now: () => now,
    setTimeout: (fn, ms) => (timers.set(++n, { fn, at: now + ms }), n),
    clearTimeout: (h) => void timers.delete(h as number),
  };
  return {
    clock,
    /** Moves to the earliest armed timer's time and fires it; returns that time. */
    fireNext(): number {
      const [id, t] = [...timers].sort((a, b) => a[1].at - b[1].at)[0]!;
      timers.delete(id);
      now = t.at;
      t.fn();
      return t.at;
    },
  };
}

const cleanups: (() => void | Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'sched-start-'));
  const streams = new StreamManager(lookup, { iceServers: () => [], logger: silentLogger });
  const reports: JobStateBody[] = [];
  const deps = {
    mode: 'sim',
    deviceId: 'dev-sched',
    label: 'Test',
    stateDir: dir,
    log: silentLogger,
    broadcast: () => undefined,
  } as unknown as AgentPartDeps;
  const inference = createDeviceInference(deps, {
    streams,
    cameras: lookup,
    models: { installed: async () => [], dir },
    iceServers: () => [],
    simTimeScale: 0,
    reportJobState: async (jobId, body) => {
      expect(jobId).toBe(JOB);
      reports.push(body);
    },
  });
  const time = manualClock(T0);
  const schedulers = createDeviceSchedulers({
    stateDir: dir,
    log: silentLogger,
    runner: inferenceJobRunner(inference),
    clock: time.clock,
  });
  cleanups.push(
    () => rmSync(dir, { recursive: true, force: true }),
    () => streams.closeAll(),
    () => inference.close(),
    () => schedulers.close(),
  );
  return { inference, schedulers, reports, time };
}

async function until(check: () => boolean, ms = 5000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('a scheduled job started on the device with no console (§4 step 4)', () => {
  it('starts at the start edge, infers its camera, reports deploying/started, and stops at the stop edge', async () => {
    const { inference, schedulers, reports, time } = setup();
    const status = await schedulers.put(calendar(options()));
    expect(status[0]).toMatchObject({ id: CAL, active: true, last_error: null });
    expect(status[0]!.next).toEqual({ at: Date.parse('2026-01-05T09:02:00Z'), kind: 'stop' });

    const job = inference.jobs().find((j) => j.job_id === JOB);
    expect(job).toMatchObject({ camera_id: camera.cameraId, engine: 'sim', port: 8554 });
    expect(reports.map((r) => r.state)).toEqual(['deploying', 'started']);
    expect(reports[1]!.runtime).toMatchObject({
      jobId: JOB,
      childJobId: 'sim:8554',
      port: 8554,
      scriptPath: '/opt/edge/pipelines/sim/2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11.yaml',
      inferenceUrl: 'edge/onnx-sim:1.20',
      containerName: 'sim-6f1e2b0c',
      inferenceEngineError: null,
    });
    expect(reports[1]!.engine).toBe('sim');
    // Detections running: the camera's frames reach the engine with no viewer and no console.
    await until(() => (inference.jobs()[0]?.frames ?? 0) >= 5);
    // start-scheduled-job while it runs: not started again.
    expect(await schedulers.startJob(JOB)).toBe(false);

    expect(time.fireNext()).toBe(Date.parse('2026-01-05T09:02:00Z'));
    await until(() => inference.jobs().length === 0);
    await until(() => reports.length === 3);
    expect(reports[2]).toMatchObject({ state: 'stopped', runtime: { port: null } });
    expect(schedulers.list()[0]).toMatchObject({ active: false, last_error: null });
    expect(schedulers.list()[0]!.next?.kind).toBe('start');

    // start-scheduled-job outside the interval starts it now.
    expect(await schedulers.startJob(JOB)).toBe(true);
    expect(inference.jobs().map((j) => j.job_id)).toEqual([JOB]);
    expect(reports.slice(3).map((r) => r.state)).toEqual(['deploying', 'started']);
  });

  it('reports the engine’s refusal and an unknown camera as the job’s error and the calendar’s last_error', async () => {
    const { inference, schedulers, reports } = setup();
    const refused = await schedulers.put(calendar(options({}, 'classification')));
    expect(refused[0]!.last_error).toBe(
      'lobby: The sim engine runs detection models; detector is a classification model.',
    );
    expect(reports).toEqual([
      {
        state: 'error',
        runtime: {
          inferenceEngineError: 'The sim engine runs detection models; detector is a classification model.',
          message: null,
          port: null,
        },
      },
    ]);
    expect(inference.jobs()).toEqual([]);

    reports.length = 0;
    const missing = await schedulers.put(calendar(options({ camera_id: 'cam-9' })));
    expect(missing[0]!.last_error).toBe('lobby: Camera cam-9 does not exist on this device');
    expect(reports[0]).toMatchObject({ state: 'error' });
    expect(inference.jobs()).toEqual([]);
  });
});

describe('serverJobReporter', () => {
  it('PUTs the event to the device route with the device token, and never throws', async () => {
    const seen: { url: string; init: RequestInit }[] = [];
    const ok = (async (url: URL, init: RequestInit) => {
      seen.push({ url: String(url), init });
      return new Response('{"ok":true}', { status: 200 });
    }) as unknown as typeof fetch;
    const report = serverJobReporter({ url: 'http://127.0.0.1:9/base', token: 'tok' }, silentLogger, ok);
    await report(JOB, { state: 'started', runtime: { port: 8554 } });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.url).toBe(`http://127.0.0.1:9/base/api/device/jobs/${JOB}/state`);
    expect(seen[0]!.init.method).toBe('PUT');
    expect((seen[0]!.init.headers as Record<string, string>).Authorization).toBe('Token tok');
    expect(JSON.parse(String(seen[0]!.init.body))).toEqual({ state: 'started', runtime: { port: 8554 } });

    let downCalls = 0;
    const down = (async () => {
      downCalls++;
      throw new Error('ECONNREFUSED');
    }) as unknown as typeof fetch;
    await expect(
      serverJobReporter(
        { url: 'http://127.0.0.1:9', token: 't' },
        silentLogger,
        down,
        [0, 0],
      )(JOB, {
        state: 'stopped',
      }),
    ).resolves.toBeUndefined();
    expect(downCalls).toBe(3); // tried, then twice again
  });

  it('tries a report again after a 5xx until it lands; a 4xx refusal is not tried again', async () => {
    const statuses = [503, 502, 200];
    let calls = 0;
    const flaky = (async () => new Response('', { status: statuses[calls++]! })) as unknown as typeof fetch;
    await serverJobReporter(
      { url: 'http://h:1', token: 't' },
      silentLogger,
      flaky,
      [0, 0],
    )(JOB, {
      state: 'stopped',
    });
    expect(calls).toBe(3);
    let refused = 0;
    const no = (async () => (refused++, new Response('', { status: 404 }))) as unknown as typeof fetch;
    await serverJobReporter(
      { url: 'http://h:1', token: 't' },
      silentLogger,
      no,
      [0, 0],
    )(JOB, {
      state: 'stopped',
    });
    expect(refused).toBe(1);
  });
});
