/**
 * What views read of the devices table, the device pool and each device connection (§4 Device connection,
 * §7 get_devices/, §3 live data). `tableToView` and `connectionToView` map snapshots to facts with
 * `matches`, `hasTag` and `can`; the hooks select primitives or small memoised values, so a metrics tick
 * re-renders only what shows it.
 */
import { useEffect } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type {
  DeviceConnectionStatus,
  deviceConnectionMachine,
} from '../../../../machines/devices/deviceConnection.machine';
import type { devicePoolMachine } from '../../../../machines/devices/devicePool.machine';
import type { devicesTableMachine } from '../../../../machines/devices/devicesTable.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem, type ConsoleSystem } from '../../shell/SystemProvider';

export type DevicesTableRef = ActorRefFrom<typeof devicesTableMachine>;
export type DevicePoolRef = ActorRefFrom<typeof devicePoolMachine>;
/** One device's connection actor (spawned by devicePool). */
export type DeviceConnectionRef = ActorRefFrom<typeof deviceConnectionMachine>;

type DevicesTableSnapshot = SnapshotFrom<typeof devicesTableMachine>;
type DevicePoolSnapshot = SnapshotFrom<typeof devicePoolMachine>;
type DeviceConnectionSnapshot = SnapshotFrom<typeof deviceConnectionMachine>;

// ---- refs ------------------------------------------------------------------------------------------

/** The devices table actor (§7 get_devices/, §9 defaults). */
export const devicesTableRefOf = (system: ConsoleSystem): DevicesTableRef =>
  actorOf<DevicesTableRef>(system, SYSTEM_IDS.devicesTable);
/** The device pool actor (§4 Device connection, limit 50). */
export const devicePoolRefOf = (system: ConsoleSystem): DevicePoolRef =>
  actorOf<DevicePoolRef>(system, SYSTEM_IDS.devicePool);

export function useDevicesTableRef(): DevicesTableRef {
  return devicesTableRefOf(useSystem());
}
export function useDevicePoolRef(): DevicePoolRef {
  return devicePoolRefOf(useSystem());
}

// ---- devices table ---------------------------------------------------------------------------------

/** Paging, sorting and search state of the devices table. */
export interface DevicesTableView {
  /** 'idle' before the first load (signed out), then 'loading' | 'ready' | 'failed'. */
  status: 'idle' | 'loading' | 'ready' | 'failed';
  page: number;
  perPage: number;
  orderBy: 'label' | 'client_name' | 'created_at' | 'is_active';
  orderAs: 'asc' | 'desc';
  search: string;
  totalItems: number;
  activeDevicesCount: number;
  error: string | null;
}

export function tableToView(s: DevicesTableSnapshot): DevicesTableView {
  const status = s.hasTag('busy')
    ? 'loading'
    : s.hasTag('error')
      ? 'failed'
      : s.matches('ready')
        ? 'ready'
        : 'idle';
  return {
    status,
    page: s.context.page,
    perPage: s.context.perPage,
    orderBy: s.context.orderBy,
    orderAs: s.context.orderAs,
    search: s.context.search,
    totalItems: s.context.totalItems,
    activeDevicesCount: s.context.activeDevicesCount,
    error: s.context.error,
  };
}

/** Any selection of the devices table snapshot. */
export function useDevicesTableSelector<T>(
  selector: (s: DevicesTableSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useDevicesTableRef(), selector, compare);
}

export function useDevicesTableView(): DevicesTableView {
  return useDevicesTableSelector(tableToView, shallowEqual);
}

/** The rows of the current page (same array while the page does not change). */
export function useDevicesTableRows() {
  return useDevicesTableSelector((s) => s.context.rows);
}

/**
 * Load-on-visit, once for every screen that shows the devices table's figures: the machine loads on sign-in;
 * a table that has never loaded loads when such a screen opens (`table.visit`, ignored otherwise).
 */
export function useDevicesTableVisit(): void {
  const table = useDevicesTableRef();
  useEffect(() => {
    table.send({ type: 'table.visit' });
  }, [table]);
}

// ---- device pool and connections -------------------------------------------------------------------

/** The connection actor of one device, or undefined when it has none. */
export function useDeviceConnectionRef(deviceId: string): DeviceConnectionRef | undefined {
  return useSelector(useDevicePoolRef(), (s: DevicePoolSnapshot) => s.context.connections[deviceId]);
}

/** Device ids with a connection actor, oldest first (same array while the pool does not change). */
export function useConnectedDeviceIds(): string[] {
  return useSelector(useDevicePoolRef(), (s: DevicePoolSnapshot) => s.context.order, shallowEqual);
}

