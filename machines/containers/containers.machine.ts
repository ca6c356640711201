/**
 * The containers of every connected device — spec §2 /control-panel/containers, §3 Container (Id, Status,
 * State, Jupyter, LocalPort, deviceName, deviceId, api_url), §3 live data "containers", §7 getContainers.
 *
 * Long-lived (systemId 'containers'). On sign-in (`containers.watch`) it invokes `containerSource`
 * (provided): the source reports the connected devices (`containers.devices`: the device pool's open
 * links), pushes CONTAINER_EVENTS.changed events (`containers.changed`), and loads a device's containers
 * when asked (`containers.load` sent to it → `containers.loaded` | `containers.loadFailed`). A device that
 * connects is loaded; one that disconnects is forgotten. `containers.refresh` reloads one device (after an
 * action, containerActions.machine.ts) or all. The table's filter (device, state) is held here so it
 * survives leaving the screen. Sign-out (`containers.reset`) forgets everything.
 *
 * Opening a container's Jupyter (§7 request_remote_device): `containers.openJupyter` spawns `openRemote`
 * (provided: asks the server for the URL, which sets this browser's cookie, and opens it in a new tab); it
 * answers `containers.remoteOpened` or `containers.remoteFailed`, whose reason is emitted as a notice.
 * `opening` names the container whose URL is being asked for.
 */
import { assign, emit, enqueueActions, fromCallback, setup, type EventObject } from 'xstate';
import type { Container, ContainerState } from '../../src/protocol/containers';
import type { ConsoleEmitted } from '../notifications/emitted';

/** Title of the notice when Jupyter cannot be opened. */
export const OPEN_JUPYTER_FAILED = 'Jupyter could not be opened';

/** A device whose link is open (what the source reports). chipsetId '0' is x86, else Jetson (§9). */
export interface ConnectedDevice {
  deviceId: string;
  name: string;
  chipsetId: string;
}

/** The table's filter: null = all. */
export interface ContainersFilter {
  deviceId: string | null;
  state: ContainerState | null;
}

export interface ContainersContext {
  devices: ConnectedDevice[];
  /** device id → its containers as last reported. */
  byDevice: Record<string, Container[]>;
  /** Devices whose getContainers is running. */
  loading: string[];
  /** device id → why its containers could not be read. */
  errors: Record<string, string>;
  filter: ContainersFilter;
  /** The container whose Jupyter URL is being asked for. */
  opening: string | null;
  /** Remote opens so far (actor ids stay unique). */
  opened: number;
}

export type ContainersEvent =
  | { type: 'containers.watch' }
  | { type: 'containers.reset' }
  | { type: 'containers.devices'; devices: ConnectedDevice[] }
  /** Reload one device's containers, or every device's. */
  | { type: 'containers.refresh'; deviceId?: string }
  | { type: 'containers.changed'; deviceId: string; containers: Container[] }
  | { type: 'containers.loaded'; deviceId: string; containers: Container[] }
  | { type: 'containers.loadFailed'; deviceId: string; error: string }
  | { type: 'containers.filter'; filter: Partial<ContainersFilter> }
  | { type: 'containers.openJupyter'; deviceId: string; containerId: string }
  | { type: 'containers.remoteOpened' }
  | { type: 'containers.remoteFailed'; error: string };

/** What the machine asks the source (its `receive`). */
export interface ContainersLoadRequest {
  type: 'containers.load';
  deviceId: string;
}

const notProvided = (name: string): never => {
  throw new Error(`containers: actor '${name}' is not provided`);
};

/** The containers actor's effects, named; src/console/features/containers/actors.ts provides them. */
export const containersActors = {
  /** See the file header: reports devices and changes, answers `containers.load` requests. */
  containerSource: fromCallback<ContainersLoadRequest | EventObject>(() => notProvided('containerSource')),
  /**
   * POST containers.requestRemoteDevice { device_id, target 'jupyter', data.container_id } → window.open of
   * data.url; answers `containers.remoteOpened` or `containers.remoteFailed` { error }.
   */
  openRemote: fromCallback<EventObject, { deviceId: string; containerId: string }>(() =>
    notProvided('openRemote'),
  ),
};

const initialContext = (): ContainersContext => ({
  devices: [],
  byDevice: {},
  loading: [],
  errors: {},
  filter: { deviceId: null, state: null },
  opening: null,
  opened: 0,
});

