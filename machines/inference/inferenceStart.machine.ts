/**
 * The inference start handshake — spec §4 "Starting an inference connection" (steps 1–7), §4 "Job events"
 * (deploying, started, error), §8 inference texts, §9 stream engine answer wait 60 s / polling 500 ms. One actor
 * per start, spawned by the jobs actor under the root system.
 *
 * alarms (1: alarm-new with the alarms the device should know; alarms are a later issue, so the list is
 * empty today) → calendars (1: assign calendars to alarms — skipped when there are no alarms) → checking (2:
 * inference-check; an inferenceEngineError stops here: job error + the §8 "Warning: {device label}" dialog)
 * → deploying (3: start options built in context; the job reported `deploying`) → negotiating (5: one peer
 * connection with a data channel, the `channel` actor; the stages fileCheck → buildModel → prepareModel →
 * warmUp [+ prepare recording] → startInference [+ request metadata], each asked on the channel, each with its
 * elapsed time; a stage whose heartbeat stops for START_STALL_MS is flagged stalled, one silent for
 * START_SILENCE_FAIL_MS fails with §8 "Could not get an answer from the device"; results carry the call id, 6)
 * → waitingPort (the job's stream-engine port, polled every 500 ms for up to 60 s) → reporting (the job
 * reported `started`) → started. Leaving `negotiating` closes the negotiation connection.
 * 7: the channel's peer connection failing restarts the job once with the deep-stream engine; on a stream page
 * (input.onStreamPage) it instead records the job as failed and emits `navigate` to /control-panel/cameras.
 * `start.cancel` ends it (§8 "Process has been canceled"). Step 4 (a scheduled job started directly with
 * start-scheduled-job) belongs to schedulers, not built yet: every start here is a connection start.
 */
