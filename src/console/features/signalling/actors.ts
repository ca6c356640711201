/**
 * The signalling feature's side effects: the signal machine's actors over the peer link
 * (machines/signalling/signal.machine.ts; platform/peerLink.ts), and the connectivity notice's watcher
 * (machines/signalling/connectivity.machine.ts: the browser's online/offline events, the signal actor's and the
 * inbox's realtime socket's state).
 */
import { fromCallback, fromPromise, type AnyActorRef, type Subscription } from 'xstate';
import {
  connectivityMachine,
  type ConnectivityEvent,
} from '../../../../machines/signalling/connectivity.machine';
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
  const connectivity = connectivityMachine.provide({
    actors: {
      watchConnectivity: fromCallback<ConnectivityEvent>(({ sendBack, system }) => watch(sendBack, system)),
    },
    actions: {
      retryNow: ({ system }) => {
        (system.get(SYSTEM_IDS.signal) as AnyActorRef | undefined)?.send({ type: 'signal.retry' });
        (system.get(SYSTEM_IDS.inbox) as AnyActorRef | undefined)?.send({ type: 'inbox.retry' });
      },
    },
  });
  return [
    featureActor({
      systemId: SYSTEM_IDS.connectivity,
      logic: connectivity,
      onSignIn: [{ type: 'connectivity.start' }],
      onSignOut: [{ type: 'connectivity.stop' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.signal,
      logic: signal,
      input: ({ browserId }) => ({ browserId }),
      onSignIn: [{ type: 'signal.connect' }],
      onSignOut: [{ type: 'signal.disconnect' }],
    }),
  ];
}

/** How often the watcher looks for the inbox actor, which is loaded after sign-in in its own chunk, ms. */
const INBOX_LOOKUP_MS = 1_000;

/**
 * Reports the browser's network and the server's links to the connectivity machine: `server.up` when the signal
 * actor is connected and the realtime socket is (once it has connected at all: the bell loads lazily), else
 * `server.down`; only changes are sent. Returns the cleanup.
 */
function watch(
  sendBack: (e: ConnectivityEvent) => void,
  system: { get(id: string): AnyActorRef | undefined },
): () => void {
  const onOffline = () => sendBack({ type: 'connectivity.browser.offline' });
  const onOnline = () => sendBack({ type: 'connectivity.browser.online' });
  // No window outside a browser (the console's system runs in unit tests too): the server links only.
  const browser = typeof window === 'undefined' ? null : window;
  browser?.addEventListener('offline', onOffline);
  browser?.addEventListener('online', onOnline);
  if (browser && !browser.navigator.onLine) onOffline();

  let signalUp = false;
  /** null until the realtime socket has connected once. */
  let socketUp: boolean | null = null;
  let last: boolean | null = null;
  const report = () => {
    const up = signalUp && socketUp !== false;
    if (up === last) return;
    last = up;
    sendBack({ type: up ? 'connectivity.server.up' : 'connectivity.server.down' });
  };
  const subs: Subscription[] = [];
  const signal = system.get(SYSTEM_IDS.signal);
  if (signal) {
    const read = (s: { matches(v: string): boolean }) => {
      signalUp = s.matches('connected');
      report();
    };
    read(signal.getSnapshot());
    subs.push(signal.subscribe(read));
  }
  const readInbox = (s: { context?: { connected?: boolean } }) => {
    const connected = s.context?.connected === true;
    // The realtime socket is back (socket.io retries every ≤ 5 s): the server is there again, so signalling
    // need not wait out its back-off (up to 30 s).
    if (connected && socketUp === false && !signalUp) signal?.send({ type: 'signal.retry' });
    if (connected || socketUp !== null) socketUp = connected;
    report();
  };
  const findInbox = () => {
    const inbox = system.get(SYSTEM_IDS.inbox);
    if (!inbox) return;
    clearInterval(timer);
    readInbox(inbox.getSnapshot());
    subs.push(inbox.subscribe(readInbox));
  };
  const timer = setInterval(findInbox, INBOX_LOOKUP_MS);
  findInbox();
  return () => {
    clearInterval(timer);
    for (const sub of subs) sub.unsubscribe();
    browser?.removeEventListener('offline', onOffline);
    browser?.removeEventListener('online', onOnline);
  };
}
