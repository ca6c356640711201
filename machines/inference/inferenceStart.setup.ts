/**
 * The inference start handshake's implementations (spec §4 "Starting an inference connection", §8 texts):
 * its actors (provided by the console), guards, actions and delays, set up for inferenceStart.machine.ts, which
 * holds the chart.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, sendTo, setup } from 'xstate';
import {
  INFERENCE_TEXTS,
  START_SILENCE_FAIL_MS,
  START_STALL_MS,
  type Alarm,
  type Job,
  type StartOptions,
} from '../../src/protocol/inference';
import type { ConsoleEmitted } from '../notifications/emitted';
import {
  advance,
  beat,
  failRunning,
  failureText,
  newCallId,
  prepBegin,
  prepEnd,
  prepFailureText,
  prepSkip,
  prepStall,
  START_PREP_LIMIT_MS,
  type ChannelCommand,
  type InferenceStartContext,
  type InferenceStartEvent,
  type InferenceStartInput,
  type PrepStepName,
  type StateReport,
} from './startContext';
import { initialStages } from './stages';

export type {
  ChannelCommand,
  ChannelEvent,
  InferenceStartContext,
  InferenceStartEvent,
  InferenceStartInput,
} from './startContext';

const now = () => Date.now();

export const inferenceStartSetup = setup({
  types: {
    context: {} as InferenceStartContext,
    events: {} as InferenceStartEvent,
    input: {} as InferenceStartInput,
    emitted: {} as ConsoleEmitted | { type: 'navigate'; to: string },
  },
  actors: {
    /** Resolves once the device's link is open (connecting it when needed). */
    connectDevice: fromPromise<unknown, { deviceId: string }>(async () => {
      throw new Error('inferenceStart: connectDevice is not provided');
    }),
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
    reportState: fromPromise<Job, StateReport>(async () => {
      throw new Error('inferenceStart: reportState is not provided');
    }),
    /** The start connection; `engine`: the engine the stages will run on (absent: the device's default). */
    channel: fromCallback<ChannelCommand, { deviceId: string; callId: string; engine?: string }>(() => {
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
    prepBegin: assign({
      prep: ({ context }, params: { step: PrepStepName }) => prepBegin(context.prep, params.step, now()),
    }),
    prepDone: assign({ prep: ({ context }) => prepEnd(context.prep, 'done', now()) }),
    prepSkip: assign({
      prep: ({ context }, params: { step: PrepStepName }) => prepSkip(context.prep, params.step),
    }),
    prepStalled: assign({ prep: ({ context }) => prepStall(context.prep) }),
    /** The running preparation step ends failed; the error is set by the stage's own failure. */
    prepStop: assign({ prep: ({ context }) => prepEnd(context.prep, 'failed', now()) }),
    /** The running preparation step failed: its error, or §8 "Could not get an answer from the device". */
    prepFailed: assign(({ context, event }) => ({
      prep: prepEnd(context.prep, 'failed', now()),
      error: prepFailureText('error' in event ? event.error : undefined),
    })),
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
    recordBeat: assign({
      stages: ({ context, event }) =>
        event.type === 'channel.message' ? beat(context.stages, event.message, now()) : context.stages,
    }),
    markStalled: assign({
      stages: ({ context }) =>
        context.stages.map((s) => (s.state === 'running' ? { ...s, stalled: true } : s)),
    }),
    advanceStage: assign(({ context, event }) => {
      if (event.type !== 'channel.message' || event.message.type !== 'result') return {};
      return {
        stages: advance(context.stages, event.message, now()),
        runtime: { ...context.runtime, ...(event.message.runtime ?? {}) },
      };
    }),
    failStage: assign(({ context, event }) => ({
      error: failureText(event as never),
      stages: failRunning(context.stages, now()),
    })),
    noAnswer: assign({ error: INFERENCE_TEXTS.noAnswer }),
    /** §4 step 7: a new attempt with the deep-stream engine. */
    useDeepStream: assign(({ context }) => ({
      attempt: context.attempt + 1,
      callId: newCallId(context.job.id, context.attempt + 1),
      options: { ...context.options, engine: context.engines!.deepStream },
      stages: initialStages(),
      prep: context.prep.map((p) => (p.step === 'connect' ? { ...p, state: 'pending' as const } : p)),
      error: null,
    })),
    finish: assign({ finishedAt: () => now() }),
    /** The server's answer to a state report goes to the jobs actor: the row shows it at once. */
    tellReported: ({ context, event }) => {
      if ('output' in event && event.output && typeof event.output === 'object' && 'id' in event.output)
        context.reportTo?.send({ type: 'start.reported', job: event.output as Job });
    },
    tellFinished: ({ context }, params: { ok: boolean }) =>
      context.reportTo?.send({ type: 'start.finished', jobId: context.job.id, ok: params.ok }),
    /** §8 inference start warning (OK only), titled with the device label. */
    warnEngineError: emit(({ context }) => ({
      type: 'dialog' as const,
      title: INFERENCE_TEXTS.warningTitle(context.deviceLabel),
      message: INFERENCE_TEXTS.warning,
    })),
    /** §8 "Inference engine issue reported", with what went wrong (default: §8 "…check logs…"). */
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
    /** §4 step 7 on a stream page: emitted, and told to the jobs actor, whose stream page view navigates. */
    backToCameras: enqueueActions(({ context, enqueue }) => {
      enqueue.emit({ type: 'navigate' as const, to: '/control-panel/cameras' });
      enqueue(() =>
        context.reportTo?.send({
          type: 'start.navigate',
          jobId: context.job.id,
          to: '/control-panel/cameras',
        }),
      );
    }),
  },
  delays: {
    STALL: START_STALL_MS,
    PREP_LIMIT: START_PREP_LIMIT_MS,
    SILENCE: START_SILENCE_FAIL_MS,
    SILENT_AFTER_STALL: START_SILENCE_FAIL_MS - START_STALL_MS,
  },
});
