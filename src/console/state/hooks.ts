/**
 * Selector hooks that connect views to the console's actors (ARCHITECTURE "Console state": views send
 * events and read snapshots through selectors returning primitives or small memoised values, so a
 * metrics tick re-renders only what shows it). Built on `useSelector` from @xstate/react.
 *
 * Long-lived actors (machines/systemIds.ts): auth, signal, devicesTable, devicePool, streams.
 * Per-item actors: one deviceConnection per device (from devicePool), one stream per stream (from streams).
 */
import { useMemo } from 'react';
import { shallowEqual, useSelector } from '@xstate/react';
import { getAuthRef, getDevicePoolRef, getDevicesTableRef, getSignalRef, getStreamsRef } from '../system';
import { streamStateOf, type DeviceConnectionState, type StreamState } from '../lib/format';
import type { RecordingFile, StreamStats } from '../../../machines/cameras/stream.machine';
import { useSystem } from '../shell/SystemProvider';

export type AuthRef = ReturnType<typeof getAuthRef>;
export type SignalRef = ReturnType<typeof getSignalRef>;
export type DevicesTableRef = ReturnType<typeof getDevicesTableRef>;
export type DevicePoolRef = ReturnType<typeof getDevicePoolRef>;
export type StreamsRef = ReturnType<typeof getStreamsRef>;
/** One device's connection actor (spawned by devicePool). */
export type DeviceConnectionRef = NonNullable<
  ReturnType<DevicePoolRef['getSnapshot']>['context']['connections'][string]
>;
/** One stream's actor (spawned by streams). */
export type StreamRef = ReturnType<StreamsRef['getSnapshot']>['context']['entries'][number]['ref'];
/** One grid entry (stream, camera, page, layout cell). */
export type GridEntry = ReturnType<StreamsRef['getSnapshot']>['context']['entries'][number];

type AuthSnapshot = ReturnType<AuthRef['getSnapshot']>;
type SignalSnapshot = ReturnType<SignalRef['getSnapshot']>;
type DevicesTableSnapshot = ReturnType<DevicesTableRef['getSnapshot']>;
type DevicePoolSnapshot = ReturnType<DevicePoolRef['getSnapshot']>;
type StreamsSnapshot = ReturnType<StreamsRef['getSnapshot']>;
type DeviceConnectionSnapshot = ReturnType<DeviceConnectionRef['getSnapshot']>;
type StreamSnapshot = ReturnType<StreamRef['getSnapshot']>;

// ---- refs ------------------------------------------------------------------------------------------

/** The auth actor (§4 Auth). */
export function useAuthRef(): AuthRef {
  return getAuthRef(useSystem());
}
/** The signalling-connection actor (§4 Signal connection status). */
export function useSignalRef(): SignalRef {
  return getSignalRef(useSystem());
}
/** The server-paginated devices table actor (§7 get_devices/, §9 defaults). */
export function useDevicesTableRef(): DevicesTableRef {
  return getDevicesTableRef(useSystem());
}
/** The device connection pool actor (§4 Device connection, limit 50). */
export function useDevicePoolRef(): DevicePoolRef {
  return getDevicePoolRef(useSystem());
}
/** The camera grid actor (§2 Camera control page, §4 Stream slots). */
export function useStreamsRef(): StreamsRef {
  return getStreamsRef(useSystem());
}

// ---- auth ------------------------------------------------------------------------------------------

/** Any selection of the auth snapshot. */
export function useAuthSelector<T>(selector: (s: AuthSnapshot) => T, compare?: (a: T, b: T) => boolean): T {
  return useSelector(useAuthRef(), selector, compare);
}

/** Sign-in facts the guards and the shell need; stable while they do not change. */
export interface SessionFacts {
  signedIn: boolean;
  isAdmin: boolean;
  restoring: boolean;
  busy: boolean;
  email: string | null;
}
export function useSession(): SessionFacts {
  return useAuthSelector(
    (s): SessionFacts => ({
      signedIn: s.matches('signedIn'),
      isAdmin: s.context.user?.roles.includes('admin') ?? false,
      restoring: s.matches('restoring'),
      busy: s.hasTag('busy'),
      email: s.context.user?.email ?? null,
    }),
    shallowEqual,
  );
}

