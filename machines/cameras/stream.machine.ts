/**
 * One camera stream — spec §3 "Stream" (callId, deviceId, camera, pc, recording, currentStatus, application,
 * isFullScreen), §2 "Recording state and status of a stream update the page", §7 device command `send-sdp`
 * (answer or inferenceEngineError), §9 ICE gathering wait 5 s, stream engine answer wait 60 s, frame-rate
 * interval 2000 ms, recorded video codec vp8.
 *
 * The camera grid (cameraGrid.machine.ts) spawns one per open cell after its opening flow (quota, chooser,
 * conflict, resolution) passed. States:
 * - `live`: the stream's peer connection exists. Its one session actor (`streamSession`, invoked here) owns
 *   the RTCPeerConnection from the offer to pc.close(): leaving `live` releases it (stop-stream + close),
 *   re-entering `live` negotiates anew. Inside:
 *   - `connecting`: new RTCPeerConnection, non-trickle offer, send-sdp, answer, first track.
 *   - `playing`: parallel regions — `visibility` (a cell hidden for HIDE_GRACE_MS holds the stream),
 *     `recorder` (MediaRecorder on the cell's MediaStream, VP8 WebM, downloadable file) and `stats` (an
 *     overlay polled from getStats every FRAME_RATE_INTERVAL_MS while it is on).
 *   - `held`: hidden (tab in background, scrolled away, grid page not shown, view gone); the peer connection
 *     stays and the agent holds the stream (pause-stream: it stops encoding and sending). Visible again →
 *     `resuming` (resume-stream on the same connection, no negotiation) → `playing`, or `live` anew when the
 *     agent no longer has it. Held for HOLD_MAX_MS → `released`; the device link going down while held too.
 * - `released`: hidden and nothing open; visible again → `live` (a new negotiation).
 * - `waitingForDevice` (shown as "Reconnecting"): the device link is down (`stream.deviceDown` from the
 *   grid) — nothing is open; `stream.deviceUp` resumes with a new peer connection and send-sdp.
 * - `retrying` (shown as "Reconnecting"): the stream itself ended (track ended, pc failed, or the agent's
 *   `stream.status` closed event for this callId) while the device is up: back-off, then a new negotiation;
 *   after STREAM_RESUME_MAX_ATTEMPTS failed resumes it gives up (`failed`).
 * - `failed` (with a text; `stream.retry` starts over) and `closed` (final; the grid forgets it). A lost
 *   device (`stream.deviceLost`: its link was closed or could not be opened) fails the stream from any other
 *   state, handled once at the top.
 * The grid sends `stream.close` before it stops a stream actor, so a stopped stream leaves nothing open.
 *
 * Side effects — `streamSession` (peer connection, watch, hold, resume, stats), `recordStream`,
 * `revokeRecording` — are provided by src/console/features/cameras/actors.ts (streamSession.ts,
 * streamMedia.ts).
 */
import { assign, fromCallback, not, sendTo, setup, stateIn, type AnyActorRef } from 'xstate';
import type { DeviceCamera, ResolutionOption } from '../../src/protocol/commands';
import { FRAME_RATE_INTERVAL_MS, STREAM_ENGINE_ANSWER_WAIT_MS } from '../../src/protocol/constants';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

export const STREAM_TEXTS = {
  deviceDisconnected: 'Device disconnected',
  noAnswer: 'Could not get an answer from the device.',
  failed: 'Stream could not be started.',
  recordFailed: 'Recording failed.',
} as const;

/** A hidden cell pauses after this long, ms (issue 3: the agent stops encoding within 5 s). */
export const HIDE_GRACE_MS = 1_000;
/** A paused stream keeps its peer connection (held by the agent) this long, then releases it, ms. */
export const HOLD_MAX_MS = 60_000;
/** Resume back-off of a stream that ended while its device is up: 500 ms doubling, at most 5 s. */
export const STREAM_RETRY_BASE_MS = 500;
export const STREAM_RETRY_MAX_MS = 5_000;
/** Resumes tried before the stream gives up with `failed`. */
export const STREAM_RESUME_MAX_ATTEMPTS = 6;
/** Longest wait for MediaRecorder's file after Stop, ms. */
export const RECORD_SAVE_WAIT_MS = 5_000;
/** §9 recorded video codec vp8, in a WebM container. */
export const RECORDING_MIME_TYPE = 'video/webm;codecs=vp8';

