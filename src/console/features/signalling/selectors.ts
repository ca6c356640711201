/**
 * What views read of the signal actor (§4 "Signal connection status: none, connecting, connected,
 * failed"): `snapshotToView` maps a snapshot to that status with `matches` and `hasTag`.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { connectivityMachine } from '../../../../machines/signalling/connectivity.machine';
import type { signalMachine } from '../../../../machines/signalling/signal.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem, type ConsoleSystem } from '../../shell/SystemProvider';

export type SignalRef = ActorRefFrom<typeof signalMachine>;
type SignalSnapshot = SnapshotFrom<typeof signalMachine>;

/** §4 signal connection status. */
export type SignalStatus = 'none' | 'connecting' | 'connected' | 'failed';

/** The signal actor (§4 Signal connection status). */
export const signalRefOf = (system: ConsoleSystem): SignalRef =>
  actorOf<SignalRef>(system, SYSTEM_IDS.signal);
export function useSignalRef(): SignalRef {
  return signalRefOf(useSystem());
}

export interface SignalView {
  status: SignalStatus;
  /** A retry can be asked for now. */
  canRetry: boolean;
}

export function snapshotToView(s: SignalSnapshot): SignalView {
  const status: SignalStatus = s.hasTag('error')
    ? 'failed'
    : s.hasTag('busy')
      ? 'connecting'
      : s.matches('connected')
        ? 'connected'
        : 'none';
  return { status, canRetry: s.can({ type: 'signal.retry' }) };
}

/** Signal connection status (§4) and whether a retry is offered. */
export function useSignalView(): SignalView {
  return useSelector(useSignalRef(), snapshotToView, shallowEqual);
}

type ConnectivityRef = ActorRefFrom<typeof connectivityMachine>;
type ConnectivitySnapshot = SnapshotFrom<typeof connectivityMachine>;

/** What the connectivity notice says (machines/signalling/connectivity.machine.ts); null: nothing. */
export type ConnectivityNotice = 'offline' | 'reconnecting' | 'unreachable' | null;

/** Snapshot → notice. Pure. */
export function connectivityToNotice(s: ConnectivitySnapshot): ConnectivityNotice {
  if (!s.hasTag('notice')) return null;
  if (s.matches({ watching: 'offline' })) return 'offline';
  if (s.matches({ watching: 'unreachable' })) return 'unreachable';
  return 'reconnecting';
}

/** The connectivity actor. */
export function useConnectivityRef(): ConnectivityRef {
  return actorOf<ConnectivityRef>(useSystem(), SYSTEM_IDS.connectivity);
}

/** The connectivity notice to show now. */
export function useConnectivityNotice(): ConnectivityNotice {
  return useSelector(useConnectivityRef(), connectivityToNotice);
}