/** Login screen facts: submitting, the server error text (§5 §8), the confirm-mail message (§4 status 1). */
export interface LoginFacts {
  submitting: boolean;
  error: string | null;
  confirmMail: string | null;
}
export function useLoginFacts(): LoginFacts {
  return useAuthSelector(
    (s): LoginFacts => ({
      submitting: s.matches({ signedOut: 'submitting' }),
      error: s.context.error,
      confirmMail: s.matches({ signedOut: 'confirmMail' }) ? s.context.confirmMailMessage : null,
    }),
    shallowEqual,
  );
}

// ---- signal ----------------------------------------------------------------------------------------

/** Signal connection status (§4): 'none' | 'connecting' | 'connected' | 'failed'. */
export function useSignalStatus(): 'none' | 'connecting' | 'connected' | 'failed' {
  return useSelector(
    useSignalRef(),
    (s: SignalSnapshot) => s.value as 'none' | 'connecting' | 'connected' | 'failed',
  );
}

// ---- devices table ---------------------------------------------------------------------------------

/** Any selection of the devices table snapshot. */
export function useDevicesTableSelector<T>(
  selector: (s: DevicesTableSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useDevicesTableRef(), selector, compare);
}

/** Paging, sorting and search state of the devices table. */
export interface DevicesTableQuery {
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
export function useDevicesTableQuery(): DevicesTableQuery {
  return useDevicesTableSelector(
    (s): DevicesTableQuery => ({
      status: s.value as DevicesTableQuery['status'],
      page: s.context.page,
      perPage: s.context.perPage,
      orderBy: s.context.orderBy,
      orderAs: s.context.orderAs,
      search: s.context.search,
      totalItems: s.context.totalItems,
      activeDevicesCount: s.context.activeDevicesCount,
      error: s.context.error,
    }),
    shallowEqual,
  );
}

/** The rows of the current page (same array while the page does not change). */
export function useDevicesTableRows() {
  return useDevicesTableSelector((s) => s.context.rows);
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

/** All connection refs, oldest first. */
export function useConnectionRefs(): DeviceConnectionRef[] {
  return useSelector(
    useDevicePoolRef(),
    (s: DevicePoolSnapshot) =>
      s.context.order
        .map((id) => s.context.connections[id])
        .filter((r): r is DeviceConnectionRef => r !== undefined),
    shallowEqual,
  );
}

/** Every connection actor the pool holds, including closed and errored ones (for notices and dialogs). */
export function useAllConnectionRefs(): DeviceConnectionRef[] {
  return useSelector(
    useDevicePoolRef(),
    (s: DevicePoolSnapshot) => Object.values(s.context.connections) as DeviceConnectionRef[],
    shallowEqual,
  );
}

/** State of one device connection (§4): undefined ref → 'notConnected'. */
export function useConnectionState(ref: DeviceConnectionRef | undefined): DeviceConnectionState {
  return useSelector(ref, (s: DeviceConnectionSnapshot | undefined) => connectionStateOf(s));
}

/** The top-level state of a connection snapshot ('open' is a parallel state with sub-states). */
export function connectionStateOf(s: DeviceConnectionSnapshot | undefined): DeviceConnectionState {
  if (!s) return 'notConnected';
  const value = s.value as unknown;
  if (typeof value === 'string') return value as DeviceConnectionState;
  if (value && typeof value === 'object') {
    if ('open' in value) return 'open';
    if ('reconnecting' in value) return 'reconnecting';
  }
  return 'notConnected';
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

/** The error text of a device connection (§8 texts, e.g. 'Can not connect to the device…'), or null. */
export function useConnectionError(ref: DeviceConnectionRef | undefined): string | null {
  return useSelector(ref, (s: DeviceConnectionSnapshot | undefined) => s?.context.error ?? null);
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

// ---- streams ---------------------------------------------------------------------------------------

/** Streams of the grid in order, with the current page (§2: 12 per page). */
export function useStreamsSelector<T>(
  selector: (s: StreamsSnapshot) => T,
  compare?: (a: T, b: T) => boolean,
): T {
  return useSelector(useStreamsRef(), selector, compare);
}

/** Facts of one stream cell, flattened to primitives plus the MediaStream, stats and recording objects. */
export interface StreamFacts {
  state: StreamState;
  error: string | null;
  deviceLabel: string;
  cameraLabel: string;
  mediaStream: MediaStream | null;
  /** Recorder: 'idle' | 'recording' | 'saving' (only while playing; otherwise 'idle'). */
  recorder: 'idle' | 'recording' | 'saving';
  recording: RecordingFile | null;
  statsOn: boolean;
  stats: StreamStats | null;
  application: boolean;
  resolutionLabel: string | null;
}
export function selectStreamFacts(s: StreamSnapshot): StreamFacts {
  const value = s.value as unknown;
  const recorder =
    value && typeof value === 'object' && 'playing' in value
      ? ((value as { playing: { recorder: StreamFacts['recorder'] } }).playing.recorder ?? 'idle')
      : 'idle';
  const r = s.context.resolution;
  return {
    state: streamStateOf(value),
    error: s.context.error,
    deviceLabel: s.context.deviceLabel,
    cameraLabel: s.context.camera.label || s.context.camera.name,
    mediaStream: s.context.mediaStream,
    recorder,
    recording: s.context.recording,
    statsOn: s.context.statsOn,
    stats: s.context.stats,
    application: s.context.application,
    resolutionLabel: r ? `${r.width}x${r.height} ${r.fps} fps` : null,
  };
}
export function useStreamFacts(ref: StreamRef): StreamFacts {
  return useSelector(ref, selectStreamFacts, shallowEqual);
}

/** The grid entries on the shown page, the page (0-based) and the page count (§2: 12 per page). */
export interface GridPageFacts {
  entries: GridEntry[];
  page: number;
  pageCount: number;
  total: number;
  loading: boolean;
}
export function useGridPage(): GridPageFacts {
  return useStreamsSelector(
    (s): GridPageFacts => {
      const all = s.context.entries;
      return {
        entries: all.filter((e) => e.page === s.context.page),
        page: s.context.page,
        pageCount: Math.max(1, ...all.map((e) => e.page + 1)),
        total: all.length,
        loading: s.hasTag('loading'),
      };
    },
    (a, b) =>
      a.page === b.page &&
      a.pageCount === b.pageCount &&
      a.total === b.total &&
      a.loading === b.loading &&
      shallowEqual(a.entries, b.entries),
  );
}

/** The opener's dialog state (§2 chooser and conflict dialogs, quota refusal, resolution choice). */
export type OpenerStep =
  'idle' | 'busy' | 'choosingCamera' | 'refused' | 'conflict' | 'killing' | 'killed' | 'choosingResolution';
export function useOpenerStep(): OpenerStep {
  return useStreamsSelector((s) => {
    const v = (s.value as { opener: string }).opener;
    switch (v) {
      case 'choosingCamera':
      case 'refused':
      case 'conflict':
      case 'killing':
      case 'killed':
      case 'choosingResolution':
        return v;
      case 'idle':
        return 'idle';
      default:
        return 'busy';
    }
  });
}

/** The stream modal (§2): which stream, and whether it is open, minimised with its notice, or closed. */
export interface ModalFacts {
  streamId: string | null;
  mode: 'closed' | 'open' | 'notice' | 'minimized';
}
export function useModalFacts(): ModalFacts {
  return useStreamsSelector((s): ModalFacts => {
    const m = (s.value as { modal: string | { minimized: string } }).modal;
    const mode =
      typeof m === 'string' ? (m as 'closed' | 'open') : m.minimized === 'notice' ? 'notice' : 'minimized';
    return { streamId: s.context.modalStreamId, mode };
  }, shallowEqual);
}

/** What the shell needs of an actor that emits: `on(type, handler)` (machines/emitted.ts). */
export interface EmittingActor {
  on(type: string, handler: (event: never) => void): { unsubscribe(): void };
}

/**
 * The actors whose emissions the root shell shows (notices as toasts, dialogs in the dialog slot): the
 * long-lived ones and every device connection, each with the name of its source. Memoised on the refs.
 */
export function useEmittingActors(): Array<[string, EmittingActor]> {
  const auth = useAuthRef();
  const signal = useSignalRef();
  const table = useDevicesTableRef();
  const pool = useDevicePoolRef();
  const streams = useStreamsRef();
  const connections = useAllConnectionRefs();
  return useMemo(
    () => [
      ['auth', auth as unknown as EmittingActor],
      ['signal', signal as unknown as EmittingActor],
      ['devicesTable', table as unknown as EmittingActor],
      ['devicePool', pool as unknown as EmittingActor],
      ['streams', streams as unknown as EmittingActor],
      ...connections.map((c): [string, EmittingActor] => ['deviceConnection', c as unknown as EmittingActor]),
    ],
    [auth, signal, table, pool, streams, connections],
  );
}
