/**
 * The jobs actor's implementations (spec §2 /jobs, §3 Job, §4 "Job events", §9 device score): its actors
 * (provided by the console), guards and the spawn of a start, set up for jobs.machine.ts, which holds the chart.
 */
import { assign, enqueueActions, fromPromise, setup } from 'xstate';
import type { Application } from '../../src/protocol/applications';
import type { DeviceCamera } from '../../src/protocol/cameras';
import type { Job, JobCreateBody } from '../../src/protocol/inference';
import { type ConsoleEmitted } from '../notifications/emitted';
import { inferenceStartMachine } from './inferenceStart.machine';
import {
  BEST_DEVICE,
  chosenByScore,
  draftProblem,
  type DeviceScoreRow,
  type JobDevice,
  type JobOp,
  type JobsContext,
  type JobsEvent,
} from './jobsContext';

export {
  BEST_DEVICE,
  draftProblem,
  type DeviceScoreRow,
  type JobDevice,
  type JobDraft,
  type JobOp,
  type JobsContext,
  type JobsEvent,
} from './jobsContext';

export const jobsSetup = setup({
  types: {
    context: {} as JobsContext,
    events: {} as JobsEvent,
    emitted: {} as ConsoleEmitted | { type: 'navigate'; to: string; jobId: string },
  },
  actors: {
    start: inferenceStartMachine,
    loadJobs: fromPromise<Job[]>(async () => {
      throw new Error('jobs: loadJobs is not provided');
    }),
    loadOptions: fromPromise<{ applications: Application[]; devices: JobDevice[] }>(async () => {
      throw new Error('jobs: loadOptions is not provided');
    }),
    loadCameras: fromPromise<DeviceCamera[], { deviceId: string }>(async () => {
      throw new Error('jobs: loadCameras is not provided');
    }),
    /** §9 scores of the online devices (null score: it did not answer with its load). */
    scoreDevices: fromPromise<DeviceScoreRow[], { devices: JobDevice[] }>(async () => {
      throw new Error('jobs: scoreDevices is not provided');
    }),
    createJob: fromPromise<Job, JobCreateBody>(async () => {
      throw new Error('jobs: createJob is not provided');
    }),
    /** Stops the jobs on their devices (inference-stop), reports them stopped; delete: also forgets them. */
    runOp: fromPromise<unknown, { op: JobOp; jobs: Job[] }>(async () => {
      throw new Error('jobs: runOp is not provided');
    }),
  },
  guards: {
    draftOk: ({ context }) => draftProblem(context.draft) === null,
    pickBest: ({ event }) => event.type === 'form.set' && event.patch.device_id === BEST_DEVICE,
    deviceChanged: ({ context, event }) =>
      event.type === 'form.set' &&
      event.patch.device_id !== undefined &&
      event.patch.device_id !== context.draft.device_id &&
      event.patch.device_id !== '',
    scoredOne: ({ event }) => 'output' in event && chosenByScore(event.output as DeviceScoreRow[]) !== null,
    canRestartNow: ({ context, event }) =>
      event.type === 'job.restart' &&
      context.jobs.some((j) => j.id === event.id) &&
      context.applications.length > 0,
    hasSelection: ({ context }) => context.selected.length > 0,
    knownJob: ({ context, event }) => 'id' in event && context.jobs.some((j) => j.id === event.id),
    devicePreset: ({ context }) => context.draft.device_id !== '' && context.draft.device_id !== BEST_DEVICE,
  },
  actions: {
    /** The form's lists arrived; the first application is chosen. */
    optionsLoaded: assign(({ context }, output: { applications: Application[]; devices: JobDevice[] }) => ({
      applications: output.applications,
      devices: output.devices,
      draft: { ...context.draft, application_id: output.applications[0]?.id ?? '' },
    })),
    spawnStart: enqueueActions(
      ({ context, enqueue, self }, params: { job: Job | undefined; onStreamPage?: boolean }) => {
        if (!params.job) return;
        const job = params.job;
        const app = context.applications.find((a) => a.id === job.application_id);
        if (!app) {
          // Never a silent no-op: the row would keep its state with nothing running.
          enqueue.emit({
            type: 'notice',
            variant: 'danger',
            title: 'Job action failed',
            message: 'The job’s application no longer exists.',
            i18n: { title: { key: 'inference.opFailed' } },
          });
          return;
        }
        const previous = context.starts[job.id];
        if (previous) enqueue.stopChild(previous);
        enqueue.assign({
          starts: ({ context: c, spawn }) => ({
            ...c.starts,
            [job.id]: spawn('start', {
              id: `start-${job.id}`,
              input: {
                job: job,
                application: app,
                deviceLabel: job.device_label,
                onStreamPage: params.onStreamPage ?? false,
                reportTo: self,
              },
            }),
          }),
        });
      },
    ),
  },
});
