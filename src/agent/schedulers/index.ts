/**
 * The device's scheduler (issue 10 schedulers; spec §7 scheduling-calendar-operation, §4 step 4 / §7
 * start-scheduled-job): the calendars the device was sent, kept in `<stateDir>/schedulers.json` so they
 * survive an agent restart, and one timer per calendar that starts the calendar's jobs at each 'start' edge
 * and stops them at each 'stop' edge (src/protocol/schedulers.ts calendarState). It runs on the device's own
 * clock, so a schedule goes on while no browser is open.
 *
 * Starting and stopping a job is the inference part's work; this part needs only JobRunner. A start or stop
 * that fails is logged and kept as the calendar's last_error (shown on the page); the next edge still fires.
 */
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import type { StartOptions } from '../../protocol/inference';
import { calendarState, DeviceCalendar, type DeviceCalendarStatus } from '../../protocol/schedulers';
import type { Logger } from '../log';

/** What the scheduler needs from the inference part: start a job from its options with no browser, stop it. */
export interface JobRunner {
  /** Starts the job now (§4 step 4 "started directly"); rejects with the reason it cannot. */
  start(options: StartOptions): Promise<void>;
  /** false when it was not running. */
  stop(jobId: string): boolean;
  /** Ids of the jobs running now. */
  running(): string[];
}

/** The clock the scheduler reads and sets timers on (tests: a fake one). */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/** Longest single timer, ms (Node's limit is 2^31-1; edges further away re-arm on the way). */
const TIMER_MAX_MS = 6 * 60 * 60 * 1000;

export interface DeviceSchedulers {
  /** scheduling-calendar-operation create/update: stores the calendar and applies its state now. */
  put(calendar: DeviceCalendar): Promise<DeviceCalendarStatus[]>;
  /** scheduling-calendar-operation delete: false when the device did not hold it. Its jobs are left as they are. */
  remove(id: string): boolean;
  /** Every calendar's state. */
  list(): DeviceCalendarStatus[];
  /** start-scheduled-job: starts a job some calendar holds; false when it was running already. */
  startJob(jobId: string): Promise<boolean>;
  close(): void;
}

const Stored = z.object({ calendars: z.array(DeviceCalendar) });

export function createDeviceSchedulers(deps: {
  stateDir: string;
  log: Logger;
  runner: JobRunner;
  clock?: Clock;
}): DeviceSchedulers {
  const { log, runner } = deps;
  const clock = deps.clock ?? systemClock;
  const file = join(deps.stateDir, 'schedulers.json');
  const calendars = new Map<string, DeviceCalendar>();
  const timers = new Map<string, unknown>();
  const errors = new Map<string, string | null>();
  let closed = false;

  try {
    const parsed = Stored.safeParse(JSON.parse(readFileSync(file, 'utf8')));
    if (parsed.success) for (const c of parsed.data.calendars) calendars.set(c.id, c);
    else log.warn(`schedulers: ${file} is not a calendar list; starting with none`);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      log.warn(`schedulers: cannot read ${file}: ${String(err)}`);
  }

  function save(): void {
    mkdirSync(deps.stateDir, { recursive: true });
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ calendars: [...calendars.values()] }), { mode: 0o600 });
    renameSync(tmp, file);
  }

  function status(c: DeviceCalendar): DeviceCalendarStatus {
    const s = calendarState(c, clock.now());
    return { id: c.id, active: s.active, next: s.next, last_error: errors.get(c.id) ?? null };
  }

  /**
   * Arms the timer for the calendar's next edge, then brings its jobs to the state the calendar says now. The
   * timer is armed first: a start can take long (its stages, its `started` report and that report's retries),
   * and the stop edge must fire whatever the start is still doing (before, a start whose `started` report
   * waited left the stop edge unarmed, and the job ran on past its calendar's end).
   */
  async function apply(id: string): Promise<void> {
    const c = calendars.get(id);
    if (!c || closed) return;
    arm(c);
    const s = calendarState(c, clock.now());
    const running = new Set(runner.running());
    const failures: string[] = [];
    for (const job of c.jobs) {
      const jobId = job.job_id;
      if (s.active && !running.has(jobId)) {
        try {
          await runner.start(job);
          log.info(`schedulers: calendar ${c.name} started job ${jobId}`);
        } catch (err) {
          failures.push(`${job.job_name || jobId}: ${err instanceof Error ? err.message : String(err)}`);
        }
      } else if (!s.active && running.has(jobId)) {
        runner.stop(jobId);
        log.info(`schedulers: calendar ${c.name} stopped job ${jobId}`);
      }
    }
    if (failures.length) {
      errors.set(id, failures.join('; '));
      log.warn(`schedulers: calendar ${c.name}: ${failures.join('; ')}`);
    } else errors.set(id, null);
  }

  function arm(c: DeviceCalendar): void {
    const old = timers.get(c.id);
    if (old !== undefined) clock.clearTimeout(old);
    timers.delete(c.id);
    if (closed) return;
    const next = calendarState(c, clock.now()).next;
    if (!next) return;
    const wait = Math.min(TIMER_MAX_MS, Math.max(0, next.at - clock.now()));
    timers.set(
      c.id,
      clock.setTimeout(() => {
        timers.delete(c.id);
        void apply(c.id);
      }, wait),
    );
  }

  for (const id of calendars.keys()) void apply(id);

  return {
    async put(calendar) {
      calendars.set(calendar.id, calendar);
      save();
      await apply(calendar.id);
      return [...calendars.values()].map(status);
    },
    remove(id) {
      const had = calendars.delete(id);
      const t = timers.get(id);
      if (t !== undefined) clock.clearTimeout(t);
      timers.delete(id);
      errors.delete(id);
      if (had) save();
      return had;
    },
    list: () => [...calendars.values()].map(status),
    async startJob(jobId) {
      const job = [...calendars.values()].flatMap((c) => c.jobs).find((j) => j.job_id === jobId);
      if (!job) throw new Error(`No calendar on this device schedules job ${jobId}`);
      if (runner.running().includes(jobId)) return false;
      await runner.start(job);
      return true;
    },
    close() {
      closed = true;
      for (const t of timers.values()) clock.clearTimeout(t);
      timers.clear();
    },
  };
}

/**
 * The JobRunner over the inference part (src/agent/inference/): a start is its startScheduled (§4 step 4, the
 * stages run on the device with no console; scheduled.ts), a stop its stopScheduled (both report the job's
 * state to the server), the running list its inference-jobs. A part without startScheduled rejects the start
 * with that reason, which the calendar shows as its last_error.
 */
export function inferenceJobRunner(inference: {
  stop(jobId: string): boolean;
  jobs(): { job_id: string }[];
  startScheduled?: (options: StartOptions) => Promise<void>;
  stopScheduled?: (jobId: string) => boolean;
}): JobRunner {
  return {
    start: (options) =>
      inference.startScheduled
        ? inference.startScheduled(options)
        : Promise.reject(new Error('This device cannot start a job without its start connection yet')),
    stop: (jobId) => (inference.stopScheduled ? inference.stopScheduled(jobId) : inference.stop(jobId)),
    running: () => inference.jobs().map((j) => j.job_id),
  };
}
