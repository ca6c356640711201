/**
 * The containers feature's side effects (machines/containers/*.machine.ts): the container action's device
 * commands (check-docker-image, download-docker-image with progress and abort, cancel-docker-download,
 * docker-create | start | stop | remove, start-jupyter), the registry's Docker processes (docker-processes
 * per connected device, CONTAINER_EVENTS.process), the containers of connected devices (getContainers,
 * CONTAINER_EVENTS.changed), docker-logs, and the catalogue's REST calls.
 *
 * The connected devices are read from the device pool (systemId 'devicePool'): a device whose connection
 * reports 'open'. src/protocol/containers.ts (zod) is imported only when a download needs downloadPercent,
 * so the console's first chunk does not ship zod.
 */
import { fromCallback, fromPromise, type AnyActorRef, type EventObject } from 'xstate';
import { containerActionMachine } from '../../../../machines/containers/containerAction.machine';
import {
  asChangedContainers,
  asDockerProcess,
  CONTAINER_EVENT_NAMES,
  isCanceledError,
  progressPercent,
} from '../../../../machines/containers/containerActionChecks';
import { containerActionsMachine } from '../../../../machines/containers/containerActions.machine';
import { containerLogsMachine } from '../../../../machines/containers/containerLogs.machine';
import {
  containersMachine,
  type ConnectedDevice,
  type ContainersLoadRequest,
} from '../../../../machines/containers/containers.machine';
import { environmentsMachine } from '../../../../machines/containers/environments.machine';
import { errorText } from '../../../../machines/notifications/emitted';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { LayerProgress } from '../../../protocol/containers';
import type { Platform } from '../feature';
import { containerCommands, containersApi } from './api';
import { connectedDevicesOf, type DevicePoolSnapshotLike } from './selectors';

/** Time allowed without a word from the device during a download (each progress message restarts it), ms. */
const DOWNLOAD_SILENCE_MS = 120_000;
/** Time allowed for create / start / stop / remove and Jupyter's start, ms. */
const DOCKER_CALL_MS = 120_000;

let downloadPercentFn: Promise<(layers: LayerProgress[]) => number> | null = null;
/** The contract's downloadPercent, loaded with its module on first use. */
function loadDownloadPercent() {
  downloadPercentFn ??= import('../../../protocol/containers').then((m) => m.downloadPercent);
  return downloadPercentFn;
}

/**
 * Calls `onChange` with the connected devices now and whenever the device pool changes which devices are
 * open (the same list is not reported twice). Returns the unsubscribe function.
 */
function watchConnectedDevices(
  system: { get: (systemId: string) => AnyActorRef | undefined },
  onChange: (devices: ConnectedDevice[]) => void,
) {
  const pool = system.get(SYSTEM_IDS.devicePool);
  if (!pool) {
    onChange([]);
    return () => undefined;
  }
  let last = '';
  const report = (snapshot: unknown) => {
    const devices = connectedDevicesOf(snapshot as DevicePoolSnapshotLike);
    const key = JSON.stringify(devices);
    if (key === last) return;
    last = key;
    onChange(devices);
  };
  report(pool.getSnapshot());
  const sub = pool.subscribe(report);
  return () => sub.unsubscribe();
}

