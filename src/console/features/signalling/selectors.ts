/**
 * What views read of the signal actor (§4 "Signal connection status: none, connecting, connected,
 * failed"): `snapshotToView` maps a snapshot to that status with `matches` and `hasTag`.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
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
