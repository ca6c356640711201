/**
 * One client update on one device — spec §4 "Client update" (error types notEnoughStorage, downloadError,
 * other; success offers a restart, the client restarts 10 s after confirmation), §7 update-client /
 * get-download-upload-status, §8 "Update failures: storage under 1GB; download error", §9 "Client restarts
 * 10 s after confirm. Update disk threshold 1GB".
 *
 * Spawned by the software registry (software.machine.ts) when the update begins:
 *   checking (the device asks the server for the release and checks its free disk BEFORE downloading) →
 *   downloading (progress: bytes done / total) → installing (verify + unpack) → awaitingRestartConfirm (the
 *   restart offer) → restarting: countdown (CLIENT_RESTART_DELAY_MS) → sending (restart-client-update) →
 *   waitingOffline → waitingOnline → verifying (check-version-update: the device runs the new version) → done.
 * Declining the restart ends in `installed` (the release runs after the next restart). Failures end in
 * `failed` with the §4 error type (`errorType`) and the device's words.
 * The provided `runUpdate` actor sends `update.progress` (the device's UpdateStatus), then `update.installed`
 * or `update.failed`; presence comes from `watchPresence` (`update.presence`), as in the power flow.
 */
import { assign, emit, enqueueActions, fromCallback, fromPromise, setup, type AnyActorRef } from 'xstate';
import { CLIENT_RESTART_DELAY_MS } from '../../src/protocol/powerTexts';
import type { ConsoleEmitted } from '../notifications/emitted';
import { errorText } from '../notifications/emitted';

/** §4 error types. */
export type UpdateErrorType = 'notEnoughStorage' | 'downloadError' | 'other';

/** How long the device may take to leave after accepting the restart, ms. */
export const RESTART_OFFLINE_WAIT_MS = 60_000;
/** How long a restarting client may take to come back, ms. */
export const RESTART_ONLINE_WAIT_MS = 180_000;

/** Texts of ours beside §8 (English; the console translates them by key: software.flow.*). */
export const UPDATE_FLOW_TEXTS = {
  /** §8 "storage under 1GB". */
  notEnoughStorage: 'Not enough storage: the device has under 1GB free.',
  /** §8 "download error". */
  downloadError: 'Download error: the update could not be downloaded.',
  other: 'The update failed.',
  notOffline: 'The client did not restart.',
  notBack: 'The device did not come back online.',
  wrongVersion: 'The device came back with another version.',
  updated: 'The client is updated.',
} as const;

/** The device's update status (src/protocol/software.ts UpdateStatus), as the machine reads it. */
export interface UpdateProgress {
  state: string;
  version: string | null;
  bytes_done: number;
  bytes_total: number;
}

export interface ClientUpdateInput {
  deviceId: string;
  deviceName: string;
  /** The release to install (null: the newest). */
  version: string | null;
  /** Who hears `update.ended` (the registry); null alone. */
  reportTo?: AnyActorRef | null;
}

export interface ClientUpdateContext extends Required<ClientUpdateInput> {
  bytesDone: number;
  bytesTotal: number;
  /** The version installed (known once the device answers). */
  installed: string | null;
  /** When the countdown ends (ms since the epoch), for the screen's countdown; null outside it. */
  restartAt: number | null;
  errorType: UpdateErrorType | null;
  error: string | null;
}

export type ClientUpdateEvent =
  /** runUpdate: a progress message or status. */
  | ({ type: 'update.progress' } & UpdateProgress)
  | { type: 'update.installed'; version: string }
  | { type: 'update.failed'; code: string; message: string }
  /** The restart offer. */
  | { type: 'update.confirmRestart' }
  | { type: 'update.later' }
  /** Stops the countdown (back to the offer). */
  | { type: 'update.cancelRestart' }
  | { type: 'update.presence'; online: boolean };

export type ClientUpdateReport = {
  type: 'update.ended';
  deviceId: string;
  outcome: 'done' | 'installed' | 'failed';
  version: string | null;
};

const notProvided = (name: string): never => {
  throw new Error(`clientUpdate: actor '${name}' is not provided`);
};

