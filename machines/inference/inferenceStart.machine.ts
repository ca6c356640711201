/**
 * The inference start handshake — spec §4 "Starting an inference connection" (steps 1–7), §4 "Job events"
 * (deploying, started, error), §8 inference texts, §9 stream engine answer wait 60 s / polling 500 ms. One actor
 * per start, spawned by the jobs actor under the root system. Context, events and pure updates: startContext.ts.
 *
 * Preparation, every step shown with its elapsed time and time-limited (a step silent for START_STALL_MS is
 * flagged stalled; one silent for START_PREP_LIMIT_MS fails with §8 "Could not get an answer from the device"):
 * link (the device link open: `connectDevice`) → alarms (1: alarm-new with the alarms the device should know;
 * alarms are a later issue, so the list is empty today) → calendars (1: assign calendars to alarms — skipped
 * when there are no alarms) → checking (2: inference-check; an inferenceEngineError stops here: job error, the
 * §8 "Warning: {device label}" dialog, OK only, and the §8 "Inference engine issue reported" notice)
 * → deploying (3: start options built in context; the job reported `deploying`, time-limited too)
 * → negotiating (5: one peer connection with a data channel, the `channel` actor, its opening shown as the
 * `connect` step, stalled after 3 s, failed after START_SILENCE_FAIL_MS; then the stages fileCheck →
 * buildModel → prepareModel → warmUp [+ prepare recording] → startInference [+ request metadata], each asked on
 * the channel, each with its elapsed time; a stage whose heartbeat stops for START_STALL_MS is flagged stalled,
 * one silent for START_SILENCE_FAIL_MS fails with §8 "Could not get an answer from the device"; results carry
 * the call id, 6) → waitingPort (the job's stream-engine port, polled every 500 ms for up to 60 s) → reporting
 * (the job reported `started`) → started. Leaving `negotiating` closes the negotiation connection.
 * 7: the channel's peer connection failing restarts the job once with the deep-stream engine; on a stream page
 * (input.onStreamPage) it instead records the job as failed and emits `navigate` to /control-panel/cameras.
 * `start.cancel` ends it (§8 "Process has been canceled"). Step 4 (a scheduled job started directly with
 * start-scheduled-job) runs on the device's own scheduler (src/agent/schedulers), not here.
 */
import { assign } from 'xstate';
import { INFERENCE_TEXTS } from '../../src/protocol/inference';
import { errorText } from '../notifications/emitted';
import { initialStartContext, prepEnd, prepFailureText } from './startContext';
import { STAGE_OF_STEP } from './stages';

export type {
  ChannelCommand,
  ChannelEvent,
  InferenceStartContext,
  InferenceStartEvent,
  InferenceStartInput,
} from './startContext';

const now = () => Date.now();

import { inferenceStartSetup } from './inferenceStart.setup';

