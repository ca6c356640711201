/**
 * The console's root actor — ARCHITECTURE "Console state: the actor system"; spec §4 "Auth" (logout clears
 * tokens, user info and several other stores), §4 "Signal connection status".
 *
 * Starts the long-lived actors with their systemIds (machines/systemIds.ts): notifications (toasts and the
 * dialog queue), auth, signal, devicesTable, devicePool, streams (the camera grid). It mirrors auth: on sign-in it connects signalling, loads the devices
 * table and the saved camera layout (which reopens its streams); on
 * sign-out (logout, failed refresh or rejected token) it disconnects signalling, closes every device link
 * and stream and clears the table.
 *
 * The children are the pure machines; the console's composition root (src/console/system.ts) merges the
 * features' `.provide()` implementations and starts this machine.
 */
import { raise, sendTo, setup, type SnapshotFrom } from 'xstate';
import { PEER_CONNECTION_LIMIT } from '../src/protocol/constants';
import { authMachine } from './accounts/auth.machine';
import { devicePoolMachine } from './devices/devicePool.machine';
import { devicesTableMachine } from './devices/devicesTable.machine';
import { signalMachine } from './signalling/signal.machine';
import { cameraGridMachine } from './cameras/cameraGrid.machine';
import { notificationsMachine } from './notifications/notifications.machine';
import { SYSTEM_IDS } from './systemIds';

export interface SystemInput {
  /** This tab's PeerJS peer id ('web-' + random url-safe characters). */
  browserId: string;
  /** Overrides the peer connection limit (§9: 50). */
  peerConnectionLimit?: number;
}

export interface SystemContext {
  browserId: string;
  peerConnectionLimit: number;
}

/** Internal: auth's snapshot changed; `signedIn` ⇔ auth matches 'signedIn'. */
export type SystemEvent = { type: 'system.auth'; signedIn: boolean };

export const systemMachine = setup({
  types: {
    context: {} as SystemContext,
    events: {} as SystemEvent,
    input: {} as SystemInput,
  },
  actors: {
    auth: authMachine,
    signal: signalMachine,
    devicesTable: devicesTableMachine,
    devicePool: devicePoolMachine,
    streams: cameraGridMachine,
    notifications: notificationsMachine,
  },
  actions: {
    /** Turns auth's snapshot into `system.auth` for the signedOut/signedIn states below. */
    relayAuthState: raise((_, params: { signedIn: boolean }) => ({
      type: 'system.auth' as const,
      signedIn: params.signedIn,
    })),
    connectSignal: sendTo(SYSTEM_IDS.signal, { type: 'signal.connect' }),
    loadDevicesTable: sendTo(SYSTEM_IDS.devicesTable, { type: 'table.refresh' }),
    loadCameraLayout: sendTo(SYSTEM_IDS.streams, { type: 'grid.load' }),
    disconnectSignal: sendTo(SYSTEM_IDS.signal, { type: 'signal.disconnect' }),
    closeDeviceLinks: sendTo(SYSTEM_IDS.devicePool, { type: 'pool.reset' }),
    closeStreams: sendTo(SYSTEM_IDS.streams, { type: 'streams.reset' }),
    clearDevicesTable: sendTo(SYSTEM_IDS.devicesTable, { type: 'table.reset' }),
  },
  guards: {
    authSignedIn: ({ event }) => event.signedIn,
    authSignedOut: ({ event }) => !event.signedIn,
  },
}).createMachine({
  id: 'system',
  context: ({ input }) => ({
    browserId: input.browserId,
    peerConnectionLimit: input.peerConnectionLimit ?? PEER_CONNECTION_LIMIT,
  }),
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
    {
      id: SYSTEM_IDS.signal,
      systemId: SYSTEM_IDS.signal,
      src: 'signal',
      input: ({ context }) => ({ browserId: context.browserId }),
    },
    { id: SYSTEM_IDS.devicesTable, systemId: SYSTEM_IDS.devicesTable, src: 'devicesTable' },
    {
      id: SYSTEM_IDS.devicePool,
      systemId: SYSTEM_IDS.devicePool,
      src: 'devicePool',
      input: ({ context }) => ({ limit: context.peerConnectionLimit }),
    },
    {
      id: SYSTEM_IDS.streams,
      systemId: SYSTEM_IDS.streams,
      src: 'streams',
      input: ({ context }) => ({ idPrefix: context.browserId }),
    },
  ],
  initial: 'signedOut',
  states: {
    signedOut: {
      on: {
        'system.auth': { guard: 'authSignedIn', target: 'signedIn' },
      },
    },
    signedIn: {
      entry: ['connectSignal', 'loadDevicesTable', 'loadCameraLayout'],
      exit: ['disconnectSignal', 'closeDeviceLinks', 'closeStreams', 'clearDevicesTable'],
      on: {
        'system.auth': { guard: 'authSignedOut', target: 'signedOut' },
      },
    },
  },
});