/** The effects; src/console/features/software/actors.ts provides them. */
export const clientUpdateActors = {
  /** update-client with progress: sends update.progress …, then update.installed or update.failed. */
  runUpdate: fromCallback<ClientUpdateEvent, { deviceId: string; version: string | null }>(() =>
    notProvided('runUpdate'),
  ),
  /** restart-client-update. */
  sendRestart: fromPromise<unknown, { deviceId: string }>(async () => notProvided('sendRestart')),
  /** Sends update.presence { online } now and whenever the device's connection opens or drops. */
  watchPresence: fromCallback<ClientUpdateEvent, { deviceId: string }>(() => notProvided('watchPresence')),
  /** check-version-update → the version the device runs. */
  readVersion: fromPromise<{ current: string }, { deviceId: string }>(async () => notProvided('readVersion')),
};

const typeOf = (code: string): UpdateErrorType =>
  code === 'notEnoughStorage' || code === 'downloadError' ? code : 'other';

const deviceOf = ({ context }: { context: ClientUpdateContext }) => ({ deviceId: context.deviceId });

function report(
  context: ClientUpdateContext,
  enqueue: { sendTo: (to: AnyActorRef, event: ClientUpdateReport) => void },
  outcome: ClientUpdateReport['outcome'],
) {
  if (context.reportTo) {
    enqueue.sendTo(context.reportTo, {
      type: 'update.ended',
      deviceId: context.deviceId,
      outcome,
      version: context.installed,
    });
  }
}

