/**
 * What views read of the containers feature's actors (systemIds 'containers', 'containerActions',
 * 'containerLogs', 'environments'; machines/containers/): pure `*ToView` functions from snapshots (tags,
 * `matches`, context) to the facts a screen shows, and hooks that select them (spec §2 container screens,
 * §3 Container and Docker process, §4 Container action). No protocol values are imported (zod stays out of
 * the first chunk).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type {
  ContainerActionRef,
  containerActionsMachine,
} from '../../../../machines/containers/containerActions.machine';
import { actionKey, tagFitsDevice } from '../../../../machines/containers/containerActionChecks';
import type { containerLogsMachine } from '../../../../machines/containers/containerLogs.machine';
import type {
  ConnectedDevice,
  containersMachine,
  ContainersFilter,
} from '../../../../machines/containers/containers.machine';
import type { environmentsMachine } from '../../../../machines/containers/environments.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type {
  Container,
  ContainerState,
  Environment,
  EnvTag,
  PublicEnvironment,
} from '../../../protocol/containers';
import { actorOf, useSystem } from '../../shell/SystemProvider';

export type ContainersRef = ActorRefFrom<typeof containersMachine>;
export type ActionsRef = ActorRefFrom<typeof containerActionsMachine>;
export type LogsRef = ActorRefFrom<typeof containerLogsMachine>;
export type EnvironmentsRef = ActorRefFrom<typeof environmentsMachine>;
export type { ContainerActionRef };
type ContainersSnapshot = SnapshotFrom<typeof containersMachine>;
type ActionsSnapshot = SnapshotFrom<typeof containerActionsMachine>;
type ActionSnapshot = SnapshotFrom<ContainerActionRef>;
type LogsSnapshot = SnapshotFrom<typeof containerLogsMachine>;
type EnvironmentsSnapshot = SnapshotFrom<typeof environmentsMachine>;

// ---- connected devices (read from the device pool) -------------------------------------------------------

/** The part of the device pool's snapshot read here (devicePool.machine.ts). */
export interface DevicePoolSnapshotLike {
  context: {
    order: readonly string[];
    status: Readonly<Record<string, string>>;
    connections: Readonly<
      Record<
        string,
        { getSnapshot(): { context: { device: { device_id: string; label: string; chipset_id: string } } } }
      >
    >;
  };
}

/** Devices whose link is open, oldest first (§3 Container deviceName is the device's label). */
export function connectedDevicesOf(pool: DevicePoolSnapshotLike): ConnectedDevice[] {
  const c = pool.context;
  return c.order
    .filter((id) => c.status[id] === 'open' && c.connections[id])
    .map((id) => {
      const d = c.connections[id]!.getSnapshot().context.device;
      return { deviceId: id, name: d.label, chipsetId: d.chipset_id };
    });
}

// ---- containers of connected devices ----------------------------------------------------------------------

/** One row of the containers table (§3 Container), with what may be done to it. */
export interface ContainerRow {
  /** `${deviceId}:${Id}`: unique across devices. */
  key: string;
  id: string;
  /** Docker's 12-character prefix (§3 "Id (short)"). */
  shortId: string;
  name: string;
  image: string;
  status: string;
  state: ContainerState;
  jupyter: boolean;
  localPort: number | null;
  deviceId: string;
  deviceName: string;
  envName: string | null;
  gpu: boolean;
  canStart: boolean;
  canStop: boolean;
  /** Jupyter runs: "Open Jupyter" is offered. */
  canOpenJupyter: boolean;
  /** Running without Jupyter: "Start Jupyter" is offered. */
  canStartJupyter: boolean;
}

