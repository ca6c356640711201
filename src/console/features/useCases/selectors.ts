/**
 * The use cases list machine's snapshot as the screens' view (pure: casesToView), and the hooks the
 * screens read actors through (issue 11 use cases; machines/useCases/). The pure views of the answers are in
 * views.ts.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { useCaseDataMachine } from '../../../../machines/useCases/useCaseData.machine';
import type { useCasesMachine } from '../../../../machines/useCases/useCases.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { UseCase, UseCaseKind } from '../../../protocol/analytics';
import { actorOf, useSystem } from '../../shell/SystemProvider';
import { jobsToView, useJobsRefMaybe, type JobsSnapshot } from '../inference/selectors';
import type { PickJob } from './views';

export type UseCasesSnapshot = SnapshotFrom<typeof useCasesMachine>;
export type UseCaseDataSnapshot = SnapshotFrom<typeof useCaseDataMachine>;

export interface UseCasesView {
  state: 'idle' | 'loading' | 'ready' | 'failed' | 'starting' | 'confirming' | 'stopping';
  busy: boolean;
  /** The use cases of the kind asked for, by name. */
  list: UseCase[];
  error: string | null;
  formError: string | null;
  /** The use case asked to be stopped (confirming / stopping). */
  stopping: UseCase | null;
  /** The last one started (the screen selects it). */
  created: string | null;
  lastUpdate: number | null;
}

const STATES = ['idle', 'loading', 'ready', 'failed', 'starting', 'confirming', 'stopping'] as const;

export function casesToView(s: UseCasesSnapshot, kind: UseCaseKind): UseCasesView {
  const c = s.context;
  return {
    state: STATES.find((k) => s.matches(k)) ?? 'idle',
    busy: s.hasTag('busy'),
    list: c.useCases.filter((u) => u.kind === kind).sort((a, b) => a.name.localeCompare(b.name)),
    error: c.error,
    formError: c.formError,
    stopping: c.target,
    created: c.created,
    lastUpdate: c.lastUpdate,
  };
}

/** A data reader's view: the answer (null before the first), its error, whether a read runs. */
export interface DataView<A> {
  data: A | null;
  error: string | null;
  loading: boolean;
  lastUpdate: number | null;
}

export function dataToView<A>(s: UseCaseDataSnapshot): DataView<A> {
  return {
    data: (s.context.data as A | null) ?? null,
    error: s.context.error,
    loading: s.hasTag('busy'),
    lastUpdate: s.context.lastUpdate,
  };
}

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

/** The use cases actor (throws before the feature's actors have started). */
export function useUseCasesRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.useCases);
}

export function useUseCasesView(kind: UseCaseKind): UseCasesView {
  return useSelector(useUseCasesRef(), (s: UseCasesSnapshot) => casesToView(s, kind), sameJson);
}

export function useDataView<A>(ref: AnyActorRef): DataView<A> {
  return useSelector(ref, (s: UseCaseDataSnapshot) => dataToView<A>(s), sameJson);
}

const NO_JOBS: AnyActorRef = {
  getSnapshot: () => null,
  subscribe: () => ({ unsubscribe: () => undefined }),
} as unknown as AnyActorRef;

/**
 * The inference jobs list (the inference feature's jobs actor, the same list its start form and /jobs use)
 * as the start form's picks; [] before that feature's actors have started. Asks it to load once.
 */
export function useJobPicks(): PickJob[] {
  const ref = useJobsRefMaybe();
  useEffect(() => {
    ref?.send({ type: 'jobs.load' });
  }, [ref]);
  return useSelector(
    ref ?? NO_JOBS,
    (s: JobsSnapshot | null) =>
      s
        ? jobsToView(s).rows.map((r) => ({
            id: r.id,
            name: r.name,
            device: r.device,
            deviceId: r.deviceId,
            camera: r.camera,
            cameraId: r.cameraId,
            state: r.state,
          }))
        : [],
    sameJson,
  );
}
