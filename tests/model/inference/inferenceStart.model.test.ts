/**
 * The inference start handshake on model-based paths (§4 "Starting an inference connection" steps 1–7, §8
 * texts): alarms → checking → an engine error (the §8 warning dialog, job error) or deploying → the channel's
 * stages in order (heartbeats, a stalled stage, a failed stage) → the stream-engine port → started; a failed
 * connection restarts once with the deep-stream engine, or on a stream page goes back to the camera page;
 * cancel ends it with "Process has been canceled".
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import { inferenceStartMachine } from '../../../machines/inference/inferenceStart.machine';
import type { Application } from '../../../src/protocol/applications';
import { INFERENCE_TEXTS, type ControlMessage, type Job } from '../../../src/protocol/inference';
import { prepFailureText } from '../../../machines/inference/startContext';
import { createMachineTestModel, runPaths, type Driver } from '../harness';

type Snap = SnapshotFrom<typeof inferenceStartMachine>;

const job: Job = {
  id: '6f1e2b0c-8f0e-4c43-9c77-0d7b0a3b1c11',
  job_name: 'lobby',
  application_id: '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11',
  application_name: 'people',
  device_id: 'dev-1',
  device_label: 'Box B',
  cameras: ['cam-1'],
  camera_label: 'Sim camera 1',
  state: 'created',
  options: { resolution: null, threshold: 0.3, recording: true, engine: null },
  runtime: {
    jobId: null,
    childJobId: null,
    port: null,
    scriptPath: null,
    inferenceUrl: null,
    containerName: null,
    inferenceEngineError: null,
    message: null,
  },
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};
const application = {
  id: job.application_id,
  name: 'people',
  model_id: 'M1',
  model_name: 'detector',
  version: 1,
  task: 'object-detection',
  format: 'onnx',
  model_classes: ['person'],
  classes: [],
  tracker: 'none',
  input: { source: 'camera', width: null, height: null, fps: 25 },
} as unknown as Application;

const engines = { default: 'sim', deepStream: 'sim-deepstream' };

/** The running stage's step, for results and heartbeats that belong to it. */
const running = (s: Snap) => s.context.stages.find((st) => st.state === 'running')?.step ?? 'file-check';

function eventsFor(s: Snap, type: string): EventObject[] | undefined {
  const msg = (message: ControlMessage) => ({ type, message });
  switch (type) {
    case 'xstate.done.actor.connectDevice':
      return [{ type, output: null }] as unknown as EventObject[];
    case 'xstate.error.actor.connectDevice':
      return [{ type, error: new Error(INFERENCE_TEXTS.noAnswer) }] as unknown as EventObject[];
    case 'xstate.done.actor.sendAlarms':
      return [{ type, output: { count: 0 } }] as unknown as EventObject[];
    case 'xstate.done.actor.checkEngine':
      return [
        { type, output: { inferenceEngineError: null, engines } },
        { type, output: { inferenceEngineError: 'The sim engine runs detection models.', engines } },
      ] as unknown as EventObject[];
    case 'xstate.error.actor.checkEngine':
      return [{ type, error: new Error(INFERENCE_TEXTS.noAnswer) }] as unknown as EventObject[];
    case 'xstate.done.actor.reportState':
      return [{ type, output: job }] as unknown as EventObject[];
    case 'xstate.done.actor.waitPort':
      return [{ type, output: { port: 8554 } }] as unknown as EventObject[];
    case 'channel.message': {
      const step = running(s);
      const base = { callId: s.context.callId, step, elapsed_ms: 10 };
      return [
        msg({ type: 'heartbeat', ...base, progress: 0.5, detail: 'working' }),
        msg({ type: 'result', ...base, ok: true, detail: 'done', error: null, runtime: { port: 8554 } }),
        msg({ type: 'result', ...base, ok: false, detail: null, error: 'engine crashed' }),
      ] as unknown as EventObject[];
    }
    case 'channel.failed':
      return [{ type, error: 'The connection to the device failed.' }] as unknown as EventObject[];
    default:
      return undefined;
  }
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.prep.map((p) => `${p.state[0]}${p.stalled ? '!' : ''}`),
    s.context.stages.map((st) => st.state[0]),
    s.context.stages.some((st) => st.stalled),
    s.context.attempt,
    s.context.options.engine,
    s.context.error,
  ]);

const skip = new Set([
  'xstate.error.actor.sendAlarms',
  'xstate.error.actor.reportState',
  'xstate.error.actor.waitPort',
  'xstate.done.actor.assignCalendars',
  'xstate.error.actor.assignCalendars',
  'channel.closed',
]);

