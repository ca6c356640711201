/**
 * The jobs page (systemId 'inferenceJobs') — spec §2 /jobs, §3 Job, §4 "Job events" (started, error,
 * deploying; stop, delete, multiple deletion): the user's jobs with their last reported state, the start form
 * (an application, a device, one of its cameras), one inferenceStart actor spawned per start (§4 "Starting an
 * inference connection"), stop, delete and delete several after a confirmation.
 *
 * Regions: `list` (idle → loading → ready | failed; `jobs.refresh`; a job created while a load was in flight
 * is kept), `form` (closed → loadingOptions → editing ⇄ loadingCameras → creating → closed, the new job's start
 * spawned; picking BEST_DEVICE goes through `scoring`: each online device's §9 score is read and the lowest
 * chosen, the scores shown), `op` (idle → confirming → working → idle; stop needs no confirmation;
 * `job.restart` → restarting, which loads the applications first when this session has none, so a restart
 * after a reload is never a silent no-op). A start's reports (`start.reported`) update its row at once.
 * Pure: the calls are provided actors. Tags: `busy`. Context and helpers: jobsContext.ts.
 */
import { assign, emit, enqueueActions } from 'xstate';
import { errorText } from '../notifications/emitted';
import { chosenByScore, draftProblem, EMPTY_DRAFT, INITIAL, mergeLoaded, withJob } from './jobsContext';

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

import { jobsSetup } from './jobs.setup';

