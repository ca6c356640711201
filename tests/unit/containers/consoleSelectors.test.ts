import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { containerActionMachine } from '../../../machines/containers/containerAction.machine';
import { containerLogsMachine } from '../../../machines/containers/containerLogs.machine';
import { containersMachine, type ConnectedDevice } from '../../../machines/containers/containers.machine';
import { environmentsMachine } from '../../../machines/containers/environments.machine';
import {
  actionToView,
  catalogueToView,
  connectedDevicesOf,
  containersOfEnvironment,
  containersToView,
  containerToRow,
  detailToView,
  devicesForTag,
  editToView,
  findContainer,
  logsToView,
} from '../../../src/console/features/containers/selectors';
import type { Environment } from '../../../src/protocol/containers';
import { container, request } from '../../model/containers/fixtures';

const dev1: ConnectedDevice = { deviceId: 'dev-1', name: 'Device 1', chipsetId: '33' };
const dev2: ConnectedDevice = { deviceId: 'dev-2', name: 'Box 2', chipsetId: '0' };

/** A containers snapshot with these devices and containers (nothing loading). */
function containersIn(byDevice: Record<string, ReturnType<typeof container>[]>, devices = [dev1, dev2]) {
  const base = createActor(containersMachine).getSnapshot().context;
  return containersMachine.resolveState({
    value: 'watching',
    context: { ...base, devices, byDevice },
  });
}

const env: Environment = {
  id: 'e1',
  alias: 'pytorch-lab',
  name: 'PyTorch lab',
  description: 'PyTorch with JupyterLab',
  image: 'nvcr.io/nvidia/l4t-pytorch',
  tags: [
    { tag: 'r35', platform: 'jetson', size_mb: 4200 },
    { tag: 'x86-2.3', platform: 'x86', size_mb: 6100 },
  ],
  jupyter: true,
  jupyter_port: 8888,
  gpu: true,
  public: true,
  created_at: '2026-01-01T00:00:00Z',
  updated_at: '2026-01-01T00:00:00Z',
};

describe('containers view (§2 /control-panel/containers, §3 Container)', () => {
  it('shows a row per container with its short id and what may be done to it', () => {
    const running = containerToRow(container({ Name: '/lab-1' }));
    expect(running).toMatchObject({ shortId: 'c0ffee012345', name: 'lab-1', canStop: true, canStart: false });
    expect(running.canStartJupyter).toBe(true);
    expect(running.canOpenJupyter).toBe(false);
    const withJupyter = containerToRow(container({ Jupyter: true, LocalPort: 49_153 }));
    expect(withJupyter).toMatchObject({ canOpenJupyter: true, canStartJupyter: false, localPort: 49_153 });
    const exited = containerToRow(container({ State: 'exited', Status: 'Exited (0) 2 minutes ago' }));
    expect(exited).toMatchObject({ canStart: true, canStop: false, canOpenJupyter: false });
  });

  it('lists every connected device’s containers and filters them by device and state', () => {
    const a = container();
    const b = container({ Id: 'beef00000000aaaa', deviceId: 'dev-2', deviceName: 'Box 2', State: 'exited' });
    const s = containersIn({ 'dev-1': [a], 'dev-2': [b] });
    const all = containersToView(s);
    expect(all.rows.map((r) => r.shortId)).toEqual(['c0ffee012345', 'beef00000000']);
    expect(all.states).toEqual(['exited', 'running']);
    expect(all.noDevice).toBe(false);
    const filtered = containersToView(
      containersMachine.resolveState({
        value: 'watching',
        context: { ...s.context, filter: { deviceId: 'dev-2', state: null } },
      }),
    );
    expect(filtered.rows.map((r) => r.deviceName)).toEqual(['Box 2']);
    expect(filtered.total).toBe(2);
    const byState = containersToView(
      containersMachine.resolveState({
        value: 'watching',
        context: { ...s.context, filter: { deviceId: null, state: 'running' } },
      }),
    );
    expect(byState.rows.map((r) => r.state)).toEqual(['running']);
  });

  it('shows the empty state with no connected device, and each device’s read failure', () => {
    expect(containersToView(containersIn({}, [])).noDevice).toBe(true);
    const s = containersIn({});
    const failed = containersMachine.resolveState({
      value: 'watching',
      context: { ...s.context, errors: { 'dev-2': 'The device is not connected.' }, loading: ['dev-1'] },
    });
    const view = containersToView(failed);
    expect(view.errors).toEqual([
      { deviceId: 'dev-2', deviceName: 'Box 2', error: 'The device is not connected.' },
    ]);
    expect(view.loading).toBe(true);
  });

  it('finds an environment’s containers and one container by id or short id', () => {
    const s = containersIn({ 'dev-1': [container(), container({ Id: 'ffff0000', EnvName: null })] });
    expect(containersOfEnvironment(s, 'pytorch-lab').map((r) => r.id)).toEqual(['c0ffee0123456789abcdef']);
    expect(findContainer(s, 'c0ffee012345')?.deviceId).toBe('dev-1');
    expect(findContainer(s, 'c0ffee0123456789abcdef')?.name).toBe('pytorch-lab-1');
    expect(findContainer(s, 'nope')).toBeNull();
  });

  it('reads the connected devices from the device pool: open links only', () => {
    const conn = (id: string, label: string, chipset: string) => ({
      getSnapshot: () => ({ context: { device: { device_id: id, label, chipset_id: chipset } } }),
    });
    const pool = {
      context: {
        order: ['dev-1', 'dev-2', 'dev-3'],
        status: { 'dev-1': 'open', 'dev-2': 'opening', 'dev-3': 'open' },
        connections: {
          'dev-1': conn('dev-1', 'Device 1', '33'),
          'dev-2': conn('dev-2', 'B', '0'),
          'dev-3': conn('dev-3', 'C', '0'),
        },
      },
    };
    expect(connectedDevicesOf(pool)).toEqual([dev1, { deviceId: 'dev-3', name: 'C', chipsetId: '0' }]);
  });

  it('offers a tag only on devices of its platform', () => {
    expect(devicesForTag([dev1, dev2], env.tags[0])).toEqual([dev1]);
    expect(devicesForTag([dev1, dev2], env.tags[1])).toEqual([dev2]);
    expect(devicesForTag([dev1, dev2], { tag: 'latest', platform: 'any', size_mb: 1 })).toEqual([dev1, dev2]);
    expect(devicesForTag([dev1], undefined)).toEqual([]);
  });
});