export const inferenceStartMachine = inferenceStartSetup.createMachine({
  id: 'inferenceStart',
  context: ({ input }) => initialStartContext(input, now()),
  initial: 'link',
  on: { 'start.cancel': { guard: 'stillStarting', target: '.canceled' } },
  states: {
    link: {
      entry: { type: 'prepBegin', params: { step: 'link' } },
      after: {
        STALL: { actions: 'prepStalled' },
        PREP_LIMIT: { target: 'failed', actions: 'prepFailed' },
      },
      invoke: {
        id: 'connectDevice',
        src: 'connectDevice',
        input: ({ context }) => ({ deviceId: context.job.device_id }),
        onDone: { target: 'alarms', actions: 'prepDone' },
        onError: { target: 'failed', actions: 'prepFailed' },
      },
    },
    alarms: {
      entry: { type: 'prepBegin', params: { step: 'alarms' } },
      after: {
        STALL: { actions: 'prepStalled' },
        PREP_LIMIT: { target: 'failed', actions: 'prepFailed' },
      },
      invoke: {
        id: 'sendAlarms',
        src: 'sendAlarms',
        input: ({ context }) => ({ deviceId: context.job.device_id, alarms: context.alarms }),
        onDone: [
          { guard: 'hasAlarms', target: 'calendars', actions: 'prepDone' },
          { target: 'checking', actions: ['prepDone', { type: 'prepSkip', params: { step: 'calendars' } }] },
        ],
        onError: { target: 'failed', actions: 'prepFailed' },
      },
    },
    calendars: {
      entry: { type: 'prepBegin', params: { step: 'calendars' } },
      after: {
        STALL: { actions: 'prepStalled' },
        PREP_LIMIT: { target: 'failed', actions: 'prepFailed' },
      },
      invoke: {
        id: 'assignCalendars',
        src: 'assignCalendars',
        input: ({ context }) => ({ alarms: context.alarms, job: context.job }),
        onDone: { target: 'checking', actions: 'prepDone' },
        onError: { target: 'failed', actions: 'prepFailed' },
      },
    },
    checking: {
      entry: { type: 'prepBegin', params: { step: 'engine-check' } },
      after: {
        STALL: { actions: 'prepStalled' },
        PREP_LIMIT: { target: 'failed', actions: 'prepFailed' },
      },
      invoke: {
        id: 'checkEngine',
        src: 'checkEngine',
        input: ({ context }) => ({ deviceId: context.job.device_id, options: context.options }),
        onDone: [
          {
            guard: 'engineError',
            target: 'engineError',
            actions: assign(({ context, event }) => ({
              prep: prepEnd(context.prep, 'failed', now()),
              engines: event.output.engines,
              runtime: { ...context.runtime, inferenceEngineError: event.output.inferenceEngineError },
              error: event.output.inferenceEngineError,
            })),
          },
          {
            target: 'deploying',
            actions: [
              'prepDone',
              assign(({ context, event }) => ({
                engines: event.output.engines,
                options: {
                  ...context.options,
                  engine: context.options.engine ?? event.output.engines.default,
                },
              })),
            ],
          },
        ],
        onError: { target: 'failed', actions: 'prepFailed' },
      },
    },
    /** §4 step 2: the engine reported an error — job error, the §8 warning (OK only) and notice. */
    engineError: {
      entry: ['warnEngineError', 'noticeFailed'],
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({ jobId: context.job.id, state: 'error', runtime: context.runtime }),
        onDone: { target: 'rejected', actions: 'tellReported' },
        onError: 'rejected',
      },
      after: { PREP_LIMIT: 'rejected' },
    },
    rejected: {
      type: 'final',
      entry: ['finish', { type: 'tellFinished', params: { ok: false } }],
    },
    deploying: {
      after: { PREP_LIMIT: { target: 'failed', actions: 'noAnswer' } },
      invoke: {
        id: 'reportState',
        src: 'reportState',
        input: ({ context }) => ({
          jobId: context.job.id,
          state: 'deploying',
          runtime: { inferenceEngineError: null, message: null },
          engine: context.options.engine ?? undefined,
        }),
        onDone: { target: 'negotiating', actions: 'tellReported' },
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
        input: ({ context }) => ({
          deviceId: context.job.device_id,
          callId: context.callId,
          ...(context.options.engine ? { engine: context.options.engine } : {}),
        }),
      },
      initial: 'connecting',
      on: {
        'channel.failed': [
          { guard: 'canRestartDeepStream', target: 'restarting', actions: ['failStage', 'prepStop'] },
          { target: 'connectionFailed', actions: ['failStage', 'prepStop'] },
        ],
        'channel.closed': { target: 'failed', actions: ['failStage', 'prepStop'] },
      },
      states: {
        /** The start connection opening: a shown step, stalled after START_STALL_MS, failed after SILENCE. */
        connecting: {
          entry: { type: 'prepBegin', params: { step: 'connect' } },
          after: {
            STALL: { actions: 'prepStalled' },
            SILENCE: { target: '#inferenceStart.failed', actions: 'prepFailed' },
          },
          on: {
            'channel.open': { target: 'stage', actions: ['prepDone', 'startFirstStage', 'askNextStage'] },
          },
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
          // A closed link or a time-out reads as §8 "Could not get an answer" (issue 15: the agent died).
          actions: assign({ error: ({ event }) => prepFailureText(event.error) }),
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
        onDone: { target: 'started', actions: 'tellReported' },
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
        onDone: { target: 'over', actions: 'tellReported' },
        onError: 'over',
      },
      after: { PREP_LIMIT: 'over' },
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
        onDone: { target: 'over', actions: 'tellReported' },
        onError: 'over',
      },
      after: { PREP_LIMIT: 'over' },
    },
    over: {
      type: 'final',
      entry: ['finish', { type: 'tellFinished', params: { ok: false } }],
    },
  },
});

export { STAGE_OF_STEP };