export const containersMachine = setup({
  types: {
    context: {} as ContainersContext,
    events: {} as ContainersEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: containersActors,
  actions: {
    /** New device list: load the new ones, forget the gone ones. */
    trackDevices: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'containers.devices') return;
      const ids = new Set(event.devices.map((d) => d.deviceId));
      const added = event.devices.filter((d) => !context.devices.some((x) => x.deviceId === d.deviceId));
      const keep = <T>(rec: Record<string, T>) =>
        Object.fromEntries(Object.entries(rec).filter(([id]) => ids.has(id)));
      enqueue.assign({
        devices: event.devices,
        byDevice: keep(context.byDevice),
        errors: keep(context.errors),
        loading: [...context.loading.filter((id) => ids.has(id)), ...added.map((d) => d.deviceId)],
        filter:
          context.filter.deviceId && !ids.has(context.filter.deviceId)
            ? { ...context.filter, deviceId: null }
            : context.filter,
      });
      for (const d of added) {
        const load: ContainersLoadRequest = { type: 'containers.load', deviceId: d.deviceId };
        enqueue.sendTo('source', load);
      }
    }),
    /** Reload one device (or all) that is connected. */
    reload: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'containers.refresh') return;
      const ids = context.devices
        .map((d) => d.deviceId)
        .filter((id) => event.deviceId === undefined || id === event.deviceId);
      if (ids.length === 0) return;
      enqueue.assign({ loading: [...new Set([...context.loading, ...ids])] });
      for (const deviceId of ids) {
        const load: ContainersLoadRequest = { type: 'containers.load', deviceId };
        enqueue.sendTo('source', load);
      }
    }),
    keepContainers: assign(({ context, event }) => {
      if (event.type !== 'containers.loaded' && event.type !== 'containers.changed') return {};
      if (!context.devices.some((d) => d.deviceId === event.deviceId)) return {};
      const { [event.deviceId]: _cleared, ...errors } = context.errors;
      return {
        byDevice: { ...context.byDevice, [event.deviceId]: event.containers },
        errors,
        loading:
          event.type === 'containers.loaded'
            ? context.loading.filter((id) => id !== event.deviceId)
            : context.loading,
      };
    }),
    keepError: assign(({ context, event }) => {
      if (event.type !== 'containers.loadFailed') return {};
      if (!context.devices.some((d) => d.deviceId === event.deviceId)) return {};
      return {
        errors: { ...context.errors, [event.deviceId]: event.error },
        loading: context.loading.filter((id) => id !== event.deviceId),
      };
    }),
    setFilter: assign({
      filter: ({ context, event }) =>
        event.type === 'containers.filter' ? { ...context.filter, ...event.filter } : context.filter,
    }),
    openJupyter: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'containers.openJupyter') return;
      const id = `remote-${context.opened + 1}`;
      enqueue.assign({ opening: event.containerId, opened: context.opened + 1 });
      enqueue.spawnChild('openRemote', {
        id,
        input: { deviceId: event.deviceId, containerId: event.containerId },
      });
    }),
    /** The open answered: its actor has done its part. */
    openEnded: enqueueActions(({ context, enqueue }) => {
      enqueue.stopChild(`remote-${context.opened}`);
      enqueue.assign({ opening: null });
    }),
    noticeOpenFailed: emit(({ event }): ConsoleEmitted => ({
      type: 'notice',
      title: OPEN_JUPYTER_FAILED,
      message: event.type === 'containers.remoteFailed' ? event.error : '',
      variant: 'danger',
    })),
    clear: assign(() => initialContext()),
  },
  guards: {
    notOpening: ({ context }) => context.opening === null,
  },
}).createMachine({
  id: 'containers',
  context: initialContext,
  on: {
    'containers.filter': { actions: 'setFilter' },
    'containers.reset': { target: '.idle', actions: 'clear' },
  },
  initial: 'idle',
  states: {
    idle: {
      on: { 'containers.watch': { target: 'watching' } },
    },
    watching: {
      invoke: { id: 'source', src: 'containerSource' },
      on: {
        'containers.devices': { actions: 'trackDevices' },
        'containers.refresh': { actions: 'reload' },
        'containers.changed': { actions: 'keepContainers' },
        'containers.loaded': { actions: 'keepContainers' },
        'containers.loadFailed': { actions: 'keepError' },
        'containers.openJupyter': { guard: 'notOpening', actions: 'openJupyter' },
        'containers.remoteOpened': { actions: 'openEnded' },
        'containers.remoteFailed': { actions: ['openEnded', 'noticeOpenFailed'] },
      },
    },
  },
});
