/**
 * The console's root actor — ARCHITECTURE "Console state: the actor system"; spec §4 "Auth" (logout clears
 * tokens, user info and several other stores), §4 "Signal connection status".
 *
 * Invokes the two actors every console has, with their systemIds (machines/systemIds.ts): notifications
 * (toasts and the dialog queue) and auth (the session). It starts the long-lived actors the features give it
 * (`SystemInput.features`: signal, devicesTable, devicePool, streams…), each under its systemId, and mirrors
 * auth: on sign-in it tells each feature actor its `onSignIn` events (connect signalling, load the devices
 * table and the saved camera layout), on sign-out (logout, failed refresh or rejected token) its `onSignOut`
 * events (disconnect signalling, close every device link and stream, clear the table), in the features' order.
 *
 * A new feature's long-lived actor needs no change here: its feature lists it. The children are pure
 * machines; the console's composition root (src/console/system.ts) gives their implementations.
 */
import {
  assign,
  enqueueActions,
  raise,
  setup,
  type AnyActorLogic,
  type EventFromLogic,
  type EventObject,
  type InputFrom,
  type SnapshotFrom,
} from 'xstate';
import { PEER_CONNECTION_LIMIT } from '../src/protocol/constants';
import { authMachine } from './accounts/auth.machine';
import { notificationsMachine } from './notifications/notifications.machine';
import { SYSTEM_IDS } from './systemIds';

/** What a feature actor's input may be made of. */
export interface SystemFacts {
  /** This tab's PeerJS peer id ('web-' + random url-safe characters). */
  browserId: string;
  /** The peer connection limit (§9: 50). */
  peerConnectionLimit: number;
}

/** A feature's long-lived actor, started by the root under its systemId. */
export interface FeatureActor {
  /** Its systemId (machines/systemIds.ts); also its id among the root's children. */
  systemId: string;
  /** The machine, with its implementations provided. */
  logic: AnyActorLogic;
  input?: (facts: SystemFacts) => unknown;
  /** Events it is sent on sign-in, in order. */
  onSignIn?: readonly EventObject[];
  /** Events it is sent on sign-out, in order. */
  onSignOut?: readonly EventObject[];
}

/** A FeatureActor whose input and events are checked against its machine. */
export function featureActor<L extends AnyActorLogic>(actor: {
  systemId: string;
  logic: L;
  input?: (facts: SystemFacts) => InputFrom<L>;
  onSignIn?: readonly EventFromLogic<L>[];
  onSignOut?: readonly EventFromLogic<L>[];
}): FeatureActor {
  return actor;
}

export interface SystemInput {
  /** This tab's PeerJS peer id ('web-' + random url-safe characters). */
  browserId: string;
  /** Overrides the peer connection limit (§9: 50). */
  peerConnectionLimit?: number;
  /** The features' long-lived actors, in the order they are told of sign-in and sign-out. */
  features?: readonly FeatureActor[];
}

export interface SystemContext extends SystemFacts {
  features: readonly FeatureActor[];
  /** Names of the features whose lazily loaded actors have been started (`system.features.loaded`). */
  loaded: readonly string[];
  /** Names of lazily loaded features a screen asked for before sign-in (`system.features.want`). */
  wanted: readonly string[];
}

export type SystemEvent =
  /** Internal: auth's snapshot changed; `signedIn` ⇔ auth matches 'signedIn'. */
  | { type: 'system.auth'; signedIn: boolean }
  /**
   * A feature's actors arrived in their own chunk (ConsoleFeature.loadActors, sent by the composition root after
   * the first sign-in): each is started under its systemId, told its sign-in events when signed in, and the
   * feature's name is added to `loaded`. A feature already loaded, or an actor whose systemId runs, is ignored.
   */
  | { type: 'system.features.loaded'; name: string; features: readonly FeatureActor[] }
  /**
   * A screen of a lazily loaded feature is shown (a public one may be, signed out): the composition root loads
   * the features in `wanted` as it does every lazy feature at sign-in.
   */
  | { type: 'system.features.want'; name: string };