import { assign, emit, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import type { Application } from '../../src/protocol/applications';
import {
  INFERENCE_TEXTS,
  START_SILENCE_FAIL_MS,
  START_STALL_MS,
  type Alarm,
  type ControlMessage,
  type Job,
  type JobRuntime,
  type JobState,
  type StartOptions,
  type StartStep,
} from '../../src/protocol/inference';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';
import { buildStartOptions, initialStages, STAGE_OF_STEP, type Stage } from './stages';

export interface InferenceStartInput {
  job: Job;
  application: Application;
  /** §8 title "Warning: {device label}". */
  deviceLabel: string;
  /** Started from a stream page (§4 step 7: a failed peer connection returns to /control-panel/cameras). */
  onStreamPage?: boolean;
  /** Who hears `start.finished` (the jobs actor); null when run alone. */
  reportTo?: { send(event: { type: 'start.finished'; jobId: string; ok: boolean }): void } | null;
}

export interface InferenceStartContext {
  job: Job;
  application: Application;
  deviceLabel: string;
  onStreamPage: boolean;
  reportTo: InferenceStartInput['reportTo'];
  alarms: Alarm[];
  options: StartOptions;
  /** Engines the device offers (inference-check). */
  engines: { default: string; deepStream: string } | null;
  /** The negotiation's call id (§3 Stream.callId); a new one per attempt. */
  callId: string;
  attempt: number;
  stages: Stage[];
  runtime: Partial<JobRuntime>;
  error: string | null;
  /** The state reported to the server last (reporting actor's input). */
  report: { state: JobState; runtime: Partial<JobRuntime>; engine?: string } | null;
  startedAt: number;
  finishedAt: number | null;
}

/** What the channel actor reports. */
export type ChannelEvent =
  | { type: 'channel.open' }
  | { type: 'channel.message'; message: ControlMessage }
  | { type: 'channel.failed'; error: string }
  | { type: 'channel.closed' };

export type InferenceStartEvent = ChannelEvent | { type: 'start.cancel' };

/** What the channel actor obeys: ask a step (with its companion request). */
export interface ChannelCommand {
  type: 'channel.request';
  step: StartStep;
  with?: 'prepare-recording' | 'request-metadata';
  options: StartOptions;
  callId: string;
}

const now = () => Date.now();

export const inferenceStartMachine = setup({
  types: {
    context: {} as InferenceStartContext,
    events: {} as InferenceStartEvent,
    input: {} as InferenceStartInput,
    emitted: {} as ConsoleEmitted | { type: 'navigate'; to: string },
  },
  actors: {
    sendAlarms: fromPromise<{ count: number }, { deviceId: string; alarms: Alarm[] }>(async () => {
      throw new Error('inferenceStart: sendAlarms is not provided');
    }),
    assignCalendars: fromPromise<unknown, { alarms: Alarm[]; job: Job }>(async () => {
      throw new Error('inferenceStart: assignCalendars is not provided');
    }),
    checkEngine: fromPromise<
      { inferenceEngineError: string | null; engines: { default: string; deepStream: string } },
      { deviceId: string; options: StartOptions }
    >(async () => {
      throw new Error('inferenceStart: checkEngine is not provided');
    }),
    reportState: fromPromise<
      Job,
      { jobId: string; state: JobState; runtime: Partial<JobRuntime>; engine?: string }
    >(async () => {
      throw new Error('inferenceStart: reportState is not provided');
    }),
    channel: fromCallback<ChannelCommand, { deviceId: string; callId: string }>(() => {
      throw new Error('inferenceStart: channel is not provided');
    }),
    waitPort: fromPromise<{ port: number }, { deviceId: string; streamId: string }>(async () => {
      throw new Error('inferenceStart: waitPort is not provided');
    }),
  },
  guards: {
    hasAlarms: ({ context }) => context.alarms.length > 0,
    stillStarting: ({ context }) => context.finishedAt === null && context.error === null,
    engineError: ({ event }) =>
      'output' in event && !!(event.output as { inferenceEngineError?: string | null }).inferenceEngineError,
    isResultOk: ({ event }) =>
      event.type === 'channel.message' && event.message.type === 'result' && event.message.ok,
    isResultFailed: ({ event }) =>
      event.type === 'channel.message' && event.message.type === 'result' && !event.message.ok,
    isLastStage: ({ event }) =>
      event.type === 'channel.message' &&
      event.message.type === 'result' &&
      event.message.step === 'start-inference',
    canRestartDeepStream: ({ context }) =>
      !context.onStreamPage &&
      context.attempt === 1 &&
      !!context.engines &&
      context.options.engine !== context.engines.deepStream,
  },
  actions: {
    askNextStage: sendTo('channel', ({ context }): ChannelCommand => {
      const stage = context.stages.find((s) => s.state === 'running')!;
      return {
        type: 'channel.request',
        step: stage.step,
        ...(stage.step === 'warm-up' && context.options.recording
          ? { with: 'prepare-recording' as const }
          : {}),
        ...(stage.step === 'start-inference' ? { with: 'request-metadata' as const } : {}),
        options: context.options,
        callId: context.callId,
      };
    }),
    startFirstStage: assign({
      stages: ({ context }) =>
        context.stages.map((s, i) => (i === 0 ? { ...s, state: 'running', startedAt: now() } : s)),
    }),
    /** A heartbeat: the running stage's progress and detail; not stalled any more. */
    recordBeat: assign({
      stages: ({ context, event }) => {
        if (event.type !== 'channel.message' || event.message.type !== 'heartbeat') return context.stages;
        const m = event.message;
        return context.stages.map((s) =>
          s.step === m.step && s.state === 'running'
            ? { ...s, progress: m.progress, detail: m.detail ?? s.detail, stalled: false, lastBeatAt: now() }
            : s,
        );
      },
    }),
    markStalled: assign({
      stages: ({ context }) =>
        context.stages.map((s) => (s.state === 'running' ? { ...s, stalled: true } : s)),
    }),
    /** A stage's result ok: done with its elapsed time; the next one runs. */
    advanceStage: assign(({ context, event }) => {
      if (event.type !== 'channel.message' || event.message.type !== 'result') return {};
      const m = event.message;
      const t = now();
      const i = context.stages.findIndex((s) => s.step === m.step);
      const stages = context.stages.map((s, k) => {
        if (k === i)
          return {
            ...s,
            state: 'done' as const,
            elapsedMs: t - (s.startedAt ?? t),
            deviceMs: m.elapsed_ms,
            detail: m.detail,
            stalled: false,
          };
        if (k === i + 1) return { ...s, state: 'running' as const, startedAt: t };
        return s;
      });
      return { stages, runtime: { ...context.runtime, ...(m.runtime ?? {}) } };
    }),
    failStage: assign(({ context, event }) => {
      const error =
        event.type === 'channel.message' && event.message.type === 'result'
          ? (event.message.error ?? INFERENCE_TEXTS.startFailed)
          : event.type === 'channel.failed'
            ? event.error
            : INFERENCE_TEXTS.noAnswer;
      const t = now();
      return {
        error,
        stages: context.stages.map((s) =>
          s.state === 'running' ? { ...s, state: 'failed' as const, elapsedMs: t - (s.startedAt ?? t) } : s,
        ),
      };
    }),
    noAnswer: assign({ error: INFERENCE_TEXTS.noAnswer }),
    /** §4 step 7: a new attempt with the deep-stream engine. */
    useDeepStream: assign(({ context }) => ({
      attempt: context.attempt + 1,
      callId: `${context.job.id.slice(0, 8)}-${context.attempt + 1}-${Math.random().toString(36).slice(2, 8)}`,
      options: { ...context.options, engine: context.engines!.deepStream },
      stages: initialStages(),
      error: null,
    })),
    finish: assign({ finishedAt: () => now() }),
    tellFinished: ({ context }, params: { ok: boolean }) =>
      context.reportTo?.send({ type: 'start.finished', jobId: context.job.id, ok: params.ok }),
    /** §8 inference start warning (OK only), titled with the device label. */
    warnEngineError: emit(({ context }) => ({
      type: 'dialog' as const,
      title: INFERENCE_TEXTS.warningTitle(context.deviceLabel),
      message: INFERENCE_TEXTS.warning,
    })),
    noticeFailed: emit(({ context }) => ({
      type: 'notice' as const,
      variant: 'danger' as const,
      title: INFERENCE_TEXTS.issueReported,
      message: context.error ?? INFERENCE_TEXTS.startFailed,
    })),
    noticeCanceled: emit({
      type: 'notice' as const,
      variant: 'warning' as const,
      title: INFERENCE_TEXTS.canceled,
      message: INFERENCE_TEXTS.canceled,
    }),
    backToCameras: emit({ type: 'navigate' as const, to: '/control-panel/cameras' }),
  },
  delays: {
    STALL: START_STALL_MS,
    SILENCE: START_SILENCE_FAIL_MS,
    SILENT_AFTER_STALL: START_SILENCE_FAIL_MS - START_STALL_MS,
  },
}).createMachine({
  id: 'inferenceStart',
  context: ({ input }) => ({
    job: input.job,
    application: input.application,
    deviceLabel: input.deviceLabel,
    onStreamPage: input.onStreamPage ?? false,
    reportTo: input.reportTo ?? null,
    alarms: [],
    options: buildStartOptions(input.job, input.application),
    engines: null,
    callId: `${input.job.id.slice(0, 8)}-1-${Math.random().toString(36).slice(2, 8)}`,
    attempt: 1,
    stages: initialStages(),
    runtime: {},
    error: null,
    report: null,
    startedAt: now(),
    finishedAt: null,
  }),
  initial: 'alarms',
  on: { 'start.cancel': { guard: 'stillStarting', target: '.canceled' } },
  states: {
    alarms: {
      invoke: {
        id: 'sendAlarms',
        src: 'sendAlarms',
        input: ({ context }) => ({ deviceId: context.job.device_id, alarms: context.alarms }),
        onDone: [{ guard: 'hasAlarms', target: 'calendars' }, { target: 'checking' }],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, INFERENCE_TEXTS.noAnswer) }),
        },
      },
    },
    calendars: {
      invoke: {
        id: 'assignCalendars',
        src: 'assignCalendars',
        input: ({ context }) => ({ alarms: context.alarms, job: context.job }),
        onDone: 'checking',
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, INFERENCE_TEXTS.startFailed) }),
        },
      },
    },
    checking: {
      invoke: {
        id: 'checkEngine',
        src: 'checkEngine',
        input: ({ context }) => ({ deviceId: context.job.device_id, options: context.options }),
        onDone: [
          {
            guard: 'engineError',
            target: 'engineError',
            actions: assign(({ context, event }) => ({
              engines: event.output.engines,
              runtime: { ...context.runtime, inferenceEngineError: event.output.inferenceEngineError },
              error: event.output.inferenceEngineError,
            })),
          },
          {
            target: 'deploying',
            actions: assign(({ context, event }) => ({
              engines: event.output.engines,
              options: { ...context.options, engine: context.options.engine ?? event.output.engines.default },
            })),
          },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, INFERENCE_TEXTS.noAnswer) }),
        },
      },
    },
    /** §4 step 2: the engine reported an error — job error, the §8 warning (OK only). */
    engineError: {
      entry: 'warnEngineError',
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({ jobId: context.job.id, state: 'error', runtime: context.runtime }),
        onDone: 'rejected',
        onError: 'rejected',
      },
    },
    rejected: {
      type: 'final',
      entry: ['finish', { type: 'tellFinished', params: { ok: false } }],
    },
    deploying: {
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({
          jobId: context.job.id,
          state: 'deploying',
          runtime: { inferenceEngineError: null, message: null },
          engine: context.options.engine ?? undefined,
        }),
        onDone: 'negotiating',
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, INFERENCE_TEXTS.startFailed) }),
        },
      },
    },
    negotiating: {
      invoke: {
        id: 'channel',
        src: 'channel',
        input: ({ context }) => ({ deviceId: context.job.device_id, callId: context.callId }),
      },
      initial: 'connecting',
      on: {
        'channel.failed': [
          { guard: 'canRestartDeepStream', target: 'restarting', actions: 'failStage' },
          { target: 'connectionFailed', actions: 'failStage' },
        ],
        'channel.closed': { target: 'failed', actions: 'failStage' },
      },
      states: {
        connecting: {
          after: { SILENCE: { target: '#inferenceStart.failed', actions: 'noAnswer' } },
          on: { 'channel.open': { target: 'stage', actions: ['startFirstStage', 'askNextStage'] } },
        },
        stage: {
          initial: 'running',
          on: {
            'channel.message': [
              { guard: 'isResultFailed', target: '#inferenceStart.failed', actions: 'failStage' },
              { guard: 'isLastStage', target: '#inferenceStart.waitingPort', actions: 'advanceStage' },
              {
                guard: 'isResultOk',
                target: 'stage',
                reenter: true,
                actions: ['advanceStage', 'askNextStage'],
              },
              { target: '.running', reenter: true, actions: 'recordBeat' },
            ],
          },
          states: {
            running: { after: { STALL: { target: 'stalled', actions: 'markStalled' } } },
            /**
             * No heartbeat for START_STALL_MS: shown as stalled (never a silent spinner); silent until
             * START_SILENCE_FAIL_MS: §8 "Could not get an answer from the device".
             */
            stalled: {
              tags: ['stalled'],
              after: { SILENT_AFTER_STALL: { target: '#inferenceStart.failed', actions: 'failStage' } },
            },
          },
        },
      },
    },
    /** §4 step 7: the connection failed; the job starts again with the deep-stream engine. */
    restarting: {
      always: { target: 'negotiating', actions: 'useDeepStream' },
    },
    waitingPort: {
      invoke: {
        id: 'waitPort',
        src: 'waitPort',
        input: ({ context }) => ({ deviceId: context.job.device_id, streamId: context.job.id }),
        onDone: {
          target: 'reporting',
          actions: assign(({ context, event }) => ({
            runtime: { ...context.runtime, port: event.output.port },
          })),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, INFERENCE_TEXTS.noAnswer) }),
        },
      },
    },
    reporting: {
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({
          jobId: context.job.id,
          state: 'started',
          runtime: context.runtime,
          engine: context.options.engine ?? undefined,
        }),
        onDone: 'started',
        onError: 'started',
      },
    },
    started: {
      type: 'final',
      entry: ['finish', { type: 'tellFinished', params: { ok: true } }],
    },
    /** §4 step 7 on a stream page: the job is recorded failed and the page returns to the camera page. */
    connectionFailed: {
      always: { target: 'failed', actions: 'backToCameras' },
    },
    failed: {
      entry: 'noticeFailed',
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({
          jobId: context.job.id,
          state: 'error',
          runtime: { ...context.runtime, message: context.error ?? INFERENCE_TEXTS.startFailed },
        }),
        onDone: 'over',
        onError: 'over',
      },
    },
    canceled: {
      entry: ['noticeCanceled', assign({ error: INFERENCE_TEXTS.canceled })],
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({
          jobId: context.job.id,
          state: 'stopped',
          runtime: { message: INFERENCE_TEXTS.canceled },
        }),
        onDone: 'over',
        onError: 'over',
      },
    },
    over: {
      type: 'final',
      entry: ['finish', { type: 'tellFinished', params: { ok: false } }],
    },
  },
});

export { STAGE_OF_STEP };
