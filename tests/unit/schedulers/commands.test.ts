/**
 * The two device commands through the agent's real dispatcher and handler table (§7
 * scheduling-calendar-operation, start-scheduled-job), with the real scheduler over the JobRunner the agent
 * builds from its inference part (inferenceJobRunner). Here the part offers no start without the browser's
 * start connection (no startScheduled): the calendar shows it as last_error, start-scheduled-job answers it as
 * an error. The real direct start is scheduledStart.test.ts.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { handlers } from '../../../src/agent/commands';
import { dispatchRequest } from '../../../src/agent/link/dispatcher';
import { silentLogger } from '../../../src/agent/log';
import { createDeviceSchedulers, inferenceJobRunner } from '../../../src/agent/schedulers';

const JOB = '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11';
const CAL = '7e0d1f2a-1b2c-4d3e-8f40-5a6b7c8d9e0f';
const job = {
  job_id: JOB,
  job_name: 'Door',
  application: {
    id: '3c1d8f0e-6f1e-4c43-9c77-0d7b0a3b1c12',
    name: 'people',
    task: 'detect',
    format: 'onnx',
    classes: ['person'],
    model_classes: ['person'],
    tracker: 'none',
    fps: 5,
  },
  model: { model_id: 'm1', name: 'yolo', version: 1 },
  camera_id: 'cam0',
  resolution: null,
  threshold: 0.3,
  recording: false,
  engine: null,
};
// Every day, all day: active now whatever the clock says.
const always = [0, 1, 2, 3, 4, 5, 6].map((weekday) => ({ weekday, start: '00:00', end: '24:00' }));

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'sched-cmd-'));
  dirs.push(dir);
  const stopped: string[] = [];
  const inference = { stop: (id: string) => (stopped.push(id), false), jobs: () => [] };
  const schedulers = createDeviceSchedulers({
    stateDir: dir,
    log: silentLogger,
    runner: inferenceJobRunner(inference),
  });
  const ctx = { schedulers } as never;
  const run = (process: string, payload: unknown) =>
    dispatchRequest({ type: 'request', process, requestId: 'r1', payload }, handlers, ctx, silentLogger);
  return { run, schedulers };
}

describe('scheduling-calendar-operation and start-scheduled-job', () => {
  it('creates a calendar on the device; the missing direct start shows as its last_error', async () => {
    const { run, schedulers } = setup();
    const reply = await run('scheduling-calendar-operation', {
      operation: 'create',
      calendar: { id: CAL, name: 'Always', time_zone: 'UTC', intervals: always, jobs: [job] },
    });
    expect(reply).toMatchObject({ ok: true, data: { calendars: [{ id: CAL, active: true, next: null }] } });
    expect((reply as { data: { calendars: { last_error: string }[] } }).data.calendars[0]?.last_error).toBe(
      'Door: This device cannot start a job without its start connection yet',
    );
    const start = await run('start-scheduled-job', { job_id: JOB });
    expect(start).toMatchObject({ ok: false, error: { code: 'inferenceEngineError' } });
    schedulers.close();
  });

  it('refuses a bad calendar, an unknown delete and an unscheduled job with their codes', async () => {
    const { run, schedulers } = setup();
    const bad = await run('scheduling-calendar-operation', {
      operation: 'create',
      calendar: { id: CAL, name: 'x', time_zone: 'Nowhere/City', intervals: [], jobs: [] },
    });
    expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_payload' } });
    const del = await run('scheduling-calendar-operation', { operation: 'delete', id: CAL });
    expect(del).toMatchObject({ ok: false, error: { code: 'not_found' } });
    const start = await run('start-scheduled-job', { job_id: JOB });
    expect(start).toMatchObject({ ok: false, error: { code: 'not_found' } });
    schedulers.close();
  });
});
