/**
 * The signalling feature's side effects: the signal machine's actors over the peer link
 * (machines/signalling/signal.machine.ts; platform/peerLink.ts).
 */
import { fromCallback, fromPromise } from 'xstate';
import { signalMachine } from '../../../../machines/signalling/signal.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';

/** The signal actor: connects on sign-in, disconnects on sign-out. */
export function signallingActors({ peerLink }: Platform): FeatureActor[] {
  const signal = signalMachine.provide({
    actors: {
      openSignalling: fromPromise(async () => peerLink.open()),
      watchSignalling: fromCallback(({ sendBack }) =>
        peerLink.onLost((error) => sendBack({ type: 'signal.lost', error })),
      ),
    },
    actions: {
      closeSignalling: () => peerLink.close(),
    },
  });
  return [
    featureActor({
      systemId: SYSTEM_IDS.signal,
      logic: signal,
      input: ({ browserId }) => ({ browserId }),
      onSignIn: [{ type: 'signal.connect' }],
      onSignOut: [{ type: 'signal.disconnect' }],
    }),
  ];
}