function run(onStreamPage: boolean) {
  const model = createMachineTestModel(inferenceStartMachine, {
    events: (s, t) => (skip.has(t) ? [] : eventsFor(s, t)),
    key,
    input: { job, application, deviceLabel: 'Box B', onStreamPage },
  });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });
  const emitted: { type: string; title?: string; message?: string; to?: string }[] = [];
  /** What the jobs actor (reportTo) is told. */
  const told: { type: string }[] = [];
  const start = (driver: Driver) => {
    const actor = createActor(
      inferenceStartMachine.provide({
        actors: {
          connectDevice: driver.promise('connectDevice'),
          sendAlarms: driver.promise('sendAlarms'),
          assignCalendars: driver.promise('assignCalendars'),
          checkEngine: driver.promise('checkEngine'),
          reportState: driver.promise('reportState'),
          waitPort: driver.promise('waitPort'),
          channel: driver.callback('channel'),
        },
      }),
      {
        input: {
          job,
          application,
          deviceLabel: 'Box B',
          onStreamPage,
          reportTo: { send: (e: { type: string }) => told.push(e) },
        },
        clock: driver.clock,
      },
    );
    actor.on('*', (e) => emitted.push(e as never));
    return actor.start();
  };
  return { paths, start, emitted, told };
}

describe('inference start machine (model-based paths)', () => {
  it('follows every modelled path: stages in order, engine error, stall, restart with deep-stream', async () => {
    const { paths, start, emitted } = run(false);
    const steps = await runPaths(paths, start, key);
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of ['started', 'rejected', 'over'] as const)
      expect(ends.some((s) => s.matches(st))).toBe(true);
    // Started: every stage done, in order.
    const started = ends.find((s) => s.matches('started'))!;
    expect(started.context.stages.every((st) => st.state === 'done')).toBe(true);
    expect(started.context.runtime.port).toBe(8554);
    // A stalled stage is flagged, never silent.
    expect(paths.some((p) => p.steps.some((st) => st.state.context.stages.some((x) => x.stalled)))).toBe(
      true,
    );
    // §4 step 7: a failed connection restarts with the deep-stream engine (once).
    expect(ends.some((s) => s.context.attempt === 2 && s.context.options.engine === 'sim-deepstream')).toBe(
      true,
    );
    // Every step before the stages is time-limited: each one ends failed with §8 "Could not get an answer
    // from the device" on some path, and a silent one is flagged stalled first (never a silent spinner).
    for (const step of ['link', 'alarms', 'engine-check', 'connect'] as const)
      expect(
        ends.some(
          (s) =>
            s.matches('over') &&
            s.context.error === INFERENCE_TEXTS.noAnswer &&
            s.context.prep.find((p) => p.step === step)?.state === 'failed',
        ),
        step,
      ).toBe(true);
    expect(paths.some((p) => p.steps.some((st) => st.event.type.startsWith('xstate.after.PREP_LIMIT')))).toBe(
      true,
    );
    expect(paths.some((p) => p.steps.some((st) => st.state.context.prep.some((x) => x.stalled)))).toBe(true);
    // No alarms: the calendar step is shown skipped.
    expect(started.context.prep.map((p) => p.state)).toEqual(['done', 'done', 'skipped', 'done', 'done']);
    // §8 warning for an engine error.
    expect(emitted).toContainEqual({
      type: 'dialog',
      title: 'Warning: Box B',
      message: INFERENCE_TEXTS.warning,
    });
  });

  it('on a stream page a failed connection records the failure and returns to the camera page', async () => {
    const { paths, start, emitted, told } = run(true);
    await runPaths(paths, start, key);
    expect(paths.map((p) => p.state).some((s) => s.context.attempt === 2)).toBe(false);
    expect(emitted).toContainEqual({ type: 'navigate', to: '/control-panel/cameras' });
    // The jobs actor hears it too (the stream page view navigates on the jobs actor's `navigate`).
    expect(told).toContainEqual({ type: 'start.navigate', jobId: job.id, to: '/control-panel/cameras' });
  });
});

describe('a preparation step’s failure text (§8)', () => {
  it('leads with "Could not get an answer from the device" when the device gave none', () => {
    const linkClosed = Object.assign(new Error('The device stopped answering.'), { code: 'link_closed' });
    const timeout = Object.assign(new Error('Could not get an answer from the device.'), { code: 'timeout' });
    expect(prepFailureText(linkClosed)).toBe(
      'Could not get an answer from the device: The device stopped answering.',
    );
    expect(prepFailureText(timeout)).toBe(INFERENCE_TEXTS.noAnswer);
    expect(prepFailureText(undefined)).toBe(INFERENCE_TEXTS.noAnswer);
    // A refusal keeps its own words.
    const refused = Object.assign(new Error('Invalid payload for alarm-new.'), { code: 'invalid_payload' });
    expect(prepFailureText(refused)).toBe('Invalid payload for alarm-new.');
  });
});
