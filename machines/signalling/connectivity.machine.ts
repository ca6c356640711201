/**
 * Connectivity notice — issue 15 "Server restarted: browsers … reconnect without a reload", "Browser offline
 * for 10 s: the console says so and recovers everything by itself"; spec §4 "Signal connection status" (the
 * server's links this watches), §8 (notices). README "Decisions where the spec is silent": "Server away, browser
 * offline".
 *
 * Signed in (`connectivity.start`), `watchConnectivity` reports the browser's network (`connectivity.browser.*`,
 * from the window's online/offline events) and the server's links (`connectivity.server.*`: up when the
 * signalling peer and the realtime socket are both connected, down when either dropped). The console shows:
 *   - `offline` while the browser says it has no network;
 *   - `reconnecting` when a link to the server dropped and has not come back within RECONNECT_NOTICE_DELAY_MS
 *     (a blip shows nothing); after STILL_UNREACHABLE_MS it says the server is still unreachable (`unreachable`),
 *     with "Try now", while the links keep retrying with their back-off;
 *   - nothing once the links are up again.
 * Coming back online, or "Try now", runs `retryNow` (signalling and the realtime socket try at once instead of
 * waiting out their back-off). Nothing here stays "in progress" forever: every state names what it waits for.
 *
 * No side effects here: src/console/features/signalling/actors.ts provides `watchConnectivity` and `retryNow`.
 */
import { assign, fromCallback, setup } from 'xstate';

/** A dropped link must stay down this long before the console says it is reconnecting, ms. */
export const RECONNECT_NOTICE_DELAY_MS = 1_500;
/** After this long reconnecting, the notice says the server is still unreachable, ms. */
export const STILL_UNREACHABLE_MS = 60_000;

export interface ConnectivityContext {
  /** The server's links (signalling and realtime socket) are up, as last reported. */
  serverUp: boolean;
}

export type ConnectivityEvent =
  | { type: 'connectivity.start' }
  | { type: 'connectivity.stop' }
  /** "Try now" on the notice. */
  | { type: 'connectivity.retry' }
  | { type: 'connectivity.browser.offline' }
  | { type: 'connectivity.browser.online' }
  | { type: 'connectivity.server.up' }
  | { type: 'connectivity.server.down' };

export const connectivityMachine = setup({
  types: {
    context: {} as ConnectivityContext,
    events: {} as ConnectivityEvent,
  },
  actors: {
    /** Reports connectivity.browser.online/offline and connectivity.server.up/down (at once: the current ones). */
    watchConnectivity: fromCallback<ConnectivityEvent>(() => {
      throw new Error("connectivity: actor 'watchConnectivity' is not provided");
    }),
  },
  actions: {
    /** Asks signalling and the realtime socket to try again now. Provided by the console. */
    retryNow: () => {},
    markUp: assign({ serverUp: true }),
    markDown: assign({ serverUp: false }),
  },
  guards: {
    serverUp: ({ context }) => context.serverUp,
  },
  delays: {
    reconnectNoticeDelay: RECONNECT_NOTICE_DELAY_MS,
    stillUnreachable: STILL_UNREACHABLE_MS,
  },
}).createMachine({
  id: 'connectivity',
  initial: 'idle',
  context: { serverUp: false },
  on: {
    'connectivity.stop': { target: '.idle', actions: 'markDown' },
  },
  states: {
    idle: {
      on: { 'connectivity.start': { target: 'watching' } },
    },
    watching: {
      invoke: { id: 'watchConnectivity', src: 'watchConnectivity' },
      initial: 'starting',
      on: {
        'connectivity.browser.offline': { target: '.offline' },
      },
      states: {
        /** Signed in, links opening for the first time: nothing to say yet. */
        starting: {
          on: {
            'connectivity.server.up': { target: 'online', actions: 'markUp' },
            'connectivity.server.down': { actions: 'markDown' },
          },
        },
        online: {
          on: {
            'connectivity.server.up': { actions: 'markUp' },
            'connectivity.server.down': { target: 'lost', actions: 'markDown' },
          },
        },
        /** A link dropped a moment ago: it may come back before the user needs to know. */
        lost: {
          after: { reconnectNoticeDelay: { target: 'reconnecting' } },
          on: {
            'connectivity.server.up': { target: 'online', actions: 'markUp' },
            'connectivity.server.down': { actions: 'markDown' },
          },
        },
        reconnecting: {
          tags: ['notice'],
          after: { stillUnreachable: { target: 'unreachable' } },
          on: {
            'connectivity.server.up': { target: 'online', actions: 'markUp' },
            'connectivity.server.down': { actions: 'markDown' },
            'connectivity.retry': { actions: 'retryNow' },
          },
        },
        /** Still no server after STILL_UNREACHABLE_MS; the links keep trying (their back-off, ≤ 30 s). */
        unreachable: {
          tags: ['notice'],
          on: {
            'connectivity.server.up': { target: 'online', actions: 'markUp' },
            'connectivity.server.down': { actions: 'markDown' },
            'connectivity.retry': { target: 'reconnecting', actions: 'retryNow' },
          },
        },
        offline: {
          tags: ['notice'],
          on: {
            'connectivity.server.up': { actions: 'markUp' },
            'connectivity.server.down': { actions: 'markDown' },
            'connectivity.browser.online': [
              { guard: 'serverUp', target: 'online', actions: 'retryNow' },
              { target: 'reconnecting', actions: 'retryNow' },
            ],
          },
        },
      },
    },
  },
});