export function containersActors({ http, peerLink }: Platform): FeatureActor[] {
  const api = containersApi(http);
  const call = peerLink.callDevice.bind(peerLink);
  const commands = containerCommands(call);

  const containerAction = containerActionMachine.provide({
    actors: {
      checkImage: fromPromise(async ({ input }) => {
        const reply = await call(input.deviceId, 'check-docker-image', { image: input.image });
        return { status: reply.status, message: reply.message };
      }),
      downloadImage: fromCallback(({ input, sendBack }) => {
        const abort = new AbortController();
        void loadDownloadPercent()
          .then((layersPercent) =>
            call(
              input.deviceId,
              'download-docker-image',
              { image: input.image, ...(input.envName ? { envName: input.envName } : {}) },
              {
                signal: abort.signal,
                timeoutMs: DOWNLOAD_SILENCE_MS,
                onProgress: (data) => {
                  const percent = progressPercent(data, layersPercent);
                  if (percent !== null) sendBack({ type: 'action.progress', percent });
                },
              },
            ),
          )
          .then(
            () => sendBack({ type: 'action.downloaded' }),
            (error: unknown) => {
              // Aborted by leaving `downloading` (cancel): the machine has moved on already.
              if (!abort.signal.aborted && !isCanceledError(error)) {
                sendBack({ type: 'action.downloadFailed', error });
              }
            },
          );
        return () => abort.abort();
      }),
      cancelDownload: fromPromise(
        async ({ input }) =>
          (await call(input.deviceId, 'cancel-docker-download', { image: input.image })).canceled,
      ),
      createContainer: fromPromise(async ({ input }) => {
        if (!input.envName) throw new Error('An environment is needed to create a container.');
        const reply = await call(
          input.deviceId,
          'docker-create',
          { image: input.image, envName: input.envName, jupyter_port: input.jupyterPort, gpu: input.gpu },
          { timeoutMs: DOCKER_CALL_MS },
        );
        return reply.container;
      }),
      runDockerAction: fromPromise(async ({ input }) => {
        const ref = { id: input.containerId };
        const options = { timeoutMs: DOCKER_CALL_MS };
        switch (input.action) {
          case 'start':
            return (await call(input.deviceId, 'docker-start', ref, options)).container;
          case 'stop':
            return (await call(input.deviceId, 'docker-stop', ref, options)).container;
          case 'remove':
            await call(input.deviceId, 'docker-remove', ref, options);
            return null;
        }
      }),
      startJupyter: fromPromise(
        async ({ input }) =>
          (
            await call(
              input.deviceId,
              'start-jupyter',
              { id: input.containerId },
              { timeoutMs: DOCKER_CALL_MS },
            )
          ).container,
      ),
    },
  });

  const registry = containerActionsMachine.provide({
    actors: {
      containerAction,
      watchProcesses: fromCallback<EventObject>(({ sendBack, system }) => {
        const names = new Map<string, string>();
        const unwatch = watchConnectedDevices(system, (devices) => {
          for (const d of devices) {
            if (names.has(d.deviceId)) continue;
            names.set(d.deviceId, d.name);
            commands
              .dockerProcesses(d.deviceId)
              .then((processes) =>
                sendBack({ type: 'actions.processes', deviceId: d.deviceId, deviceName: d.name, processes }),
              )
              .catch(() => undefined); // an older agent without docker-processes: nothing to follow
          }
          for (const id of [...names.keys()]) {
            if (!devices.some((d) => d.deviceId === id)) names.delete(id);
          }
        });
        const off = peerLink.onDeviceEvent((deviceId, name, data) => {
          if (name !== CONTAINER_EVENT_NAMES.process) return;
          const process = asDockerProcess(data);
          if (process) {
            sendBack({
              type: 'actions.process',
              deviceId,
              deviceName: names.get(deviceId) ?? deviceId,
              process,
            });
          }
        });
        return () => {
          unwatch();
          off();
        };
      }),
    },
  });

  const containers = containersMachine.provide({
    actors: {
      containerSource: fromCallback<EventObject>(({ sendBack, receive, system }) => {
        let live = true;
        receive((event) => {
          if (event.type !== 'containers.load') return;
          const { deviceId } = event as ContainersLoadRequest;
          commands.getContainers(deviceId).then(
            (list) => live && sendBack({ type: 'containers.loaded', deviceId, containers: list }),
            (error: unknown) =>
              live &&
              sendBack({
                type: 'containers.loadFailed',
                deviceId,
                error: errorText(error, 'The containers could not be read.'),
              }),
          );
        });
        const unwatch = watchConnectedDevices(system, (devices) =>
          sendBack({ type: 'containers.devices', devices }),
        );
        const off = peerLink.onDeviceEvent((deviceId, name, data) => {
          if (name !== CONTAINER_EVENT_NAMES.changed) return;
          const list = asChangedContainers(data);
          if (list) sendBack({ type: 'containers.changed', deviceId, containers: list });
        });
        return () => {
          live = false;
          unwatch();
          off();
        };
      }),
      openRemote: fromCallback(({ input, sendBack }) => {
        const abort = new AbortController();
        api.openJupyterUrl(input.deviceId, input.containerId, abort.signal).then(
          (url) => {
            // The URL works in this browser only: the answer set its cookie (§7 request_remote_device).
            const tab = window.open(url, '_blank');
            if (tab) {
              tab.opener = null;
              sendBack({ type: 'containers.remoteOpened' });
            } else {
              sendBack({ type: 'containers.remoteFailed', error: 'The browser blocked the new tab.' });
            }
          },
          (error: unknown) => {
            if (abort.signal.aborted) return;
            sendBack({
              type: 'containers.remoteFailed',
              error: errorText(error, 'No answer from the server.'),
            });
          },
        );
        return () => abort.abort();
      }),
    },
  });

  const logs = containerLogsMachine.provide({
    actors: {
      readLogs: fromPromise(async ({ input }) =>
        commands.dockerLogs(input.deviceId, input.containerId, input.tail),
      ),
    },
  });

  const environments = environmentsMachine.provide({
    actors: {
      loadEnvironments: fromPromise(async ({ signal }) => api.listEnvironments(signal)),
      loadEnvironment: fromPromise(async ({ input, signal }) =>
        input.public
          ? api.getPublicEnvironment(input.alias, signal)
          : api.getEnvironment(input.alias, signal),
      ),
      saveEnvironment: fromPromise(async ({ input, signal }) =>
        api.saveEnvironment(input.id, input.input, signal),
      ),
      deleteEnvironment: fromPromise(async ({ input, signal }) => api.deleteEnvironment(input.id, signal)),
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.containers,
      logic: containers,
      onSignIn: [{ type: 'containers.watch' }],
      onSignOut: [{ type: 'containers.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.containerActions,
      logic: registry,
      input: () => ({ now: () => Date.now() }),
      onSignIn: [{ type: 'actions.watch' }],
      onSignOut: [{ type: 'actions.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.containerLogs,
      logic: logs,
      onSignOut: [{ type: 'logs.reset' }],
    }),
    featureActor({
      systemId: SYSTEM_IDS.environments,
      logic: environments,
      onSignOut: [{ type: 'environments.reset' }],
    }),
  ];
}