/** One reading of the stats overlay (from RTCPeerConnection.getStats(); null = not reported). */
export interface StreamStats {
  width: number | null;
  height: number | null;
  /** Decoded frames per second. */
  fps: number | null;
  /** Received video bitrate, kbit/s. */
  bitrateKbps: number | null;
  /** Round-trip time of the selected ICE candidate pair, ms. */
  rttMs: number | null;
  /** Packets lost since the stream started. */
  packetsLost: number | null;
  /** Codec, e.g. 'VP8'. */
  codec: string | null;
}

/** A finished recording: an object URL the user can download. */
export interface RecordingFile {
  url: string;
  bytes: number;
  mimeType: string;
  /** Suggested file name, e.g. 'Camera 0-2025-01-01T10-00-00.webm'. */
  fileName: string;
}

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
  /** Who hears `stream.closed` (the grid); null when run alone. */
  reportTo: AnyActorRef | null;
  /** Is the device link open (from the grid's device reports)? */
  deviceOpen: boolean;
  /** Failed resumes in a row (drives the back-off). */
  attempts: number;
  /** The stream has played at least once (a later start is a resume). */
  resumed: boolean;
  /** The grid cell reports itself visible (document visible and in view; true until told otherwise). */
  cellVisible: boolean;
  /** The cell's grid page is the one shown. */
  onShownPage: boolean;
  /** The stream modal (§2) shows this stream. */
  modalVisible: boolean;
  /** Stats overlay switched on. */
  statsOn: boolean;
  stats: StreamStats | null;
  /** The last finished recording. */
  recording: RecordingFile | null;
  /** §3 application flag: a stream of an inference application (details and minimize in the modal). */
  application: boolean;
}

export interface StreamInput {
  streamId: string;
  deviceId: string;
  deviceLabel: string;
  camera: DeviceCamera;
  resolution?: ResolutionOption | null;
  reportTo?: AnyActorRef | null;
  /** Is the device link open now? false: wait for `stream.deviceUp` (restored streams). Default true. */
  deviceOpen?: boolean;
  /** Is the stream's grid page shown? Default true. */
  onShownPage?: boolean;
  application?: boolean;
}

/**
 * Which view reports visibility: the grid cell, the stream modal, or the grid's page (is this stream's page
 * the one shown?).
 */
export type StreamViewer = 'cell' | 'modal' | 'page';

export type StreamEvent =
  | { type: 'stream.close' }
  | { type: 'stream.retry' }
  /** From the grid: the device link is reconnecting (streams wait). */
  | { type: 'stream.deviceDown' }
  /** From the grid: the device link is open (again). */
  | { type: 'stream.deviceUp' }
  /** From the grid: the device link was closed by the user or could not be opened (streams fail). */
  | { type: 'stream.deviceLost' }
  /** From the session: track ended, peer connection failed, or the agent closed the stream. */
  | { type: 'stream.ended'; error: string }
  /** From the session: the first track arrived (send-sdp answered). */
  | { type: 'session.started'; mediaStream: MediaStream; resolution: ResolutionOption | null }
  /** From the session: the start failed (the device's error, e.g. inferenceEngineError, or a local one). */
  | { type: 'session.failed'; error: unknown }
  /** From the session, after `session.resume`: does the agent send the held stream again? */
  | { type: 'session.resumed'; resumed: boolean }
  /**
   * From a view: is it showing the video (document visible, in the viewport, mounted)? From the grid
   * (viewer 'page'): is this stream's page the one shown?
   */
  | { type: 'stream.view'; viewer: StreamViewer; visible: boolean }
  | { type: 'record.start' }
  | { type: 'record.stop' }
  /** From the recorder service (also after the stream left `playing`). */
  | { type: 'record.saved'; file: RecordingFile }
  | { type: 'record.failed'; error: string }
  | { type: 'stats.toggle' }
  /** From the session while the stats overlay is on. */
  | { type: 'stats.sample'; stats: StreamStats };

/**
 * What the stream tells its session: hold (pause-stream), resume (resume-stream; answered with
 * `session.resumed`), stats every `intervalMs` (null: stop).
 */
export type SessionCommand =
  | { type: 'session.hold' }
  | { type: 'session.resume' }
  | { type: 'session.stats'; intervalMs: number | null };

/** Input of `streamSession`: what its send-sdp offers. */
export interface StreamSessionInput {
  streamId: string;
  deviceId: string;
  camera: DeviceCamera;
  resolution: ResolutionOption | null;
}
/** Input of `recordStream`: the service sends `record.saved`/`record.failed` to `owner`. */
export interface RecordStreamInput {
  streamId: string;
  fileStem: string;
  mediaStream: MediaStream;
  owner: AnyActorRef;
}