export const systemMachine = setup({
  types: {
    context: {} as SystemContext,
    events: {} as SystemEvent,
    input: {} as SystemInput,
  },
  actors: {
    auth: authMachine,
    notifications: notificationsMachine,
  },
  actions: {
    /** Turns auth's snapshot into `system.auth` for the signedOut/signedIn states below. */
    relayAuthState: raise((_, params: { signedIn: boolean }) => ({
      type: 'system.auth' as const,
      signedIn: params.signedIn,
    })),
    /** Starts every feature actor under its systemId. */
    startFeatures: enqueueActions(({ context, enqueue }) => {
      for (const feature of context.features) {
        enqueue.spawnChild(feature.logic as never, {
          id: feature.systemId,
          systemId: feature.systemId,
          input: feature.input?.(context),
        });
      }
    }),
    /**
     * Starts a loaded feature's actors (`system.features.loaded`), adds them to `features` (so sign-out and
     * later sign-ins reach them) and, when `signedIn`, tells them their sign-in events.
     */
    startLoadedFeatures: enqueueActions(({ context, event, enqueue }, params: { signedIn: boolean }) => {
      if (event.type !== 'system.features.loaded' || context.loaded.includes(event.name)) return;
      const running = new Set(context.features.map((f) => f.systemId));
      const added = event.features.filter((f) => !running.has(f.systemId));
      for (const feature of added) {
        enqueue.spawnChild(feature.logic as never, {
          id: feature.systemId,
          systemId: feature.systemId,
          input: feature.input?.(context),
        });
      }
      enqueue.assign({
        features: [...context.features, ...added],
        loaded: [...context.loaded, event.name],
      });
      if (!params.signedIn) return;
      for (const f of added) for (const e of f.onSignIn ?? []) enqueue.sendTo(f.systemId, e);
    }),
    /** Tells each feature actor its sign-in events, in the features' order. */
    tellSignedIn: enqueueActions(({ context, enqueue }) => {
      for (const f of context.features) for (const e of f.onSignIn ?? []) enqueue.sendTo(f.systemId, e);
    }),
    /** Tells each feature actor its sign-out events, in the features' order. */
    tellSignedOut: enqueueActions(({ context, enqueue }) => {
      for (const f of context.features) for (const e of f.onSignOut ?? []) enqueue.sendTo(f.systemId, e);
    }),
  },
  guards: {
    authSignedIn: ({ event }) => event.type === 'system.auth' && event.signedIn,
    authSignedOut: ({ event }) => event.type === 'system.auth' && !event.signedIn,
  },
}).createMachine({
  id: 'system',
  context: ({ input }) => ({
    browserId: input.browserId,
    peerConnectionLimit: input.peerConnectionLimit ?? PEER_CONNECTION_LIMIT,
    features: input.features ?? [],
    loaded: [],
    wanted: [],
  }),
  entry: 'startFeatures',
  invoke: [
    // First, so that every other actor's notices have somewhere to go.
    { id: SYSTEM_IDS.notifications, systemId: SYSTEM_IDS.notifications, src: 'notifications' },
    {
      id: SYSTEM_IDS.auth,
      systemId: SYSTEM_IDS.auth,
      src: 'auth',
      onSnapshot: {
        actions: {
          type: 'relayAuthState',
          params: ({ event }) => ({
            signedIn: (event.snapshot as SnapshotFrom<typeof authMachine>).matches('signedIn'),
          }),
        },
      },
    },
  ],
  on: {
    'system.features.want': {
      guard: ({ context, event }) => !context.wanted.includes(event.name),
      actions: assign({ wanted: ({ context, event }) => [...context.wanted, event.name] }),
    },
  },
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        'system.auth': { guard: 'authSignedIn', target: 'signedIn' },
        'system.features.loaded': {
          actions: { type: 'startLoadedFeatures', params: { signedIn: false } },
        },
      },
    },
    signedIn: {
      entry: 'tellSignedIn',
      exit: 'tellSignedOut',
      on: {
        'system.auth': { guard: 'authSignedOut', target: 'signedOut' },
        'system.features.loaded': {
          actions: { type: 'startLoadedFeatures', params: { signedIn: true } },
        },
      },
    },
  },
});