describe('container action view (§4, §3 Docker process)', () => {
  const actionIn = (value: string, over: Record<string, unknown> = {}) => {
    const base = createActor(containerActionMachine, { input: { ...request(), key: 'dev-1:pytorch-lab' } });
    return containerActionMachine.resolveState({
      value: value as never,
      context: { ...base.getSnapshot().context, ...over },
    });
  };

  it('names the step, and offers Cancel on the download offer and while downloading', () => {
    expect(actionToView(actionIn('checkingImage'))).toMatchObject({
      step: 'checking',
      busy: true,
      canCancel: false,
    });
    expect(actionToView(actionIn('offeringDownload'))).toMatchObject({
      step: 'offer',
      awaitingConfirm: true,
      canCancel: true,
      sizeMb: 4200,
    });
    expect(actionToView(actionIn('downloading', { percent: 42 }))).toMatchObject({
      step: 'downloading',
      downloading: true,
      percent: 42,
      canCancel: true,
    });
    expect(actionToView(actionIn('cancelingDownload'))).toMatchObject({
      step: 'canceling',
      canCancel: false,
    });
    expect(actionToView(actionIn('startingJupyter')).step).toBe('jupyter');
  });

  it('shows the outcome: done, with the §8 title and words on failure', () => {
    expect(actionToView(actionIn('succeeded'))).toMatchObject({ step: 'succeeded', done: true, busy: false });
    expect(
      actionToView(actionIn('failed', { error: 'Image check failed', message: 'no Docker engine' })),
    ).toMatchObject({ step: 'failed', done: true, error: 'Image check failed', message: 'no Docker engine' });
    expect(actionToView(actionIn('canceled')).step).toBe('canceled');
  });

  it('shows a followed download’s percent with Cancel', () => {
    const followed = createActor(containerActionMachine, {
      input: {
        ...request(),
        key: 'dev-1:pytorch-lab',
        follow: {
          id: 'p',
          device: 'dev-1',
          docker: 'x:1',
          envName: 'pytorch-lab',
          action: 'download',
          message: 'Downloading',
          error: null,
          started: 1,
          ended: null,
          gpu: false,
          percent: 12,
        },
      },
    }).start();
    expect(actionToView(followed.getSnapshot())).toMatchObject({
      step: 'following',
      downloading: true,
      percent: 12,
      canCancel: true,
    });
  });
});

describe('log and catalogue views', () => {
  it('shows the log while open and loading', async () => {
    const logs = createActor(
      containerLogsMachine.provide({ actors: { readLogs: fromPromise(async () => ['a', 'b']) } }),
    ).start();
    expect(logsToView(logs.getSnapshot()).open).toBe(false);
    logs.send({ type: 'logs.open', deviceId: 'dev-1', containerId: 'c1', title: 'lab-1' });
    expect(logsToView(logs.getSnapshot())).toMatchObject({ open: true, loading: true, title: 'lab-1' });
    await new Promise((r) => setTimeout(r, 0));
    expect(logsToView(logs.getSnapshot())).toMatchObject({ open: true, loading: false, lines: ['a', 'b'] });
    logs.stop();
  });

  it('shows the catalogue, one environment, its absence, and the admin form’s failure field', () => {
    const base = createActor(environmentsMachine).getSnapshot().context;
    const s = environmentsMachine.resolveState({
      value: { list: 'ready', detail: 'ready', edit: 'failed' },
      context: {
        ...base,
        environments: [env],
        alias: env.alias,
        detail: env,
        editError: 'taken',
        editField: 'alias',
      },
    });
    expect(catalogueToView(s)).toEqual({ environments: [env], loading: false, error: null });
    expect(detailToView(s, 'pytorch-lab')).toMatchObject({
      environment: env,
      loading: false,
      missing: false,
    });
    expect(detailToView(s, 'other')).toMatchObject({ environment: null, loading: true });
    expect(editToView(s)).toEqual({ saving: false, saved: false, error: 'taken', field: 'alias' });
    const missing = environmentsMachine.resolveState({
      value: { list: 'idle', detail: 'notFound', edit: 'idle' },
      context: { ...base, alias: 'gone' },
    });
    expect(detailToView(missing, 'gone')).toMatchObject({ missing: true, loading: false, environment: null });
    const failedList = environmentsMachine.resolveState({
      value: { list: 'failed', detail: 'idle', edit: 'idle' },
      context: { ...base, listError: 'Servers are unavailable.' },
    });
    expect(catalogueToView(failedList).error).toBe('Servers are unavailable.');
  });
});
