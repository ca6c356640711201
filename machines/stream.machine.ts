/**
 * One camera stream — spec §3 "Stream" (callId, deviceId, camera, pc), §4 "Stream slots … A stream quota
 * is available or not", §7 `usage/check_stream_limit` (is_quota_available) and device command `send-sdp`
 * (answer or inferenceEngineError), §9 ICE gathering wait 5 s, stream engine answer wait 60 s.
 *
 * checkingQuota → connecting → playing; `stream.close` ends it from anywhere (stop-stream + pc.close(),
 * nothing left open); errors go to `failed` with a text and `stream.retry` starts over. If the device link
 * closes (the streams actor forwards it as `stream.deviceLost`), the stream fails with 'Device disconnected'
 * (auto-resume comes with a later issue).
 *
 * Side effects — `checkQuota`, `startStream` (RTCPeerConnection, recvonly video, non-trickle offer,
 * send-sdp, answer, first track), `watchStream` (track ended / connection failed) and `releaseStream`
 * (stop-stream + pc.close(), idempotent) — are provided by src/console/services/streamSession.ts.
 * Any way out of `connecting`/`playing` (including the actor being stopped) releases the session: the
 * invoked actors' clean-up does it, and `failed`/`closed` call `releaseStream` again to be sure.
 */
import { assign, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import type { DeviceCamera, ResolutionOption } from '../src/protocol/commands';
import { STREAM_ENGINE_ANSWER_WAIT_MS } from '../src/protocol/constants';
import { errorText, type ConsoleEmitted } from './emitted';

export const STREAM_TEXTS = {
  quotaExceeded: 'Stream quota exceeded',
  deviceDisconnected: 'Device disconnected',
  noAnswer: 'Could not get an answer from the device.',
  failed: 'Stream could not be started.',
} as const;

export interface StreamContext {
  /** Unique id of the stream; also the §3 callId sent with send-sdp. */
  streamId: string;
  deviceId: string;
  deviceLabel: string;
  camera: DeviceCamera;
  /** The live video (first remote track's stream) while playing. */
  mediaStream: MediaStream | null;
  error: string | null;
  /** Requested resolution (null: the device's default); replaced by the one the device answered. */
  resolution: ResolutionOption | null;
  /** Who hears `stream.closed` (the streams actor); null when run alone. */
  reportTo: AnyActorRef | null;
}

export interface StreamInput {
  streamId: string;
  deviceId: string;
  deviceLabel: string;
  camera: DeviceCamera;
  resolution?: ResolutionOption | null;
  reportTo?: AnyActorRef | null;
}

export type StreamEvent =
  | { type: 'stream.close' }
  | { type: 'stream.retry' }
  /** From the streams actor: the device link of this stream closed. */
  | { type: 'stream.deviceLost' }
  /** Internal (watchStream): the track ended or the peer connection failed. */
  | { type: 'stream.ended'; error: string };

/** Input of `startStream`. */
export interface StartStreamInput {
  streamId: string;
  deviceId: string;
  camera: DeviceCamera;
  resolution: ResolutionOption | null;
}
/** Output of `startStream`. */
export interface StartedStream {
  mediaStream: MediaStream;
  resolution: ResolutionOption | null;
}

/** What the stream tells the streams actor when it is closed. */
export interface StreamClosedReport {
  type: 'stream.closed';
  streamId: string;
}

const notProvided = (name: string): never => {
  throw new Error(`stream: actor '${name}' is not provided`);
};

export const streamMachine = setup({
  types: {
    context: {} as StreamContext,
    events: {} as StreamEvent,
    input: {} as StreamInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /** GET usage/check_stream_limit?deviceId&numOfCameras → is_quota_available. */
    checkQuota: fromPromise<boolean, { deviceId: string; numOfCameras: number }>(async () =>
      notProvided('checkQuota'),
    ),
    /** Builds the RTCPeerConnection, exchanges SDP with send-sdp and resolves on the first track. */
    startStream: fromPromise<StartedStream, StartStreamInput>(async () => notProvided('startStream')),
    /** While playing: sends `stream.ended` when the track ends or the connection fails. */
    watchStream: fromCallback<StreamEvent, { streamId: string }>(() => notProvided('watchStream')),
  },
  actions: {
    /** stop-stream over the device link + pc.close(); idempotent. Provided by services. */
    releaseStream: (_, _params: { streamId: string; deviceId: string }) => {},
    reportClosed: enqueueActions(({ context, enqueue }) => {
      if (!context.reportTo) return;
      const report: StreamClosedReport = { type: 'stream.closed', streamId: context.streamId };
      enqueue.sendTo(context.reportTo, report);
    }),
    clearMedia: assign({ mediaStream: null }),
    clearError: assign({ error: null }),
  },
  guards: {
    quotaAvailable: (_, params: { available: boolean }) => params.available,
  },
  delays: {
    /** §9 stream engine answer wait 60 s. */
    streamStartTimeout: STREAM_ENGINE_ANSWER_WAIT_MS,
  },
}).createMachine({
  id: 'stream',
  initial: 'checkingQuota',
  context: ({ input }) => ({
    streamId: input.streamId,
    deviceId: input.deviceId,
    deviceLabel: input.deviceLabel,
    camera: input.camera,
    mediaStream: null,
    error: null,
    resolution: input.resolution ?? null,
    reportTo: input.reportTo ?? null,
  }),
  on: {
    'stream.close': { target: '.closed' },
  },
  states: {
    checkingQuota: {
      tags: ['busy'],
      entry: 'clearError',
      invoke: {
        id: 'checkQuota',
        src: 'checkQuota',
        input: ({ context }) => ({ deviceId: context.deviceId, numOfCameras: 1 }),
        onDone: [
          {
            guard: { type: 'quotaAvailable', params: ({ event }) => ({ available: event.output }) },
            target: 'connecting',
          },
          { target: 'failed', actions: assign({ error: STREAM_TEXTS.quotaExceeded }) },
        ],
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, STREAM_TEXTS.failed) }),
        },
      },
      on: {
        'stream.deviceLost': {
          target: 'failed',
          actions: assign({ error: STREAM_TEXTS.deviceDisconnected }),
        },
      },
    },
    connecting: {
      tags: ['busy'],
      invoke: {
        id: 'startStream',
        src: 'startStream',
        input: ({ context }) => ({
          streamId: context.streamId,
          deviceId: context.deviceId,
          camera: context.camera,
          resolution: context.resolution,
        }),
        onDone: {
          target: 'playing',
          actions: assign({
            mediaStream: ({ event }) => event.output.mediaStream,
            resolution: ({ event, context }) => event.output.resolution ?? context.resolution,
          }),
        },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, STREAM_TEXTS.failed) }),
        },
      },
      after: {
        streamStartTimeout: { target: 'failed', actions: assign({ error: STREAM_TEXTS.noAnswer }) },
      },
      on: {
        'stream.deviceLost': {
          target: 'failed',
          actions: assign({ error: STREAM_TEXTS.deviceDisconnected }),
        },
      },
    },
    playing: {
      invoke: {
        id: 'watchStream',
        src: 'watchStream',
        input: ({ context }) => ({ streamId: context.streamId }),
      },
      on: {
        'stream.ended': { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        'stream.deviceLost': {
          target: 'failed',
          actions: assign({ error: STREAM_TEXTS.deviceDisconnected }),
        },
      },
    },
    failed: {
      tags: ['error'],
      entry: [
        'clearMedia',
        {
          type: 'releaseStream',
          params: ({ context }) => ({ streamId: context.streamId, deviceId: context.deviceId }),
        },
      ],
      on: {
        'stream.retry': { target: 'checkingQuota' },
      },
    },
    closed: {
      type: 'final',
      entry: [
        'clearMedia',
        {
          type: 'releaseStream',
          params: ({ context }) => ({ streamId: context.streamId, deviceId: context.deviceId }),
        },
        'reportClosed',
      ],
    },
  },
});
