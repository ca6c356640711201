/**
 * Pure views of the demo apps (machines/demoApps/*.machine.ts) and their hooks. `demoAppToView` turns an
 * app actor's snapshot into what its page shows; `speedSummary` the speed table's figures.
 */
import { useSelector } from '@xstate/react';
import { useEffect } from 'react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { demoAppMachine } from '../../../../machines/demoApps/demoApp.machine';
import type {
  AiPlatformRef,
  DemoAppRef,
  demoAppsMachine,
} from '../../../../machines/demoApps/demoApps.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { DemoAppName, DemoEngine, SpeedPass } from '../../../protocol/demoApps';
import { actorOf, useSystem } from '../../shell/SystemProvider';

type AppSnapshot = SnapshotFrom<typeof demoAppMachine>;
type ParentSnapshot = SnapshotFrom<typeof demoAppsMachine>;

export type SourcePhase =
  'idle' | 'loading' | 'failed' | 'choosing' | 'connecting' | 'deviceFailed' | 'ready';

export interface DemoAppView {
  phase: SourcePhase;
  devices: AppSnapshot['context']['devices'];
  deviceId: string | null;
  cameras: AppSnapshot['context']['cameras'];
  cameraId: string | null;
  cameraName: string;
  engine: DemoEngine | null;
  video: 'off' | 'starting' | 'playing' | 'failed';
  videoError: string | null;
  work: 'idle' | 'detecting' | 'answering' | 'measuring' | 'observing';
  error: string | null;
  ctx: AppSnapshot['context'];
}

export function demoAppToView(s: AppSnapshot): DemoAppView {
  const c = s.context;
  const v = s.value as string | { ready: { video: string; work: string } };
  const phase: SourcePhase =
    typeof v === 'string' ? (v === 'loadingDevices' ? 'loading' : (v as SourcePhase)) : 'ready';
  const ready = typeof v === 'object' ? v.ready : null;
  return {
    phase,
    devices: c.devices,
    deviceId: c.deviceId,
    cameras: c.cameras,
    cameraId: c.cameraId,
    cameraName: c.cameras.find((x) => x.camera_id === c.cameraId)?.name ?? '',
    engine: c.engines.find((e) => e.app === c.app) ?? null,
    video: ready ? (ready.video as DemoAppView['video']) : 'off',
    videoError: c.videoError,
    work: ready ? (ready.work as DemoAppView['work']) : 'idle',
    error: c.error,
    ctx: c,
  };
}

/** Count, mean and max speed (km/h, one decimal) of the passes. */
export function speedSummary(passes: readonly SpeedPass[]): { count: number; mean: number; max: number } {
  if (!passes.length) return { count: 0, mean: 0, max: 0 };
  const sum = passes.reduce((a, p) => a + p.speed_kmh, 0);
  return {
    count: passes.length,
    mean: Math.round((sum / passes.length) * 10) / 10,
    max: Math.max(...passes.map((p) => p.speed_kmh)),
  };
}

/** Counts of `key` values (null → 'unknown'), sorted by key. */
export function countBy<T>(items: readonly T[], key: (t: T) => string | null): [string, number][] {
  const m = new Map<string, number>();
  for (const i of items) {
    const k = key(i) ?? 'unknown';
    m.set(k, (m.get(k) ?? 0) + 1);
  }
  return [...m].sort((a, b) => a[0].localeCompare(b[0]));
}

const sameJson = (a: unknown, b: unknown) => a === b;

function useParent(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.demoApps);
}

/** The app's actor (spawned and opened on first use). */
export function useDemoApp(app: DemoAppName): DemoAppRef | undefined {
  const parent = useParent();
  useEffect(() => parent.send({ type: 'demoApps.open', app }), [parent, app]);
  return useSelector(parent, (s: ParentSnapshot) => s.context.apps[app]);
}

export function useDemoAppView(ref: DemoAppRef): DemoAppView {
  return useSelector(
    ref,
    demoAppToView,
    (a, b) => sameJson(a.ctx, b.ctx) && a.phase === b.phase && a.video === b.video && a.work === b.work,
  );
}

export function usePlatform(): AiPlatformRef | undefined {
  const parent = useParent();
  useEffect(() => parent.send({ type: 'platform.open' }), [parent]);
  return useSelector(parent, (s: ParentSnapshot) => s.context.platform ?? undefined);
}
