/**
 * Pure views of the models screens (issue 9) and their hooks: the list (§3 data, page_info, loading), the
 * model page with its deploy progress, /remote-downloads grouped facts, and the devices a deploy can target
 * (connected ones of the device pool).
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { modelDetailMachine, DeployProgress } from '../../../../machines/models/modelDetail.machine';
import type { modelListMachine, ModelQuery } from '../../../../machines/models/modelList.machine';
import type { remoteDownloadsMachine } from '../../../../machines/models/remoteDownloads.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Model, ModelDeployment, ModelDetail } from '../../../protocol/models';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type ModelListSnapshot = SnapshotFrom<typeof modelListMachine>;
export type ModelDetailSnapshot = SnapshotFrom<typeof modelDetailMachine>;
export type RemoteDownloadsSnapshot = SnapshotFrom<typeof remoteDownloadsMachine>;

export interface ModelListView {
  status: 'idle' | 'loading' | 'failed' | 'list';
  /** A reload keeps the rows shown: true while one runs. */
  loading: boolean;
  models: Model[];
  query: ModelQuery;
  page: number;
  pages: number;
  total: number;
  confirming: Model | null;
  error: string | null;
}

export function modelListToView(s: ModelListSnapshot): ModelListView {
  const c = s.context;
  const status = s.matches('failed')
    ? 'failed'
    : s.matches('idle')
      ? 'idle'
      : c.lastUpdate === null
        ? 'loading'
        : 'list';
  return {
    status,
    loading: s.hasTag('loading'),
    models: c.data,
    query: c.query,
    page: c.pageInfo.page,
    pages: Math.max(1, Math.ceil(c.pageInfo.total_items / Math.max(1, c.pageInfo.per_page))),
    total: c.pageInfo.total_items,
    confirming: s.matches('confirming') || s.matches('deleting') ? c.target : null,
    error: c.error,
  };
}

export interface DeployView extends DeployProgress {
  /** 0–100. */
  percent: number;
  running: boolean;
}

export interface ModelDetailView {
  status: 'idle' | 'loading' | 'failed' | 'shown';
  model: ModelDetail | null;
  loading: boolean;
  error: string | null;
  confirmingVersion: number | null;
  deploy: DeployView | null;
}

export const percentOf = (done: number, total: number) =>
  total > 0 ? Math.min(100, Math.floor((100 * done) / total)) : 0;

export function modelDetailToView(s: ModelDetailSnapshot): ModelDetailView {
  const c = s.context;
  const status = s.matches('failed') ? 'failed' : s.matches('idle') ? 'idle' : c.model ? 'shown' : 'loading';
  return {
    status,
    model: c.model,
    loading: s.hasTag('loading'),
    error: c.error,
    confirmingVersion:
      s.matches({ shown: 'confirming' }) || s.matches({ shown: 'deleting' }) ? c.targetVersion : null,
    deploy: c.deploy
      ? {
          ...c.deploy,
          percent: percentOf(c.deploy.bytesDone, c.deploy.bytesTotal),
          running: s.hasTag('deploying'),
        }
      : null,
  };
}

export interface DeviceDownloads {
  deviceId: string;
  label: string;
  /** Installed model versions on this device, as it reported them. */
  installed: ModelDeployment[];
}

export interface RemoteDownloadsView {
  loading: boolean;
  deployments: (ModelDeployment & { percent: number })[];
  devices: DeviceDownloads[];
  error: string | null;
}

export function remoteDownloadsToView(s: RemoteDownloadsSnapshot): RemoteDownloadsView {
  const c = s.context;
  const devices = new Map<string, DeviceDownloads>();
  for (const d of c.deployments) {
    const entry = devices.get(d.device_id) ?? { deviceId: d.device_id, label: d.device_label, installed: [] };
    if (d.state === 'installed') entry.installed.push(d);
    devices.set(d.device_id, entry);
  }
  return {
    loading: c.lastUpdate === null && s.hasTag('loading'),
    deployments: c.deployments.map((d) => ({ ...d, percent: percentOf(d.bytes_done, d.bytes_total) })),
    devices: [...devices.values()].sort((a, b) => a.label.localeCompare(b.label)),
    error: c.error,
  };
}

/** Bytes as a short text (B, KB, MB, GB; 1 KB = 1024 B). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

/** '640x640', or '' without an input size. */
export const inputSizeText = (m: Pick<Model, 'input_width' | 'input_height'>) =>
  m.input_width && m.input_height ? `${m.input_width}x${m.input_height}` : '';

interface DevicePoolSnapshotLike {
  context: {
    order: readonly string[];
    status: Readonly<Record<string, string>>;
    connections: Readonly<Record<string, { getSnapshot(): { context: { device: { label: string } } } }>>;
  };
}

/** A device a deploy can target: connected ones only. */
export interface DeployDevice {
  deviceId: string;
  name: string;
}

export function deployDevicesOf(pool: DevicePoolSnapshotLike | undefined): DeployDevice[] {
  if (!pool) return [];
  const c = pool.context;
  return c.order
    .filter((id) => c.status[id] === 'open' && !!c.connections[id])
    .map((id) => ({ deviceId: id, name: c.connections[id]?.getSnapshot().context.device.label || id }));
}

const same = <T>(a: T, b: T) => JSON.stringify(a) === JSON.stringify(b);

export const useModelListRef = () => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.modelList);
export const useModelDetailRef = () => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.modelDetail);
export const useRemoteDownloadsRef = () => actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.remoteDownloads);

export function useModelListView(): ModelListView {
  return useSelector(useModelListRef(), (s: ModelListSnapshot) => modelListToView(s), same);
}
export function useModelDetailView(): ModelDetailView {
  return useSelector(useModelDetailRef(), (s: ModelDetailSnapshot) => modelDetailToView(s), same);
}
export function useRemoteDownloadsView(): RemoteDownloadsView {
  return useSelector(useRemoteDownloadsRef(), (s: RemoteDownloadsSnapshot) => remoteDownloadsToView(s), same);
}
export function useDeployDevices(): DeployDevice[] {
  const system = useSystem();
  const pool = system.system.get(SYSTEM_IDS.devicePool) as AnyActorRef | undefined;
  const fallback = useModelListRef();
  return useSelector(
    pool ?? fallback,
    (s: unknown) => (pool ? deployDevicesOf(s as DevicePoolSnapshotLike) : []),
    same,
  );
}