/** What the stream tells the grid when it is closed. */
export interface StreamClosedReport {
  type: 'stream.closed';
  streamId: string;
}

/** Is the stream shown anywhere (modal, or its cell on the shown page)? */
export const isShown = (c: Pick<StreamContext, 'modalVisible' | 'onShownPage' | 'cellVisible'>): boolean =>
  c.modalVisible || (c.onShownPage && c.cellVisible);

type ViewFacts = Pick<StreamContext, 'modalVisible' | 'onShownPage' | 'cellVisible'>;
/** The view facts after a `stream.view` event. */
function viewAfter(c: ViewFacts, e: StreamEvent): ViewFacts {
  if (e.type !== 'stream.view') return pickView(c);
  switch (e.viewer) {
    case 'modal':
      return { ...pickView(c), modalVisible: e.visible };
    case 'page':
      return { ...pickView(c), onShownPage: e.visible };
    case 'cell':
      return { ...pickView(c), cellVisible: e.visible };
  }
}
const pickView = (c: ViewFacts): ViewFacts => ({
  modalVisible: c.modalVisible,
  onShownPage: c.onShownPage,
  cellVisible: c.cellVisible,
});

const notProvided = (name: string): never => {
  throw new Error(`stream: actor '${name}' is not provided`);
};
/** A new recording replaces the previous file (and closing drops it): free its object URL. */
const revokeOld = {
  type: 'revokeRecording',
  params: ({ context }: { context: StreamContext }) => ({ url: context.recording?.url ?? null }),
} as const;

