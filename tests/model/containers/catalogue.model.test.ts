import { describe, expect, it } from 'vitest';
import {
  createActor,
  fromCallback,
  type EventObject,
  type NonReducibleUnknown,
  type SnapshotFrom,
} from 'xstate';
import {
  containersMachine,
  type ConnectedDevice,
  type ContainersLoadRequest,
} from '../../../machines/containers/containers.machine';
import { ENVIRONMENT_TEXTS, environmentsMachine } from '../../../machines/containers/environments.machine';
import type { Environment, EnvironmentInput, PublicEnvironment } from '../../../src/protocol/containers';
import { createMachineTestModel, runPaths, type Driver } from '../harness';
import { container, done } from './fixtures';

// ---- environment catalogue ------------------------------------------------------------------------------

type EnvSnap = SnapshotFrom<typeof environmentsMachine>;
const env = { id: 'e1', alias: 'yolo', name: 'YOLO' } as Environment;
const httpError = (id: string, status: number) =>
  ({
    type: `xstate.error.actor.${id}`,
    error: Object.assign(new Error(`HTTP ${status}`), { status }),
  }) as EventObject;

function envEvents(s: EnvSnap, type: string): EventObject[] | undefined {
  switch (type) {
    case 'environments.open':
      return [
        { type, alias: 'yolo' },
        { type, alias: 'yolo', public: true },
      ] as unknown as EventObject[];
    case 'environments.save':
      return [{ type, id: null, input: {} as EnvironmentInput }] as unknown as EventObject[];
    case 'environments.delete':
      return [{ type, id: 'e1' }] as unknown as EventObject[];
    case 'xstate.done.actor.loadEnvironments':
      return [done('loadEnvironments', [env])];
    case 'xstate.error.actor.loadEnvironments':
      return [httpError('loadEnvironments', 0)];
    case 'xstate.done.actor.loadEnvironment':
      return [done('loadEnvironment', env)];
    case 'xstate.error.actor.loadEnvironment':
      return [httpError('loadEnvironment', 404), httpError('loadEnvironment', 500)];
    case 'xstate.done.actor.saveEnvironment':
      return [done('saveEnvironment', env)];
    case 'xstate.error.actor.saveEnvironment':
      return [httpError('saveEnvironment', 409), httpError('saveEnvironment', 500)];
    case 'xstate.done.actor.deleteEnvironment':
      return [done('deleteEnvironment', undefined)];
    case 'xstate.error.actor.deleteEnvironment':
      return [httpError('deleteEnvironment', 404)];
    default:
      return undefined;
  }
}

const envKey = (s: EnvSnap) =>
  JSON.stringify([
    s.value,
    s.context.environments.length,
    !!s.context.detail,
    s.context.editError,
    s.context.editField,
  ]);

describe('environment catalogue (model-based paths)', () => {
  const model = createMachineTestModel(environmentsMachine, { events: envEvents, key: envKey });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches every region’s outcome: list, detail (404 and failure), save, taken alias, delete', () => {
    const ends = paths.map((p) => p.state);
    for (const tag of ['listFailed', 'detailMissing', 'detailFailed', 'saved', 'editFailed']) {
      expect(
        ends.some((s) => s.hasTag(tag)),
        tag,
      ).toBe(true);
    }
    expect(
      ends.some(
        (s) => s.context.editField === 'alias' && s.context.editError === ENVIRONMENT_TEXTS.aliasTaken,
      ),
    ).toBe(true);
  });

  it('follows every modelled path on the real machine', { timeout: 120_000 }, async () => {
    const start = (driver: Driver) =>
      createActor(
        environmentsMachine.provide({
          actors: {
            loadEnvironments: driver.promise<Environment[], NonReducibleUnknown>('loadEnvironments'),
            loadEnvironment: driver.promise<
              Environment | PublicEnvironment,
              { alias: string; public: boolean }
            >('loadEnvironment'),
            saveEnvironment: driver.promise<Environment, { id: string | null; input: EnvironmentInput }>(
              'saveEnvironment',
            ),
            deleteEnvironment: driver.promise<void, { id: string }>('deleteEnvironment'),
          },
        }),
        { clock: driver.clock },
      ).start();
    expect(await runPaths(paths, start, envKey)).toBeGreaterThan(paths.length);
  });
});

