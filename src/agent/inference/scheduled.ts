/**
 * Jobs the device starts by itself (spec §4 step 4 "A scheduled job is started directly
 * (`start-scheduled-job`)"; issue 10 "jobs that start and stop on schedule"). A calendar's start edge
 * (src/agent/schedulers/) asks for a job with its start options and no console is there: no start connection,
 * no data channel. The same engine stages the console's start walks (§4 step 5: file check → build model →
 * prepare model → warm-up [+ recording] → start inference) run here one after the other, and the job then runs
 * as a console-started one does (a viewer of its camera, detections to every metadata connection).
 *
 * The job's §4 events reach the server as the console-started path's do, as its state and runtime fields
 * (inference_jobs.state / runtime), but from the device (PUT /api/device/jobs/:id/state, device token):
 * `deploying` when the stages begin, `started` with the runtime fields the stages learnt (jobId, childJobId,
 * port, scriptPath, inferenceUrl, containerName, message), `error` with `inferenceEngineError` when the engine
 * refuses or a stage fails, and `stopped` at the calendar's stop edge. A report that fails is logged; the job
 * runs regardless.
 */
import type { JobRuntime, JobStateBody, StartOptions } from '../../protocol/inference';
import type { CameraDevice } from '../backends/types';
import { errorMessage, type Logger } from '../log';
import type { InferenceEngine, PreparedJob, StageOutcome } from './engine';

/** Sends one §4 job event of a job this device started or stopped on its own. Never throws. */
export type JobStateReporter = (jobId: string, body: JobStateBody) => Promise<void>;

/** Longest wait for one report to the server, ms. */
export const JOB_REPORT_TIMEOUT_MS = 10_000;
/**
 * Waits before the second and third try of a report that failed (no answer, or 429/5xx), ms: a lost `stopped`
 * would leave the job shown running after its calendar stopped it.
 */
export const JOB_REPORT_RETRY_MS = [1_000, 4_000] as const;

/** The reporter over the server's device route (PUT /api/device/jobs/:id/state with the device token). */
export function serverJobReporter(
  server: { url: string; token: string } | undefined,
  log: Logger,
  doFetch: typeof fetch = fetch,
  retryDelaysMs: readonly number[] = JOB_REPORT_RETRY_MS,
): JobStateReporter {
  return async (jobId, body) => {
    if (!server) return;
    const base = server.url.endsWith('/') ? server.url : `${server.url}/`;
    for (let attempt = 0; ; attempt++) {
      let problem: string;
      try {
        const res = await doFetch(new URL(`api/device/jobs/${encodeURIComponent(jobId)}/state`, base), {
          method: 'PUT',
          headers: { Authorization: `Token ${server.token}`, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(JOB_REPORT_TIMEOUT_MS),
        });
        if (res.ok) return;
        problem = `was answered ${res.status}`;
        // A refusal (bad token, unknown job, invalid body) is not tried again.
        if (res.status < 500 && res.status !== 429) attempt = retryDelaysMs.length;
      } catch (err) {
        problem = `failed: ${errorMessage(err)}`;
      }
      const delay = retryDelaysMs[attempt];
      if (delay === undefined) {
        log.warn(`scheduled job ${jobId}: the ${body.state} report ${problem}`);
        return;
      }
      log.warn(`scheduled job ${jobId}: the ${body.state} report ${problem}; trying again in ${delay} ms`);
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  };
}

export interface ScheduledDeps {
  log: Logger;
  /** The job's engine (its options' engine, else the device's default); throws when the device has none. */
  engineOf(id: string | null): InferenceEngine;
  camera(id: string): CameraDevice | undefined;
  /** start-inference of a prepared job (DeviceInference's own): the job runs from here on. */
  startJob(job: PreparedJob, engine: InferenceEngine): Promise<StageOutcome>;
  /** inference-stop. */
  stop(jobId: string): boolean;
  report: JobStateReporter;
}

export interface ScheduledStarts {
  /** Runs the stages and starts the job; rejects with the reason (already reported as the job's error). */
  start(options: StartOptions): Promise<void>;
  /** Stops the job (a preparation in flight is canceled); reports `stopped`. false when it was not running. */
  stop(jobId: string): boolean;
  close(): void;
}

export function createScheduledStarts(deps: ScheduledDeps): ScheduledStarts {
  const preparing = new Map<string, AbortController>();
  const noProgress = () => undefined;

  async function run(options: StartOptions, abort: AbortController): Promise<void> {
    const id = options.job_id;
    const runtime: Partial<JobRuntime> = { inferenceEngineError: null };
    const fail = async (message: string): Promise<never> => {
      await deps.report(id, {
        state: 'error',
        runtime: { ...runtime, inferenceEngineError: message, message: null, port: null },
      });
      throw new Error(message);
    };
    const camera = deps.camera(options.camera_id);
    if (!camera) return fail(`Camera ${options.camera_id} does not exist on this device`);
    let engine: InferenceEngine;
    try {
      engine = deps.engineOf(options.engine);
    } catch (err) {
      return fail(errorMessage(err));
    }
    const problem = await engine.check(options);
    if (problem) return fail(problem);
    await deps.report(id, {
      state: 'deploying',
      runtime: { inferenceEngineError: null, message: 'started by its calendar' },
      engine: engine.id,
    });
    const job: PreparedJob = { options, camera, state: {} };
    const signal = abort.signal;
    try {
      for (const stage of [engine.fileCheck, engine.buildModel, engine.prepareModel, engine.warmUp]) {
        const outcome = await stage.call(engine, job, noProgress, signal);
        Object.assign(runtime, outcome.runtime);
      }
      if (signal.aborted) throw new Error('Process has been canceled');
      Object.assign(runtime, (await deps.startJob(job, engine)).runtime);
      if (signal.aborted) {
        deps.stop(id); // stopped while it was starting
        throw new Error('Process has been canceled');
      }
    } catch (err) {
      deps.log.warn(`scheduled job ${id}: ${errorMessage(err)}`);
      return fail(errorMessage(err));
    }
    deps.log.info(`scheduled job ${id} started on ${engine.id}`);
    await deps.report(id, {
      state: 'started',
      runtime: { ...runtime, message: `${runtime.message ?? `running on ${engine.id}`} (scheduled)` },
      engine: engine.id,
    });
  }

  return {
    async start(options) {
      const id = options.job_id;
      preparing.get(id)?.abort();
      const abort = new AbortController();
      preparing.set(id, abort);
      try {
        await run(options, abort);
      } finally {
        if (preparing.get(id) === abort) preparing.delete(id);
      }
    },
    stop(jobId) {
      const prep = preparing.get(jobId);
      prep?.abort();
      preparing.delete(jobId);
      const had = deps.stop(jobId);
      if (had || prep)
        void deps.report(jobId, {
          state: 'stopped',
          runtime: { port: null, message: 'stopped by its calendar' },
        });
      return had;
    },
    close() {
      for (const a of preparing.values()) a.abort();
      preparing.clear();
    },
  };
}