export const clientUpdateMachine = setup({
  types: {
    context: {} as ClientUpdateContext,
    events: {} as ClientUpdateEvent,
    input: {} as ClientUpdateInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: clientUpdateActors,
  delays: {
    clientRestart: CLIENT_RESTART_DELAY_MS,
    offlineWait: RESTART_OFFLINE_WAIT_MS,
    onlineWait: RESTART_ONLINE_WAIT_MS,
  },
  guards: {
    downloadStarted: ({ event }) =>
      event.type === 'update.progress' && event.state !== 'checking' && event.state !== 'idle',
    installStarted: ({ event }) =>
      event.type === 'update.progress' && (event.state === 'verifying' || event.state === 'installing'),
    offline: ({ event }) => event.type === 'update.presence' && !event.online,
    online: ({ event }) => event.type === 'update.presence' && event.online,
    sameVersion: ({ context, event }) =>
      (event as { output?: { current?: string } }).output?.current === context.installed,
  },
  actions: {
    progress: assign(({ context, event }) =>
      event.type === 'update.progress'
        ? {
            bytesDone: event.bytes_done,
            bytesTotal: event.bytes_total,
            installed: event.version ?? context.installed,
          }
        : {},
    ),
    setInstalled: assign({
      installed: ({ context, event }) =>
        event.type === 'update.installed' ? event.version : context.installed,
      bytesDone: ({ context }) => context.bytesTotal,
    }),
    setFailed: assign(({ event }) => {
      if (event.type !== 'update.failed') return {};
      const errorType = typeOf(event.code);
      return {
        errorType,
        error:
          errorType === 'other' ? event.message || UPDATE_FLOW_TEXTS.other : UPDATE_FLOW_TEXTS[errorType],
      };
    }),
    setActorError: assign({
      errorType: 'other' as const,
      error: ({ event }) => errorText((event as { error?: unknown }).error, UPDATE_FLOW_TEXTS.other),
    }),
    startCountdown: assign({ restartAt: () => Date.now() + CLIENT_RESTART_DELAY_MS }),
    stopCountdown: assign({ restartAt: null }),
    setNotOffline: assign({ errorType: 'other' as const, error: UPDATE_FLOW_TEXTS.notOffline }),
    setNotBack: assign({ errorType: 'other' as const, error: UPDATE_FLOW_TEXTS.notBack }),
    setWrongVersion: assign({ errorType: 'other' as const, error: UPDATE_FLOW_TEXTS.wrongVersion }),
    noticeDone: emit(({ context }): ConsoleEmitted => ({
      type: 'notice',
      title: UPDATE_FLOW_TEXTS.updated,
      message: `${context.deviceName}: ${context.installed ?? ''}`,
      variant: 'success',
    })),
    noticeFailed: emit(({ context }): ConsoleEmitted => ({
      type: 'notice',
      title: context.deviceName,
      message: context.error ?? UPDATE_FLOW_TEXTS.other,
      variant: 'danger',
    })),
    reportDone: enqueueActions(({ context, enqueue }) => report(context, enqueue, 'done')),
    reportInstalled: enqueueActions(({ context, enqueue }) => report(context, enqueue, 'installed')),
    reportFailed: enqueueActions(({ context, enqueue }) => report(context, enqueue, 'failed')),
  },
}).createMachine({
  id: 'clientUpdate',
  context: ({ input }) => ({
    deviceId: input.deviceId,
    deviceName: input.deviceName,
    version: input.version,
    reportTo: input.reportTo ?? null,
    bytesDone: 0,
    bytesTotal: 0,
    installed: input.version,
    restartAt: null,
    errorType: null,
    error: null,
  }),
  initial: 'working',
  states: {
    /** update-client runs on the device. */
    working: {
      invoke: {
        id: 'runUpdate',
        src: 'runUpdate',
        input: ({ context }) => ({ deviceId: context.deviceId, version: context.version }),
      },
      on: {
        'update.installed': { target: 'awaitingRestartConfirm', actions: 'setInstalled' },
        'update.failed': { target: 'failed', actions: 'setFailed' },
      },
      initial: 'checking',
      states: {
        /** The release is looked up and the free disk checked (before anything is downloaded). */
        checking: {
          on: {
            'update.progress': [
              { guard: 'installStarted', target: 'installing', actions: 'progress' },
              { guard: 'downloadStarted', target: 'downloading', actions: 'progress' },
              { actions: 'progress' },
            ],
          },
        },
        downloading: {
          on: {
            'update.progress': [
              { guard: 'installStarted', target: 'installing', actions: 'progress' },
              { actions: 'progress' },
            ],
          },
        },
        /** Verified (sha256) and unpacked. */
        installing: {
          on: { 'update.progress': { actions: 'progress' } },
        },
      },
    },
    /** Success offers a restart (§4). */
    awaitingRestartConfirm: {
      on: {
        'update.confirmRestart': { target: 'restarting' },
        'update.later': { target: 'installed' },
      },
    },
    restarting: {
      initial: 'countdown',
      states: {
        /** §9 "Client restarts 10 s after confirm". */
        countdown: {
          entry: 'startCountdown',
          exit: 'stopCountdown',
          after: { clientRestart: { target: 'sending' } },
          on: { 'update.cancelRestart': { target: '#clientUpdate.awaitingRestartConfirm' } },
        },
        sending: {
          invoke: {
            id: 'sendRestart',
            src: 'sendRestart',
            input: deviceOf,
            onDone: { target: 'waitingOffline' },
            onError: { target: '#clientUpdate.failed', actions: 'setActorError' },
          },
        },
        waitingOffline: {
          invoke: { id: 'presence', src: 'watchPresence', input: deviceOf },
          on: { 'update.presence': { guard: 'offline', target: 'waitingOnline' } },
          after: { offlineWait: { target: '#clientUpdate.failed', actions: 'setNotOffline' } },
        },
        waitingOnline: {
          invoke: { id: 'presence', src: 'watchPresence', input: deviceOf },
          on: { 'update.presence': { guard: 'online', target: 'verifying' } },
          after: { onlineWait: { target: '#clientUpdate.failed', actions: 'setNotBack' } },
        },
        /** The device runs the new version. */
        verifying: {
          invoke: {
            id: 'readVersion',
            src: 'readVersion',
            input: deviceOf,
            onDone: [
              { guard: 'sameVersion', target: '#clientUpdate.done' },
              { target: '#clientUpdate.failed', actions: 'setWrongVersion' },
            ],
            onError: { target: '#clientUpdate.failed', actions: 'setActorError' },
          },
        },
      },
    },
    done: { type: 'final', entry: ['noticeDone', 'reportDone'] },
    /** Installed; the restart was declined (the release runs after the next restart). */
    installed: { type: 'final', entry: 'reportInstalled' },
    failed: { type: 'final', entry: ['noticeFailed', 'reportFailed'] },
  },
});