// ---- containers of connected devices --------------------------------------------------------------------

type CSnap = SnapshotFrom<typeof containersMachine>;
const dev = (id: string): ConnectedDevice => ({ deviceId: id, name: id, chipsetId: '0' });

function containerEvents(s: CSnap, type: string): EventObject[] | undefined {
  const c = s.context;
  switch (type) {
    case 'containers.devices':
      return [{ type, devices: c.devices.length ? [] : [dev('a')] }] as unknown as EventObject[];
    case 'containers.loaded':
      return c.loading.map(
        (deviceId) => ({ type, deviceId, containers: [container({ deviceId })] }) as EventObject,
      );
    case 'containers.loadFailed':
      return c.loading.map((deviceId) => ({ type, deviceId, error: 'timeout' }) as EventObject);
    case 'containers.changed':
      return c.devices.map(
        (d) =>
          ({
            type,
            deviceId: d.deviceId,
            containers: [container({ deviceId: d.deviceId, State: 'exited' })],
          }) as EventObject,
      );
    case 'containers.refresh':
      return c.loading.length === 0 && c.devices.length ? [{ type }] : [];
    case 'containers.filter':
      return c.filter.state === null ? [{ type, filter: { state: 'exited' } } as EventObject] : [];
    case 'containers.openJupyter':
      return c.opened === 0 && c.devices.length
        ? [{ type, deviceId: 'a', containerId: 'c1' } as EventObject]
        : [];
    case 'containers.remoteFailed':
      return [{ type, error: 'Not found' } as EventObject];
    default:
      return undefined;
  }
}

const cKey = (s: CSnap) =>
  JSON.stringify([
    s.value,
    s.context.devices.map((d) => d.deviceId),
    s.context.loading,
    Object.entries(s.context.byDevice).map(([id, l]) => [id, l.map((x) => x.State)]),
    s.context.errors,
    s.context.filter,
    s.context.opening,
    s.context.opened,
  ]);

describe('containers of connected devices (model-based paths)', () => {
  const model = createMachineTestModel(containersMachine, { events: containerEvents, key: cKey });
  const paths = model.getShortestPaths({ allowDuplicatePaths: true });

  it('reaches loaded, failed, pushed, filtered and Jupyter-opening states', () => {
    const ends = paths.map((p) => p.state.context);
    expect(ends.some((c) => c.byDevice.a?.[0]?.State === 'running')).toBe(true);
    expect(ends.some((c) => c.byDevice.a?.[0]?.State === 'exited')).toBe(true);
    expect(ends.some((c) => c.errors.a === 'timeout')).toBe(true);
    expect(ends.some((c) => c.opening === 'c1')).toBe(true);
  });

  it(
    'follows every modelled path on the real machine; each load request reaches the source',
    { timeout: 120_000 },
    async () => {
      let loads = 0;
      const start = (driver: Driver) =>
        createActor(
          containersMachine.provide({
            actors: {
              containerSource: fromCallback<ContainersLoadRequest | EventObject>(({ receive }) => {
                receive(() => {
                  loads += 1;
                });
              }),
              openRemote: driver.callback<EventObject, { deviceId: string; containerId: string }>(
                'openRemote',
              ),
            },
          }),
          { clock: driver.clock },
        ).start();
      expect(await runPaths(paths, start, cKey)).toBeGreaterThan(paths.length);
      // A device that connects is loaded once; Refresh loads every connected device.
      let expected = 0;
      for (const p of paths) {
        let before = createActor(containersMachine).getSnapshot().context.devices;
        for (const step of p.steps) {
          if (step.event.type === 'containers.devices') {
            expected += step.state.context.devices.filter(
              (d) => !before.some((b) => b.deviceId === d.deviceId),
            ).length;
          }
          if (step.event.type === 'containers.refresh') expected += before.length;
          before = step.state.context.devices;
        }
      }
      expect(loads).toBe(expected);
      expect(expected).toBeGreaterThan(0);
    },
  );
});
