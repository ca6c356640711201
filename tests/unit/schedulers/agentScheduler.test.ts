/**
 * The device's scheduler (src/agent/schedulers/) on a fake clock (vitest fake timers): jobs start and stop at
 * the calendar's edges, calendars survive a restart (state directory), a failed start is kept as last_error,
 * start-scheduled-job starts a scheduled job. The JobRunner here records calls: the real one is the inference
 * part's (src/agent/inference/).
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { silentLogger } from '../../../src/agent/log';
import { createDeviceSchedulers, type JobRunner } from '../../../src/agent/schedulers';
import type { StartOptions } from '../../../src/protocol/inference';
import { DeviceCalendar } from '../../../src/protocol/schedulers';

const JOB = '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11';
const CAL = '7e0d1f2a-1b2c-4d3e-8f40-5a6b7c8d9e0f';
const options: StartOptions = {
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

function recordingRunner(fail?: string) {
  const running = new Set<string>();
  const calls: string[] = [];
  const runner: JobRunner = {
    start: async (o) => {
      calls.push(`start ${o.job_id}`);
      if (fail) throw new Error(fail);
      running.add(o.job_id);
    },
    stop: (id) => {
      calls.push(`stop ${id}`);
      return running.delete(id);
    },
    running: () => [...running],
  };
  return { runner, calls, running };
}

// Monday 5 January 2026, 09:58:30 in Paris (08:58:30 UTC); the calendar runs 10:00–10:02 Paris.
const NOW = Date.parse('2026-01-05T08:58:30Z');
const calendar = DeviceCalendar.parse({
  id: CAL,
  name: 'Two minutes',
  time_zone: 'Europe/Paris',
  intervals: [{ weekday: 1, start: '10:00', end: '10:02' }],
  jobs: [options],
});

let dir: string;
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  vi.setSystemTime(NOW);
  dir = mkdtempSync(join(tmpdir(), 'sched-'));
});
afterEach(() => {
  vi.useRealTimers();
  rmSync(dir, { recursive: true, force: true });
});

describe('device scheduler', () => {
  it('starts the job at the start edge and stops it at the stop edge, by its own timers', async () => {
    const { runner, calls, running } = recordingRunner();
    const s = createDeviceSchedulers({ stateDir: dir, log: silentLogger, runner });
    const [status] = await s.put(calendar);
    expect(status).toMatchObject({
      id: CAL,
      active: false,
      next: { kind: 'start', at: Date.parse('2026-01-05T09:00:00Z') },
    });
    expect(calls).toEqual([]);
    await vi.advanceTimersByTimeAsync(89_000);
    expect(running.has(JOB)).toBe(false);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(calls).toEqual([`start ${JOB}`]);
    expect(s.list()[0]).toMatchObject({ active: true, next: { kind: 'stop' } });
    await vi.advanceTimersByTimeAsync(120_000);
    expect(calls).toEqual([`start ${JOB}`, `stop ${JOB}`]);
    expect(running.size).toBe(0);
    // The next start is a week later.
    expect(s.list()[0]?.next).toEqual({ kind: 'start', at: Date.parse('2026-01-12T09:00:00Z') });
    s.close();
  });

  it('keeps calendars across a restart and applies them at once', async () => {
    const first = recordingRunner();
    const a = createDeviceSchedulers({ stateDir: dir, log: silentLogger, runner: first.runner });
    await a.put(calendar);
    a.close();
    expect(JSON.parse(readFileSync(join(dir, 'schedulers.json'), 'utf8')).calendars[0].id).toBe(CAL);
    vi.setSystemTime(Date.parse('2026-01-05T09:01:00Z')); // inside the interval when the agent comes back
    const second = recordingRunner();
    const b = createDeviceSchedulers({ stateDir: dir, log: silentLogger, runner: second.runner });
    await vi.advanceTimersByTimeAsync(0);
    expect(second.calls).toEqual([`start ${JOB}`]);
    expect(b.remove(CAL)).toBe(true);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(second.calls).toEqual([`start ${JOB}`]); // deleted: its stop timer is gone, the job is left running
    expect(b.list()).toEqual([]);
    b.close();
  });

  it('keeps a failed start as last_error and still fires the next edge', async () => {
    const { runner, calls } = recordingRunner('no engine');
    const s = createDeviceSchedulers({ stateDir: dir, log: silentLogger, runner });
    await s.put(calendar);
    await vi.advanceTimersByTimeAsync(90_000);
    expect(s.list()[0]?.last_error).toBe('Door: no engine');
    expect(s.list()[0]?.next?.kind).toBe('stop');
    expect(calls).toEqual([`start ${JOB}`]);
    s.close();
  });

  it('start-scheduled-job starts a job a calendar holds, once; an unknown job is refused', async () => {
    const { runner, calls } = recordingRunner();
    const s = createDeviceSchedulers({ stateDir: dir, log: silentLogger, runner });
    await s.put(calendar);
    expect(await s.startJob(JOB)).toBe(true);
    expect(await s.startJob(JOB)).toBe(false);
    expect(calls).toEqual([`start ${JOB}`]);
    await expect(s.startJob('00000000-0000-4000-8000-000000000000')).rejects.toThrow(/No calendar/);
    s.close();
  });
});