/** Connection refs of the pool's order (oldest first). */
export function connectionRefsOf(s: DevicePoolSnapshot): DeviceConnectionRef[] {
  return s.context.order
    .map((id) => s.context.connections[id])
    .filter((r): r is DeviceConnectionRef => r !== undefined);
}

/** All connection refs, oldest first. */
export function useConnectionRefs(): DeviceConnectionRef[] {
  return useSelector(useDevicePoolRef(), connectionRefsOf, shallowEqual);
}

/** Every connection actor the pool holds, including closed and errored ones (their notices and dialogs). */
export function allConnectionRefsOf(s: DevicePoolSnapshot): DeviceConnectionRef[] {
  return Object.values(s.context.connections).filter((r): r is DeviceConnectionRef => r !== undefined);
}

/** What a view shows of one device connection (§4); no actor → 'notConnected'. */
export interface ConnectionView {
  status: DeviceConnectionStatus;
  /** Connect (or retry) is offered rather than Disconnect. */
  canConnect: boolean;
  /** The link is down after an error or a close: the error text and a Retry are shown. */
  down: boolean;
  error: string | null;
}

export function connectionToView(s: DeviceConnectionSnapshot | undefined): ConnectionView {
  if (!s) return { status: 'notConnected', canConnect: true, down: false, error: null };
  const status: DeviceConnectionStatus = s.matches('open')
    ? 'open'
    : s.hasTag('reconnecting')
      ? 'reconnecting'
      : s.hasTag('busy')
        ? 'opening'
        : s.hasTag('error')
          ? 'errored'
          : s.matches('closed')
            ? 'closed'
            : 'notConnected';
  return {
    status,
    canConnect: s.hasTag('connectable'),
    down: s.hasTag('connectable') && !s.matches('notConnected'),
    error: s.context.error,
  };
}

export function useConnectionView(ref: DeviceConnectionRef | undefined): ConnectionView {
  return useSelector(ref, connectionToView, shallowEqual);
}

/** Status of one device connection (§4): no actor → 'notConnected'. */
export function useConnectionStatus(ref: DeviceConnectionRef | undefined): DeviceConnectionStatus {
  return useSelector(ref, (s: DeviceConnectionSnapshot | undefined) => connectionToView(s).status);
}

/** Live health and usage of one connected device (§3 live data), flattened to primitives. */
export interface LiveMetrics {
  cpuPercent: number | null;
  gpuPercent: number | null;
  gpuMemoryUsedMb: number | null;
  gpuMemoryTotalMb: number | null;
  memoryUsedMb: number | null;
  memoryTotalMb: number | null;
  temperatureC: number | null;
  rttMs: number | null;
  healthStatus: string | null;
  uptimeS: number | null;
  clientVersion: string | null;
  error: string | null;
}
export function selectLiveMetrics(s: DeviceConnectionSnapshot | undefined): LiveMetrics {
  const c = s?.context;
  const gpu = c?.usage?.gpus[0];
  return {
    cpuPercent: c?.usage?.cpu ?? null,
    gpuPercent: gpu?.utilisation ?? c?.jtop?.gpu_utilisation ?? null,
    gpuMemoryUsedMb: gpu?.memory_used_mb ?? null,
    gpuMemoryTotalMb: gpu?.memory_total_mb ?? null,
    memoryUsedMb: c?.usage?.memory_used_mb ?? null,
    memoryTotalMb: c?.usage?.memory_total_mb ?? null,
    temperatureC: c?.usage?.temperature_c ?? null,
    rttMs: c?.rttMs ?? null,
    healthStatus: c?.health?.status ?? null,
    uptimeS: c?.health?.uptime_s ?? null,
    clientVersion: c?.clientVersion ?? null,
    error: c?.error ?? null,
  };
}
export function useLiveMetrics(ref: DeviceConnectionRef | undefined): LiveMetrics {
  return useSelector(ref, selectLiveMetrics, shallowEqual);
}

/** The client version a connected device reports (null until known); changes rarely, unlike metrics. */
export function useClientVersion(ref: DeviceConnectionRef | undefined): string | null {
  return useSelector(ref, (s: DeviceConnectionSnapshot | undefined) => s?.context.clientVersion ?? null);
}

/** The device record a connection holds (label, chipset_id…). */
export function useConnectionDevice(ref: DeviceConnectionRef) {
  return useSelector(ref, (s: DeviceConnectionSnapshot) => s.context.device);
}

/** Cameras reported by a connected device (same array until the list changes). */
export function useConnectionCameras(ref: DeviceConnectionRef) {
  return useSelector(ref, (s: DeviceConnectionSnapshot) => s.context.cameras);
}