export const jobsMachine = jobsSetup.createMachine({
  id: 'inferenceJobs',
  context: INITIAL,
  type: 'parallel',
  on: {
    'jobs.reset': {
      target: '.list.idle',
      actions: enqueueActions(({ context, enqueue }) => {
        for (const ref of Object.values(context.starts)) enqueue.stopChild(ref);
        enqueue.assign(INITIAL);
      }),
    },
    'job.select': {
      actions: assign({
        selected: ({ context, event }) =>
          event.selected
            ? [...new Set([...context.selected, event.id])]
            : context.selected.filter((id) => id !== event.id),
      }),
    },
    'start.cancel': {
      actions: ({ context, event }) => context.starts[event.id]?.send({ type: 'start.cancel' }),
    },
    'start.finished': { actions: enqueueActions(({ enqueue }) => enqueue.raise({ type: 'jobs.refresh' })) },
    'start.reported': { actions: assign({ jobs: ({ context, event }) => withJob(context.jobs, event.job) }) },
    // §4 step 7: a stream page start whose connection failed; the stream page view navigates.
    'start.navigate': {
      actions: emit(({ event }) => ({ type: 'navigate' as const, to: event.to, jobId: event.jobId })),
    },
  },
  states: {
    list: {
      initial: 'idle',
      states: {
        idle: { on: { 'jobs.load': 'loading' } },
        loading: {
          tags: ['busy'],
          // A refresh asked while loading (a start finished, an action done) loads again: never dropped.
          on: { 'jobs.refresh': { target: 'loading', reenter: true } },
          invoke: {
            id: 'loadJobs',
            src: 'loadJobs',
            onDone: {
              target: 'ready',
              actions: assign(({ context, event }) => ({
                jobs: mergeLoaded(event.output, context.jobs, context.fresh),
                fresh: [],
                lastUpdate: Date.now(),
                error: null,
                selected: context.selected.filter((id) => event.output.some((j) => j.id === id)),
              })),
            },
            onError: {
              target: 'failed',
              actions: assign({
                error: ({ event }) => errorText(event.error, 'The jobs could not be read.'),
              }),
            },
          },
        },
        ready: { on: { 'jobs.load': 'loading', 'jobs.refresh': 'loading' } },
        failed: { on: { 'jobs.load': 'loading', 'jobs.refresh': 'loading' } },
      },
    },
    form: {
      initial: 'closed',
      states: {
        closed: {
          on: {
            'form.open': {
              target: 'loadingOptions',
              actions: assign(({ event }) => ({
                draft: { ...EMPTY_DRAFT, ...(event.preset ?? {}) },
                formError: null,
                formOrigin: event.origin ?? ('jobs' as const),
              })),
            },
          },
        },
        loadingOptions: {
          on: {
            'form.close': 'closed',
            // A name typed while the lists load is kept (the lists arrive into the draft, not over it).
            'form.set': {
              actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.patch } })),
            },
          },
          invoke: {
            id: 'loadOptions',
            src: 'loadOptions',
            onDone: [
              {
                // A preset device (the stream page): its cameras are read next, keeping the preset camera.
                guard: 'devicePreset',
                target: 'loadingCameras',
                actions: { type: 'optionsLoaded', params: ({ event }) => event.output },
              },
              {
                target: 'editing',
                actions: { type: 'optionsLoaded', params: ({ event }) => event.output },
              },
            ],
            onError: {
              target: 'editing',
              actions: assign({
                formError: ({ event }) => errorText(event.error, 'The form could not load.'),
              }),
            },
          },
        },
        editing: {
          on: {
            'form.close': 'closed',
            'form.set': [
              {
                guard: 'pickBest',
                target: 'scoring',
                actions: assign(({ context, event }) => ({
                  draft: { ...context.draft, ...event.patch, camera_id: '' },
                  cameras: [],
                  scores: [],
                  chosen: null,
                })),
              },
              {
                guard: 'deviceChanged',
                target: 'loadingCameras',
                actions: assign(({ context, event }) => ({
                  draft: { ...context.draft, ...event.patch, camera_id: '' },
                  cameras: [],
                })),
              },
              { actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.patch } })) },
            ],
            'form.submit': [
              { guard: 'draftOk', target: 'creating' },
              {
                actions: assign({
                  formError: ({ context }) => `${draftProblem(context.draft)} is required`,
                }),
              },
            ],
          },
        },
        /** §9: every online device's score read; the lowest chosen (shown with the scores). */
        scoring: {
          on: {
            'form.close': 'closed',
            // Typing goes on while the scores are read; the device is the one they choose.
            'form.set': {
              actions: assign(({ context, event }) => ({
                draft: { ...context.draft, ...event.patch, device_id: context.draft.device_id },
              })),
            },
          },
          invoke: {
            id: 'scoreDevices',
            src: 'scoreDevices',
            input: ({ context }) => ({ devices: context.devices.filter((d) => d.online !== false) }),
            onDone: [
              {
                guard: 'scoredOne',
                target: 'loadingCameras',
                actions: assign(({ context, event }) => {
                  const chosen = chosenByScore(event.output);
                  return {
                    scores: event.output,
                    chosen,
                    draft: { ...context.draft, device_id: chosen ?? '' },
                  };
                }),
              },
              {
                target: 'editing',
                actions: assign(({ context, event }) => ({
                  scores: event.output,
                  draft: { ...context.draft, device_id: '' },
                  formError: 'No device answered with its load.',
                })),
              },
            ],
            onError: {
              target: 'editing',
              actions: assign(({ context, event }) => ({
                draft: { ...context.draft, device_id: '' },
                formError: errorText(event.error, 'No device answered with its load.'),
              })),
            },
          },
        },
        loadingCameras: {
          on: {
            'form.close': 'closed',
            'form.set': {
              reenter: true,
              target: 'loadingCameras',
              actions: assign(({ context, event }) => ({ draft: { ...context.draft, ...event.patch } })),
            },
          },
          invoke: {
            id: 'loadCameras',
            src: 'loadCameras',
            input: ({ context }) => ({ deviceId: context.draft.device_id }),
            onDone: {
              target: 'editing',
              actions: assign(({ context, event }) => ({
                cameras: event.output,
                // The chosen camera stays when the device has it (a preset); else the first one.
                draft: {
                  ...context.draft,
                  camera_id: event.output.some((c) => c.camera_id === context.draft.camera_id)
                    ? context.draft.camera_id
                    : (event.output[0]?.camera_id ?? ''),
                },
                formError: null,
              })),
            },
            onError: {
              target: 'editing',
              actions: assign({
                formError: ({ event }) => errorText(event.error, 'The device’s cameras could not be read.'),
              }),
            },
          },
        },
        creating: {
          tags: ['busy'],
          invoke: {
            id: 'createJob',
            src: 'createJob',
            input: ({ context }) => {
              const camera = context.cameras.find((c) => c.camera_id === context.draft.camera_id);
              return {
                job_name: context.draft.job_name.trim(),
                application_id: context.draft.application_id,
                device_id: context.draft.device_id,
                camera_id: context.draft.camera_id,
                camera_label: camera?.name ?? '',
                recording: context.draft.recording,
                ...(context.draft.threshold === null ? {} : { threshold: context.draft.threshold }),
              };
            },
            onDone: {
              target: 'closed',
              actions: [
                assign(({ context, event }) => ({
                  jobs: withJob(context.jobs, event.output),
                  fresh: [...new Set([...context.fresh, event.output.id])],
                })),
                {
                  type: 'spawnStart',
                  params: ({ context, event }) => ({
                    job: event.output,
                    onStreamPage: context.formOrigin === 'streamPage',
                  }),
                },
              ],
            },
            onError: {
              target: 'editing',
              actions: assign({
                formError: ({ event }) => errorText(event.error, 'The job could not be created.'),
              }),
            },
          },
        },
      },
    },
    op: {
      initial: 'idle',
      states: {
        idle: {
          on: {
            'job.stop': {
              guard: 'knownJob',
              target: 'working',
              actions: assign({ op: ({ event }) => ({ kind: 'stop' as const, ids: [event.id] }) }),
            },
            'job.restart': [
              {
                guard: 'canRestartNow',
                actions: {
                  type: 'spawnStart',
                  params: ({ context, event }) => ({ job: context.jobs.find((j) => j.id === event.id)! }),
                },
              },
              {
                guard: 'knownJob',
                target: 'restarting',
                actions: assign({ restartId: ({ event }) => event.id }),
              },
            ],
            'job.delete': {
              guard: 'knownJob',
              target: 'confirming',
              actions: assign({ op: ({ event }) => ({ kind: 'delete' as const, ids: [event.id] }) }),
            },
            'jobs.deleteSelected': {
              guard: 'hasSelection',
              target: 'confirming',
              actions: assign({
                op: ({ context }) => ({ kind: 'deleteMany' as const, ids: [...context.selected] }),
              }),
            },
          },
        },
        /** A restart with no applications loaded yet (after a reload): load them, then start. */
        restarting: {
          tags: ['busy'],
          invoke: {
            id: 'loadRestartOptions',
            src: 'loadOptions',
            onDone: {
              target: 'idle',
              actions: [
                assign(({ event }) => ({
                  applications: event.output.applications,
                  devices: event.output.devices,
                })),
                {
                  type: 'spawnStart',
                  params: ({ context }) => ({ job: context.jobs.find((j) => j.id === context.restartId) }),
                },
                assign({ restartId: null }),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ event }) => ({
                  type: 'notice' as const,
                  variant: 'danger' as const,
                  title: 'Job action failed',
                  message: errorText(event.error, 'The job action failed.'),
                  i18n: { title: { key: 'inference.opFailed' } },
                })),
                assign({ restartId: null }),
              ],
            },
          },
        },
        confirming: {
          on: {
            'op.confirm': 'working',
            'op.cancel': { target: 'idle', actions: assign({ op: null }) },
          },
        },
        working: {
          tags: ['busy'],
          entry: ({ context }) =>
            context.op!.ids.forEach((id) => context.starts[id]?.send({ type: 'start.cancel' })),
          invoke: {
            id: 'runOp',
            src: 'runOp',
            input: ({ context }) => ({
              op: context.op!,
              jobs: context.jobs.filter((j) => context.op!.ids.includes(j.id)),
            }),
            onDone: {
              target: 'idle',
              actions: [
                emit(({ context }) => ({
                  type: 'notice' as const,
                  variant: 'success' as const,
                  title: context.op!.kind === 'stop' ? 'Job stopped' : 'Jobs deleted',
                  message: context.jobs
                    .filter((j) => context.op!.ids.includes(j.id))
                    .map((j) => j.job_name)
                    .join(', '),
                  i18n: {
                    title: { key: context.op!.kind === 'stop' ? 'inference.stopped' : 'inference.deleted' },
                  },
                })),
                assign(({ context }) => ({
                  selected: context.op!.kind === 'stop' ? context.selected : [],
                  op: null,
                })),
                enqueueActions(({ enqueue }) => enqueue.raise({ type: 'jobs.refresh' })),
              ],
            },
            onError: {
              target: 'idle',
              actions: [
                emit(({ event }) => ({
                  type: 'notice' as const,
                  variant: 'danger' as const,
                  title: 'Job action failed',
                  message: errorText(event.error, 'The job action failed.'),
                  i18n: { title: { key: 'inference.opFailed' } },
                })),
                assign({ op: null }),
                enqueueActions(({ enqueue }) => enqueue.raise({ type: 'jobs.refresh' })),
              ],
            },
          },
        },
      },
    },
  },
});