export const streamMachine = setup({
  types: {
    context: {} as StreamContext,
    events: {} as StreamEvent,
    input: {} as StreamInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /**
     * The stream's peer connection, from the offer to pc.close() (on clean-up, with stop-stream): sends
     * `session.started` / `session.failed`, then `stream.ended` when the track ends, the pc fails or the agent
     * closes the call; obeys SessionCommand (hold, resume → `session.resumed`, stats → `stats.sample`).
     */
    streamSession: fromCallback<SessionCommand, StreamSessionInput>(() => notProvided('streamSession')),
    /** MediaRecorder (RECORDING_MIME_TYPE) on the stream; stops on clean-up and reports the file. */
    recordStream: fromCallback<StreamEvent, RecordStreamInput>(() => notProvided('recordStream')),
  },
  actions: {
    // What the stream tells its session (invoked by `live` with id 'session').
    sessionHold: sendTo('session', { type: 'session.hold' } satisfies SessionCommand),
    sessionResume: sendTo('session', { type: 'session.resume' } satisfies SessionCommand),
    sessionStatsOn: sendTo('session', {
      type: 'session.stats',
      intervalMs: FRAME_RATE_INTERVAL_MS,
    } satisfies SessionCommand),
    sessionStatsOff: sendTo('session', { type: 'session.stats', intervalMs: null } satisfies SessionCommand),
    /** Frees a recording's object URL. Provided by services. */
    revokeRecording: (_, _params: { url: string | null }) => {},
    reportClosed: ({ context }) => {
      const report: StreamClosedReport = { type: 'stream.closed', streamId: context.streamId };
      context.reportTo?.send(report);
    },
    clearMedia: assign({ mediaStream: null, stats: null }),
    clearError: assign({ error: null }),
    trackView: assign(({ context, event }) => viewAfter(context, event)),
    deviceUp: assign({ deviceOpen: true }),
    deviceDown: assign({ deviceOpen: false }),
    countAttempt: assign({ attempts: ({ context }) => context.attempts + 1 }),
    storeRecording: assign(({ context, event }) => {
      if (event.type !== 'record.saved') return {};
      return { recording: event.file, error: context.error };
    }),
    toggleStats: assign({
      statsOn: ({ context }) => !context.statsOn,
      stats: ({ context }) => (context.statsOn ? null : context.stats),
    }),
    storeStats: assign({
      stats: ({ context, event }) => (event.type === 'stats.sample' ? event.stats : context.stats),
    }),
  },
  guards: {
    /** Not failed already (a closed stream takes no events). */
    notEnded: not(stateIn('#stream.failed')),
    deviceOpen: ({ context }) => context.deviceOpen,
    shown: ({ context }) => isShown(context),
    /** The view event makes the stream hidden (and it is not recording, which needs the video). */
    hiddenAfter: ({ context, event }) => !isShown(viewAfter(context, event)),
    shownAfter: ({ context, event }) => isShown(viewAfter(context, event)),
    shownAfterAndDeviceOpen: ({ context, event }) => context.deviceOpen && isShown(viewAfter(context, event)),
    /** The stream has played before (a resume, not a first start) and may try again. */
    canResume: ({ context }) => context.resumed && context.attempts < STREAM_RESUME_MAX_ATTEMPTS,
    withinAttempts: ({ context }) => context.attempts <= STREAM_RESUME_MAX_ATTEMPTS,
    statsOn: ({ context }) => context.statsOn,
    notRecording: not(stateIn('#stream.live.playing.recorder.recording')),
    resumed: ({ event }) => event.type === 'session.resumed' && event.resumed,
  },
  delays: {
    /** §9 stream engine answer wait 60 s. */
    streamStartTimeout: STREAM_ENGINE_ANSWER_WAIT_MS,
    hideGrace: HIDE_GRACE_MS,
    retryDelay: ({ context }) =>
      Math.min(STREAM_RETRY_MAX_MS, STREAM_RETRY_BASE_MS * 2 ** Math.max(0, context.attempts - 1)),
    recordSaveWait: RECORD_SAVE_WAIT_MS,
    holdMax: HOLD_MAX_MS,
  },
}).createMachine({
  id: 'stream',
  initial: 'starting',
  context: ({ input }) => ({
    streamId: input.streamId,
    deviceId: input.deviceId,
    deviceLabel: input.deviceLabel,
    camera: input.camera,
    mediaStream: null,
    error: null,
    resolution: input.resolution ?? null,
    reportTo: input.reportTo ?? null,
    deviceOpen: input.deviceOpen ?? true,
    attempts: 0,
    resumed: false,
    cellVisible: true,
    onShownPage: input.onShownPage ?? true,
    modalVisible: false,
    statsOn: false,
    stats: null,
    recording: null,
    application: input.application ?? false,
  }),
  on: {
    'stream.close': { target: '.closed' },
    'stream.view': { actions: 'trackView' },
    'stream.deviceUp': { actions: 'deviceUp' },
    'stream.deviceDown': { actions: 'deviceDown' },
    // §2 the device link was closed or could not be opened: every stream not already ended fails, whatever
    // it was doing (connecting, playing, paused, resuming, waiting for the device, retrying).
    'stream.deviceLost': {
      guard: 'notEnded',
      target: '.failed',
      actions: ['deviceDown', assign({ error: STREAM_TEXTS.deviceDisconnected })],
    },
    'record.saved': { actions: [revokeOld, 'storeRecording'] },
    'stats.toggle': { actions: 'toggleStats' },
  },
  states: {
    /** Decides where a new (or restarted) stream begins. */
    starting: {
      always: [{ guard: 'deviceOpen', target: 'live' }, { target: 'waitingForDevice' }],
    },
    /** The peer connection exists: its session lives exactly as long as this state. */
    live: {
      invoke: {
        id: 'session',
        src: 'streamSession',
        input: ({ context }) => ({
          streamId: context.streamId,
          deviceId: context.deviceId,
          camera: context.camera,
          resolution: context.resolution,
        }),
      },
      initial: 'connecting',
      on: {
        'stream.deviceDown': { target: 'waitingForDevice', actions: 'deviceDown' },
      },
      states: {
        connecting: {
          tags: ['busy'],
          entry: 'clearError',
          on: {
            'session.started': {
              target: 'playing',
              actions: assign({
                mediaStream: ({ event }) => event.mediaStream,
                resolution: ({ event, context }) => event.resolution ?? context.resolution,
                attempts: 0,
                resumed: true,
              }),
            },
            'session.failed': [
              // A resume that failed (the agent may still be starting its cameras): back off and try again.
              {
                guard: 'canResume',
                target: '#stream.retrying',
                actions: assign({ error: ({ event }) => errorText(event.error, STREAM_TEXTS.failed) }),
              },
              {
                target: '#stream.failed',
                actions: assign({ error: ({ event }) => errorText(event.error, STREAM_TEXTS.failed) }),
              },
            ],
          },
          after: {
            streamStartTimeout: {
              target: '#stream.failed',
              actions: assign({ error: STREAM_TEXTS.noAnswer }),
            },
          },
        },
        playing: {
          type: 'parallel',
          on: {
            'stream.ended': {
              target: '#stream.retrying',
              actions: assign({ error: ({ event }) => event.error }),
            },
          },
          states: {
            visibility: {
              initial: 'check',
              states: {
                check: {
                  always: [{ guard: 'shown', target: 'shown' }, { target: 'hiding' }],
                },
                shown: {
                  on: {
                    'stream.view': [
                      { guard: 'hiddenAfter', target: 'hiding', actions: 'trackView' },
                      { actions: 'trackView' },
                    ],
                  },
                },
                hiding: {
                  // A recording needs the video: a hidden cell that records keeps playing.
                  after: { hideGrace: { guard: 'notRecording', target: '#stream.live.held' } },
                  on: {
                    'stream.view': [
                      { guard: 'shownAfter', target: 'shown', actions: 'trackView' },
                      { actions: 'trackView' },
                    ],
                  },
                },
              },
            },
            recorder: {
              initial: 'idle',
              states: {
                idle: {
                  on: { 'record.start': { target: 'recording' } },
                },
                recording: {
                  tags: ['recording'],
                  invoke: {
                    id: 'recordStream',
                    src: 'recordStream',
                    input: ({ context, self }) => ({
                      streamId: context.streamId,
                      fileStem: context.camera.label || context.camera.name || context.camera.camera_id,
                      mediaStream: context.mediaStream!,
                      owner: self,
                    }),
                  },
                  on: {
                    'record.stop': { target: 'saving' },
                    'record.failed': {
                      target: 'idle',
                      actions: assign({ error: ({ event }) => event.error || STREAM_TEXTS.recordFailed }),
                    },
                  },
                },
                saving: {
                  tags: ['busy'],
                  after: { recordSaveWait: { target: 'idle' } },
                  on: {
                    'record.saved': { target: 'idle', actions: [revokeOld, 'storeRecording'] },
                    'record.failed': {
                      target: 'idle',
                      actions: assign({ error: ({ event }) => event.error || STREAM_TEXTS.recordFailed }),
                    },
                  },
                },
              },
            },
            stats: {
              initial: 'check',
              states: {
                check: {
                  always: [{ guard: 'statsOn', target: 'on' }, { target: 'off' }],
                },
                off: {
                  on: { 'stats.toggle': { target: 'on', actions: 'toggleStats' } },
                },
                on: {
                  entry: 'sessionStatsOn',
                  exit: 'sessionStatsOff',
                  on: {
                    'stats.sample': { actions: 'storeStats' },
                    'stats.toggle': { target: 'off', actions: 'toggleStats' },
                  },
                },
              },
            },
          },
        },
        /** Hidden: the peer connection stays; the agent stopped encoding (pause-stream). */
        held: {
          tags: ['paused'],
          entry: 'sessionHold',
          after: { holdMax: { target: '#stream.released' } },
          on: {
            'stream.view': [
              { guard: 'shownAfterAndDeviceOpen', target: 'resuming', actions: 'trackView' },
              { actions: 'trackView' },
            ],
            // The agent ends the link's streams: nothing is held any more.
            'stream.deviceDown': { target: '#stream.released', actions: 'deviceDown' },
          },
        },
        /** Visible again: resume-stream on the held connection; the agent no longer has it → `live` anew. */
        resuming: {
          tags: ['busy'],
          entry: 'sessionResume',
          on: {
            'session.resumed': [
              { guard: 'resumed', target: 'playing' },
              { target: '#stream.live', reenter: true },
            ],
          },
        },
      },
    },
    /** Hidden and nothing open; visible again → a new negotiation. */
    released: {
      tags: ['paused'],
      entry: 'clearMedia',
      on: {
        'stream.view': [
          { guard: 'shownAfterAndDeviceOpen', target: 'live', actions: 'trackView' },
          { actions: 'trackView' },
        ],
        'stream.deviceUp': [{ guard: 'shown', target: 'live', actions: 'deviceUp' }, { actions: 'deviceUp' }],
      },
    },
    /** The device link is down: wait for it (shown as "Reconnecting"). */
    waitingForDevice: {
      tags: ['reconnecting'],
      entry: 'clearMedia',
      on: {
        'stream.deviceUp': [
          { guard: 'shown', target: 'live', actions: 'deviceUp' },
          { target: 'released', actions: 'deviceUp' },
        ],
      },
    },
    /** The stream ended while its device is up: back off, then negotiate again (shown as "Reconnecting"). */
    retrying: {
      tags: ['reconnecting'],
      entry: ['countAttempt', 'clearMedia'],
      after: {
        retryDelay: [{ guard: 'withinAttempts', target: 'starting' }, { target: 'failed' }],
      },
      on: {
        'stream.deviceDown': { target: 'waitingForDevice', actions: 'deviceDown' },
      },
    },
    failed: {
      tags: ['error'],
      entry: 'clearMedia',
      on: {
        'stream.retry': { target: 'starting', actions: assign({ attempts: 0 }) },
      },
    },
    closed: {
      type: 'final',
      entry: ['clearMedia', revokeOld, 'reportClosed'],
    },
  },
});
