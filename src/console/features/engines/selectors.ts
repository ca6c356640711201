/**
 * Pure views of the engines page (issue 10 "Engines"; §3 inferenceEngines; §5; §9 device score) and their hooks:
 * the connected devices (from the device pool), one device's engines machine as rows, and the §9 scores with
 * the chosen device. No protocol values are imported (zod stays out of the chunk).
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { deviceEnginesMachine, DriverCheck } from '../../../../machines/engines/deviceEngines.machine';
import type { deviceScoresMachine } from '../../../../machines/engines/deviceScores.machine';
import {
  chooseDevice,
  scoresOf,
  X86_CHIPSET_ID,
  type DeviceScore,
} from '../../../../machines/engines/engineView';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { EngineName, EngineState } from '../../../protocol/engines';
import { actorOf, useSystem } from '../../shell/SystemProvider';

interface DevicePoolSnapshotLike {
  context: {
    order: readonly string[];
    status: Readonly<Record<string, string>>;
    connections: Readonly<
      Record<string, { getSnapshot(): { context: { device: { label: string; chipset_id: string } } } }>
    >;
  };
}

/** A connected device of the page. */
export interface EngineDevice {
  deviceId: string;
  name: string;
  /** §9: chipset id '0' is x86, any other a Jetson. */
  kind: 'jetson' | 'x86';
}

/** The device pool's devices whose link is open, oldest first. */
export function engineDevicesOf(pool: DevicePoolSnapshotLike | undefined): EngineDevice[] {
  if (!pool) return [];
  const c = pool.context;
  return c.order
    .filter((id) => c.status[id] === 'open' && !!c.connections[id])
    .map((id) => {
      const d = c.connections[id]!.getSnapshot().context.device;
      return { deviceId: id, name: d.label || id, kind: d.chipset_id === X86_CHIPSET_ID ? 'x86' : 'jetson' };
    });
}

export interface EngineRow {
  name: EngineName;
  state: EngineState;
  version: string | null;
  runsIn: 'native' | 'container' | 'simulated';
  image: string | null;
  sizeMb: number | null;
  /** Download percent (0–100) while its image downloads, else null. */
  percent: number | null;
  /** Execution providers (onnxruntime) with whether they load. */
  providers: { name: string; available: boolean }[];
  provider: string | null;
  message: string | null;
  /** A download can be started from here (its image is missing and no download of this device runs). */
  canDownload: boolean;
  /** This page is downloading it (Cancel is offered). */
  canCancel: boolean;
}

export interface DeviceEnginesView {
  status: 'checking' | 'ready' | 'following' | 'downloading' | 'canceling' | 'failed';
  /** First check not answered yet. */
  loading: boolean;
  backend: 'host' | 'sim' | null;
  gpu: boolean | null;
  engines: EngineRow[];
  driver: DriverCheck | null;
  error: string | null;
}

export type DeviceEnginesSnapshot = SnapshotFrom<typeof deviceEnginesMachine>;

export function deviceEnginesToView(s: DeviceEnginesSnapshot): DeviceEnginesView {
  const status = s.value as DeviceEnginesView['status'];
  const c = s.context;
  const busy = status === 'downloading' || status === 'canceling';
  const engines = (c.check?.engines.engines ?? []).map((e): EngineRow => {
    const mine = busy && c.image !== null && e.image === c.image;
    const percent = mine ? c.percent : e.state === 'downloading' ? e.download_percent : null;
    return {
      name: e.name,
      state: mine ? 'downloading' : e.state,
      version: e.version,
      runsIn: e.runs_in,
      image: e.image,
      sizeMb: e.image_size_mb,
      percent,
      providers: e.execution_providers.map((p) => ({ name: p.name, available: p.available })),
      provider: e.execution_provider,
      message: e.message,
      canDownload: status === 'ready' && e.state === 'not_installed' && !!e.image,
      canCancel: mine && status === 'downloading',
    };
  });
  return {
    status,
    loading: !c.check && status === 'checking',
    backend: c.check?.engines.backend ?? null,
    gpu: c.check?.engines.gpu ?? null,
    engines,
    driver: c.check?.driver ?? null,
    error: c.error,
  };
}

export interface ScoresView {
  scores: DeviceScore[];
  /** §9: the device the lowest score chooses; null without scores. */
  chosen: string | null;
}

export function scoresToView(s: SnapshotFrom<typeof deviceScoresMachine>): ScoresView {
  const scores = scoresOf(s.context.deviceIds, s.context.usages);
  return { scores, chosen: chooseDevice(scores) };
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export function useScoresRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.engines);
}

export function useScoresView(): ScoresView {
  return useSelector(useScoresRef(), scoresToView, same);
}

export function useEngineDevices(): EngineDevice[] {
  const system = useSystem();
  const pool = system.system.get(SYSTEM_IDS.devicePool) as AnyActorRef | undefined;
  const fallback = useScoresRef();
  return useSelector(
    pool ?? fallback,
    (s: unknown) => (pool ? engineDevicesOf(s as DevicePoolSnapshotLike) : []),
    same,
  );
}
