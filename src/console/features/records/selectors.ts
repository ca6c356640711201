/**
 * Pure views of the records screen (issue 16 §2 records) and their hooks: the devices to choose from (connected
 * ones enabled, the others disabled with their link status) and the records machine's list view.
 */
import { useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { recordsMachine } from '../../../../machines/records/records.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { RecordItem } from '../../../protocol/records';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type RecordsSnapshot = SnapshotFrom<typeof recordsMachine>;

interface DevicePoolSnapshotLike {
  context: {
    order: readonly string[];
    status: Readonly<Record<string, string>>;
    connections: Readonly<Record<string, { getSnapshot(): { context: { device: { label: string } } } }>>;
  };
}

/** A device of the chooser: connected (link open) or not, with its link status. */
export interface RecordDevice {
  deviceId: string;
  name: string;
  connected: boolean;
  status: string;
}

/** The device pool's devices, oldest first; connected = link open. */
export function recordDevicesOf(pool: DevicePoolSnapshotLike | undefined): RecordDevice[] {
  if (!pool) return [];
  const c = pool.context;
  return c.order.map((id) => ({
    deviceId: id,
    name: c.connections[id]?.getSnapshot().context.device.label || id,
    connected: c.status[id] === 'open' && !!c.connections[id],
    status: c.status[id] ?? 'closed',
  }));
}

export interface RecordsView {
  state: 'noDevice' | 'offline' | 'loading' | 'failed' | 'list' | 'confirming' | 'removing';
  deviceId: string | null;
  items: RecordItem[];
  error: string | null;
  target: string | null;
}

export function recordsToView(s: RecordsSnapshot): RecordsView {
  return {
    state: s.value as RecordsView['state'],
    deviceId: s.context.deviceId,
    items: s.context.items,
    error: s.context.error,
    target: s.context.target,
  };
}

/** Bytes as a short text (B, KB, MB; 1 KB = 1024 B). */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

export function useRecordsRef(): AnyActorRef {
  return actorOf<AnyActorRef>(useSystem(), SYSTEM_IDS.records);
}

export function useRecordsView(): RecordsView {
  return useSelector(
    useRecordsRef(),
    (s: RecordsSnapshot) => recordsToView(s),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
}

export function useRecordDevices(): RecordDevice[] {
  const system = useSystem();
  const pool = system.system.get(SYSTEM_IDS.devicePool) as AnyActorRef | undefined;
  const fallback = useRecordsRef();
  return useSelector(
    pool ?? fallback,
    (s: unknown) => (pool ? recordDevicesOf(s as DevicePoolSnapshotLike) : []),
    (a, b) => JSON.stringify(a) === JSON.stringify(b),
  );
}
