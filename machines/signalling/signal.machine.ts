/**
 * Signal connection — spec §4 "Signal connection status: none, 1 connecting, 2 connected, 3 failed"; §8
 * "Session Could Not Be Generated: check internet".
 *
 * The browser's PeerJS peer (id = browserId, token from get_browser_token) registers with the signalling
 * server. A drop of the signalling socket goes back to `connecting` (the service reconnects the same peer);
 * a failure waits with a growing back-off (`signalRetryDelay`, 1 s … 30 s) and tries again, or at once on
 * `signal.retry`. The root system sends `signal.connect` on sign-in and `signal.disconnect` on sign-out.
 *
 * Side effects: `openSignalling` (resolves when the peer is open), `watchSignalling` (reports a drop with
 * `signal.lost`) and `closeSignalling` (destroys the peer) are provided by src/console/features/signalling/actors.ts over the peer link.
 */
import { assign, enqueueActions, fromCallback, fromPromise, setup } from 'xstate';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';

/** §4 numeric statuses of the signal connection. */
export const SIGNAL_STATUS = { none: 0, connecting: 1, connected: 2, failed: 3 } as const;

/** Time allowed for the peer to open before the attempt counts as failed, ms. */
export const SIGNAL_CONNECT_TIMEOUT_MS = 15_000;
/** Back-off between automatic attempts: 1 s, 2 s, 4 s … capped at 30 s. */
export const SIGNAL_RETRY_BASE_MS = 1_000;
export const SIGNAL_RETRY_MAX_MS = 30_000;

export interface SignalContext {
  /** This tab's PeerJS peer id ('web-' + random). */
  browserId: string;
  /** Why the last attempt failed or the link dropped; null when fine. */
  error: string | null;
  /** Failed attempts since the last successful open (drives the back-off). */
  attempts: number;
}

export interface SignalInput {
  browserId: string;
}

export type SignalEvent =
  | { type: 'signal.connect' }
  | { type: 'signal.disconnect' }
  | { type: 'signal.retry' }
  /** Internal (watchSignalling): the signalling socket dropped or the peer errored. */
  | { type: 'signal.lost'; error: string };

export const signalMachine = setup({
  types: {
    context: {} as SignalContext,
    events: {} as SignalEvent,
    input: {} as SignalInput,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /** Gets a browser token and opens (or reconnects) the PeerJS peer. Resolves when it is open. */
    openSignalling: fromPromise<void, SignalInput>(async () => {
      throw new Error("signal: actor 'openSignalling' is not provided");
    }),
    /** Watches the open peer; sends `signal.lost` when the signalling socket drops. */
    watchSignalling: fromCallback<SignalEvent, SignalInput>(() => {
      throw new Error("signal: actor 'watchSignalling' is not provided");
    }),
  },
  actions: {
    /** Destroys the peer (and with it every device link). Provided by services. */
    closeSignalling: () => {},
    resetAttempts: assign({ attempts: 0, error: null }),
    countFailure: assign({ attempts: ({ context }) => context.attempts + 1 }),
    /** §8 "Session Could Not Be Generated: check internet" — once per outage, not on every retry. */
    notifyFirstFailure: enqueueActions(({ context, enqueue }) => {
      if (context.attempts !== 1) return;
      enqueue.emit({
        type: 'notice',
        title: 'Session Could Not Be Generated',
        message: 'Please check your internet connection.',
        variant: 'danger',
      });
    }),
  },
  delays: {
    signalConnectTimeout: SIGNAL_CONNECT_TIMEOUT_MS,
    signalRetryDelay: ({ context }) =>
      Math.min(SIGNAL_RETRY_MAX_MS, SIGNAL_RETRY_BASE_MS * 2 ** Math.max(0, context.attempts - 1)),
  },
}).createMachine({
  id: 'signal',
  initial: 'none',
  context: ({ input }) => ({ browserId: input.browserId, error: null, attempts: 0 }),
  on: {
    'signal.disconnect': { target: '.none', actions: ['closeSignalling', 'resetAttempts'] },
  },
  states: {
    none: {
      on: { 'signal.connect': { target: 'connecting' } },
    },
    connecting: {
      tags: ['busy'],
      invoke: {
        id: 'openSignalling',
        src: 'openSignalling',
        input: ({ context }) => ({ browserId: context.browserId }),
        onDone: { target: 'connected', actions: 'resetAttempts' },
        onError: {
          target: 'failed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'Signalling server is not reachable.'),
          }),
        },
      },
      after: {
        signalConnectTimeout: {
          target: 'failed',
          actions: assign({ error: 'Signalling server did not answer in time.' }),
        },
      },
    },
    connected: {
      invoke: {
        id: 'watchSignalling',
        src: 'watchSignalling',
        input: ({ context }) => ({ browserId: context.browserId }),
      },
      on: {
        'signal.lost': {
          target: 'connecting',
          actions: assign({ error: ({ event }) => event.error }),
        },
      },
    },
    failed: {
      tags: ['error'],
      entry: ['countFailure', 'notifyFirstFailure'],
      after: {
        signalRetryDelay: { target: 'connecting' },
      },
      on: {
        'signal.retry': { target: 'connecting' },
        'signal.connect': { target: 'connecting' },
      },
    },
  },
});
