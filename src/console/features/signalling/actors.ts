/**
 * The signalling feature's side effects: the signal machine's actors over the peer link
 * (machines/signalling/signal.machine.ts; platform/peerLink.ts).
 */
import { fromCallback, fromPromise } from 'xstate';
import { signalMachine } from '../../../../machines/signalling/signal.machine';
import type { Platform, SystemActors } from '../feature';

export function provideSignalling({ peerLink }: Platform): Pick<SystemActors, 'signal'> {
  return {
    signal: signalMachine.provide({
      actors: {
        openSignalling: fromPromise(async () => peerLink.open()),
        watchSignalling: fromCallback(({ sendBack }) =>
          peerLink.onLost((error) => sendBack({ type: 'signal.lost', error })),
        ),
      },
      actions: {
        closeSignalling: () => peerLink.close(),
      },
    }),
  };
}