export function containerToRow(c: Container): ContainerRow {
  const running = c.State === 'running';
  return {
    key: `${c.deviceId}:${c.Id}`,
    id: c.Id,
    shortId: c.Id.slice(0, 12),
    name: c.Name.replace(/^\//, ''),
    image: c.Image,
    status: c.Status,
    state: c.State,
    jupyter: c.Jupyter,
    localPort: c.LocalPort,
    deviceId: c.deviceId,
    deviceName: c.deviceName,
    envName: c.EnvName,
    gpu: c.Gpu,
    canStart: ['created', 'exited', 'dead'].includes(c.State),
    canStop: running || c.State === 'restarting' || c.State === 'paused',
    canOpenJupyter: running && c.Jupyter,
    canStartJupyter: running && !c.Jupyter,
  };
}

/** What /control-panel/containers shows. */
export interface ContainersView {
  devices: ConnectedDevice[];
  /** Rows after the filter, device by device in connection order. */
  rows: ContainerRow[];
  /** Containers before the filter. */
  total: number;
  filter: ContainersFilter;
  /** States present (for the state filter). */
  states: ContainerState[];
  loading: boolean;
  /** Devices whose containers could not be read. */
  errors: Array<{ deviceId: string; deviceName: string; error: string }>;
  /** No device is connected: the empty state links to the devices. */
  noDevice: boolean;
  /** The container whose Jupyter is being opened. */
  opening: string | null;
}

export function containersToView(s: ContainersSnapshot): ContainersView {
  const c = s.context;
  const all = c.devices.flatMap((d) => (c.byDevice[d.deviceId] ?? []).map(containerToRow));
  const rows = all.filter(
    (r) =>
      (c.filter.deviceId === null || r.deviceId === c.filter.deviceId) &&
      (c.filter.state === null || r.state === c.filter.state),
  );
  return {
    devices: c.devices,
    rows,
    total: all.length,
    filter: c.filter,
    states: [...new Set(all.map((r) => r.state))].sort(),
    loading: c.loading.length > 0,
    errors: Object.entries(c.errors).map(([deviceId, error]) => ({
      deviceId,
      deviceName: c.devices.find((d) => d.deviceId === deviceId)?.name ?? deviceId,
      error,
    })),
    noDevice: c.devices.length === 0,
    opening: c.opening,
  };
}

/** The containers made from environment `alias` (§3 EnvName), on every connected device. */
export function containersOfEnvironment(s: ContainersSnapshot, alias: string): ContainerRow[] {
  const c = s.context;
  return c.devices.flatMap((d) =>
    (c.byDevice[d.deviceId] ?? []).filter((x) => x.EnvName === alias).map(containerToRow),
  );
}

/** One container by id (full or its 12-character prefix) on any connected device, or null. */
export function findContainer(s: ContainersSnapshot, id: string): ContainerRow | null {
  for (const d of s.context.devices) {
    const hit = (s.context.byDevice[d.deviceId] ?? []).find((x) => x.Id === id || x.Id.slice(0, 12) === id);
    if (hit) return containerToRow(hit);
  }
  return null;
}

// ---- container actions ------------------------------------------------------------------------------------

/** The step a container action is at (§4), for its progress and dialogs. */
export type ActionStep =
  | 'checking'
  | 'offer'
  | 'downloading'
  | 'canceling'
  | 'creating'
  | 'running'
  | 'jupyter'
  | 'following'
  | 'succeeded'
  | 'failed'
  | 'canceled';

/** What a view shows of one container action (§3 Docker process + percent). */
export interface ActionView {
  key: string;
  step: ActionStep;
  action: string;
  envName: string | null;
  docker: string;
  deviceId: string;
  deviceName: string;
  message: string;
  error: string | null;
  /** 0–100 while downloading, else null. */
  percent: number | null;
  sizeMb: number | null;
  busy: boolean;
  downloading: boolean;
  /** The download offer is shown (§4 "A 404 offers a download"). */
  awaitingConfirm: boolean;
  done: boolean;
  /** Cancel is offered (the offer, or a running download). */
  canCancel: boolean;
}

export function actionStepOf(s: ActionSnapshot): ActionStep {
  if (s.matches('checkingImage')) return 'checking';
  if (s.hasTag('awaitingConfirm')) return 'offer';
  if (s.matches('downloading')) return 'downloading';
  if (s.matches('cancelingDownload')) return 'canceling';
  if (s.matches('creating')) return 'creating';
  if (s.matches('running')) return 'running';
  if (s.matches('startingJupyter')) return 'jupyter';
  if (s.matches('following')) return 'following';
  if (s.hasTag('succeeded')) return 'succeeded';
  if (s.hasTag('canceled')) return 'canceled';
  return 'failed';
}

export function actionToView(s: ActionSnapshot): ActionView {
  const c = s.context;
  const downloading = s.hasTag('downloading') || (s.matches('following') && c.follow?.action === 'download');
  return {
    key: c.key,
    step: actionStepOf(s),
    action: c.action,
    envName: c.envName,
    docker: c.docker,
    deviceId: c.device,
    deviceName: c.deviceName,
    message: c.message,
    error: c.error,
    percent: c.percent,
    sizeMb: c.sizeMb,
    busy: s.hasTag('busy'),
    downloading,
    awaitingConfirm: s.hasTag('awaitingConfirm'),
    done: s.hasTag('done'),
    canCancel:
      s.can({ type: 'action.cancel' }) &&
      (s.hasTag('awaitingConfirm') || s.matches('downloading') || downloading),
  };
}

/** The action actor of `${deviceId}:${envName}` (running or just finished), or undefined. */
export function actionRefOf(
  s: ActionsSnapshot,
  deviceId: string,
  envName: string | null,
  containerId?: string,
) {
  return s.context.actions[actionKey(deviceId, envName, containerId)];
}

/** Every action actor, newest last. */
export const actionRefsOf = (s: ActionsSnapshot): ContainerActionRef[] => Object.values(s.context.actions);

// ---- logs ---------------------------------------------------------------------------------------------------

export interface LogsView {
  open: boolean;
  loading: boolean;
  title: string;
  lines: string[];
  error: string | null;
}

export function logsToView(s: LogsSnapshot): LogsView {
  return {
    open: s.hasTag('open'),
    loading: s.hasTag('loading'),
    title: s.context.title,
    lines: s.context.lines,
    error: s.context.error,
  };
}

// ---- environment catalogue ----------------------------------------------------------------------------------

export interface CatalogueView {
  environments: Environment[];
  loading: boolean;
  error: string | null;
}

export function catalogueToView(s: EnvironmentsSnapshot): CatalogueView {
  return {
    environments: s.context.environments,
    loading: s.hasTag('listLoading'),
    error: s.hasTag('listFailed') ? s.context.listError : null,
  };
}

export interface EnvironmentDetailView {
  environment: Environment | PublicEnvironment | null;
  loading: boolean;
  /** 404: no such environment (or not public, signed out). */
  missing: boolean;
  error: string | null;
}

/** The detail region for `alias` (nothing while another alias is shown). */
export function detailToView(s: EnvironmentsSnapshot, alias: string): EnvironmentDetailView {
  const mine = s.context.alias === alias;
  return {
    environment: mine && s.context.detail?.alias === alias ? s.context.detail : null,
    loading: !mine || s.hasTag('detailLoading'),
    missing: mine && s.hasTag('detailMissing'),
    error: mine && s.hasTag('detailFailed') ? s.context.detailError : null,
  };
}

export interface EditView {
  saving: boolean;
  saved: boolean;
  error: string | null;
  /** The form field the error belongs to ('alias' when taken), null for the form as a whole. */
  field: string | null;
}

export function editToView(s: EnvironmentsSnapshot): EditView {
  return {
    saving: s.hasTag('saving'),
    saved: s.hasTag('saved'),
    error: s.hasTag('editFailed') ? s.context.editError : null,
    field: s.hasTag('editFailed') ? s.context.editField : null,
  };
}

/** Connected devices a tag runs on (§9 chipset_id '0' x86, else Jetson). */
export function devicesForTag(
  devices: readonly ConnectedDevice[],
  tag: EnvTag | undefined,
): ConnectedDevice[] {
  return tag ? devices.filter((d) => tagFitsDevice(tag.platform, d.chipsetId)) : [];
}

// ---- hooks ---------------------------------------------------------------------------------------------------

export const useContainersRef = (): ContainersRef =>
  actorOf<ContainersRef>(useSystem(), SYSTEM_IDS.containers);
export const useActionsRef = (): ActionsRef => actorOf<ActionsRef>(useSystem(), SYSTEM_IDS.containerActions);
export const useLogsRef = (): LogsRef => actorOf<LogsRef>(useSystem(), SYSTEM_IDS.containerLogs);
export const useEnvironmentsRef = (): EnvironmentsRef =>
  actorOf<EnvironmentsRef>(useSystem(), SYSTEM_IDS.environments);

export function useContainersView(): ContainersView {
  return useSelector(useContainersRef(), containersToView, containersViewEqual);
}
/** Shallow on every field, the arrays by their items. */
function containersViewEqual(a: ContainersView, b: ContainersView): boolean {
  return (
    shallowEqual(
      { ...a, rows: 0, devices: 0, states: 0, errors: 0 },
      { ...b, rows: 0, devices: 0, states: 0, errors: 0 },
    ) &&
    a.rows.length === b.rows.length &&
    a.rows.every((r, i) => shallowEqual(r, b.rows[i])) &&
    shallowEqual(a.devices, b.devices) &&
    shallowEqual(a.states, b.states) &&
    a.errors.length === b.errors.length &&
    a.errors.every((e, i) => shallowEqual(e, b.errors[i]))
  );
}

/** The container whose Jupyter URL is being asked for (§7 request_remote_device), or null. */
export function useOpeningJupyter(): string | null {
  return useSelector(useContainersRef(), (s: ContainersSnapshot) => s.context.opening);
}

export function useEnvironmentContainers(alias: string): ContainerRow[] {
  return useSelector(
    useContainersRef(),
    (s: ContainersSnapshot) => containersOfEnvironment(s, alias),
    (a, b) => a.length === b.length && a.every((r, i) => shallowEqual(r, b[i])),
  );
}

export function useContainer(id: string): ContainerRow | null {
  return useSelector(
    useContainersRef(),
    (s: ContainersSnapshot) => findContainer(s, id),
    (a, b) => (a && b ? shallowEqual(a, b) : a === b),
  );
}

export function useActionRef(deviceId: string, envName: string | null, containerId?: string) {
  return useSelector(useActionsRef(), (s: ActionsSnapshot) => actionRefOf(s, deviceId, envName, containerId));
}

export function useActionRefs(): ContainerActionRef[] {
  return useSelector(useActionsRef(), actionRefsOf, shallowEqual);
}

export function useActionView(ref: ContainerActionRef | undefined): ActionView | null {
  return useSelector(
    ref,
    (s: ActionSnapshot | undefined) => (s ? actionToView(s) : null),
    (a, b) => (a && b ? shallowEqual(a, b) : a === b),
  );
}

export function useLogsView(): LogsView {
  return useSelector(useLogsRef(), logsToView, shallowEqual);
}

export function useCatalogueView(): CatalogueView {
  return useSelector(useEnvironmentsRef(), catalogueToView, shallowEqual);
}

export function useEnvironmentDetail(alias: string): EnvironmentDetailView {
  return useSelector(useEnvironmentsRef(), (s: EnvironmentsSnapshot) => detailToView(s, alias), shallowEqual);
}

export function useEditView(): EditView {
  return useSelector(useEnvironmentsRef(), editToView, shallowEqual);
}
