import { afterEach, describe, expect, it, vi } from 'vitest';
import { assign, createActor, setup, type AnyActorRef } from 'xstate';
import { containersActors } from '../../../src/console/features/containers/actors';
import type { Platform } from '../../../src/console/features/feature';
import { CONTAINER_EVENTS } from '../../../src/protocol/containers';
import { container } from '../../model/containers/fixtures';

const flush = async () => {
  for (let i = 0; i < 6; i++) await new Promise((r) => setTimeout(r, 0));
};

interface Call {
  deviceId: string;
  process: string;
  payload: unknown;
  options?: { onProgress?: (d: unknown) => void; signal?: AbortSignal };
}

/** A peer link whose replies the test gives per process, and whose device events it can push. */
function fakePlatform(replies: Record<string, (call: Call) => Promise<unknown>>) {
  const calls: Call[] = [];
  const listeners = new Set<(deviceId: string, name: string, data: unknown) => void>();
  const httpCalls: Array<{ name: string; options: unknown }> = [];
  const platform = {
    browserId: 'web-test',
    session: {},
    http: {
      call: async (name: string, options: unknown) => {
        httpCalls.push({ name, options });
        return { data: { url: '/remote/dev-1/c0ffee012345/lab', expires_at: '' } };
      },
    },
    peerLink: {
      callDevice: (deviceId: string, process: string, payload: unknown, options?: Call['options']) => {
        const call = { deviceId, process, payload, options };
        calls.push(call);
        const reply = replies[process];
        return reply
          ? reply(call)
          : Promise.reject(Object.assign(new Error('no'), { code: 'unknown_process' }));
      },
      onDeviceEvent: (l: (deviceId: string, name: string, data: unknown) => void) => {
        listeners.add(l);
        return () => listeners.delete(l);
      },
    },
  } as unknown as Platform;
  const push = (deviceId: string, name: string, data: unknown) =>
    listeners.forEach((l) => l(deviceId, name, data));
  return { platform, calls, httpCalls, push };
}

/** The device pool's shape with dev-1 open (what watchConnectedDevices reads). */
const devicePool = setup({}).createMachine({
  context: {
    order: ['dev-1'],
    status: { 'dev-1': 'open' },
    connections: {
      'dev-1': {
        getSnapshot: () => ({
          context: { device: { device_id: 'dev-1', label: 'Device 1', chipset_id: '33' } },
        }),
      },
    },
  },
  on: { 'pool.clear': { actions: assign({ order: [], status: {} }) } },
});

/** The feature's actors under one root, with the device pool beside them (as in the console). */
function system(platform: Platform) {
  const actors = containersActors(platform);
  const root = setup({}).createMachine({
    // Logic given inline (not named in setup): typed loosely on purpose.
    invoke: [
      { id: 'devicePool', systemId: 'devicePool', src: devicePool },
      ...actors.map((a) => ({
        id: a.systemId,
        systemId: a.systemId,
        src: a.logic,
        input: a.input?.({ browserId: 'w', peerConnectionLimit: 50 }),
      })),
    ] as never,
  });
  const actor = createActor(root).start();
  return (id: string) => actor.system.get(id) as AnyActorRef;
}

afterEach(() => vi.unstubAllGlobals());

describe('containers feature actors (device commands, link events, REST)', () => {
  it('loads the connected device’s containers and keeps the ones the device pushes', async () => {
    const { platform, calls, push } = fakePlatform({
      getContainers: async () => ({ containers: [container()] }),
    });
    const get = system(platform);
    get('containers').send({ type: 'containers.watch' });
    await flush();
    expect(calls.map((c) => c.process)).toEqual(['getContainers']);
    expect(get('containers').getSnapshot().context.byDevice['dev-1']).toEqual([container()]);
    push('dev-1', CONTAINER_EVENTS.changed, { containers: [container({ State: 'exited' })] });
    push('dev-1', CONTAINER_EVENTS.changed, { nonsense: true });
    expect(get('containers').getSnapshot().context.byDevice['dev-1'][0].State).toBe('exited');
    get('devicePool').send({ type: 'pool.clear' });
    expect(get('containers').getSnapshot().context.devices).toEqual([]);
  });

  it('runs a create through the download offer with progress, then creates, starts and starts Jupyter', async () => {
    let finishDownload: (v: unknown) => void = () => undefined;
    const { platform, calls } = fakePlatform({
      'docker-processes': async () => ({ processes: [] }),
      'check-docker-image': async () => ({ status: 404, message: 'No such image', image: null }),
      'download-docker-image': () => new Promise((r) => (finishDownload = r)),
      'docker-create': async () => ({ container: container({ State: 'created' }) }),
      'docker-start': async () => ({ container: container() }),
      'start-jupyter': async () => ({ container: container({ Jupyter: true }) }),
    });
    const get = system(platform);
    const registry = get('containerActions');
    registry.send({ type: 'actions.watch' });
    registry.send({
      type: 'actions.start',
      request: {
        deviceId: 'dev-1',
        deviceName: 'Device 1',
        envName: 'pytorch-lab',
        image: 'nvcr.io/nvidia/l4t-pytorch:r35',
        action: 'create',
        jupyter: true,
        jupyterPort: 8888,
        gpu: true,
      },
    });
    await flush();
    const action = registry.getSnapshot().context.actions['dev-1:pytorch-lab'] as AnyActorRef;
    expect(action.getSnapshot().hasTag('awaitingConfirm')).toBe(true);
    action.send({ type: 'action.download' });
    await flush();
    const download = calls.find((c) => c.process === 'download-docker-image')!;
    expect(download.payload).toEqual({ image: 'nvcr.io/nvidia/l4t-pytorch:r35', envName: 'pytorch-lab' });
    download.options?.onProgress?.({ image: 'x', layers: [], percent: 30 });
    expect(action.getSnapshot().context.percent).toBe(30);
    download.options?.onProgress?.({ layers: [{ id: 'a', status: 'Pull complete', current: 0, total: 0 }] });
    expect(action.getSnapshot().context.percent).toBe(100);
    finishDownload({ image: 'x', status: 'downloaded', image_info: {} });
    await flush();
    expect(calls.map((c) => c.process)).toEqual([
      'docker-processes',
      'check-docker-image',
      'download-docker-image',
      'docker-create',
      'docker-start',
      'start-jupyter',
    ]);
    expect(calls[3]!.payload).toEqual({
      image: 'nvcr.io/nvidia/l4t-pytorch:r35',
      envName: 'pytorch-lab',
      jupyter_port: 8888,
      gpu: true,
    });
    expect(action.getSnapshot().hasTag('succeeded')).toBe(true);
  });

  it('cancels a download on the device, aborts its call and ends the action', async () => {
    const { platform, calls } = fakePlatform({
      'check-docker-image': async () => ({ status: 404, message: '', image: null }),
      'download-docker-image': (call) =>
        new Promise((_, reject) =>
          call.options?.signal?.addEventListener('abort', () =>
            reject(Object.assign(new Error('aborted'), { code: 'aborted' })),
          ),
        ),
      'cancel-docker-download': async () => ({ canceled: true }),
    });
    const registry = system(platform)('containerActions');
    registry.send({
      type: 'actions.start',
      request: {
        deviceId: 'dev-1',
        deviceName: 'D',
        envName: 'yolo',
        image: 'yolo:1',
        action: 'create',
        jupyter: false,
        gpu: false,
      },
    });
    await flush();
    const action = registry.getSnapshot().context.actions['dev-1:yolo'] as AnyActorRef;
    action.send({ type: 'action.download' });
    await flush();
    action.send({ type: 'action.cancel' });
    await flush();
    const download = calls.find((c) => c.process === 'download-docker-image')!;
    expect(download.options?.signal?.aborted).toBe(true);
    expect(calls.map((c) => c.process)).toContain('cancel-docker-download');
    // The action ends canceled, with no failure shown; a new create may start.
    expect(action.getSnapshot().hasTag('canceled')).toBe(true);
    expect(action.getSnapshot().context.error).toBeNull();
    expect(registry.getSnapshot().context.running).toEqual([]);
  });

  it('follows a Docker process the device reports after a reload', async () => {
    const running = {
      id: 'p1',
      device: 'dev-1',
      docker: 'yolo:1',
      envName: 'yolo',
      action: 'download',
      message: 'Downloading',
      error: null,
      started: 1,
      ended: null,
      gpu: false,
      percent: 20,
    };
    const { platform, push } = fakePlatform({ 'docker-processes': async () => ({ processes: [running] }) });
    const registry = system(platform)('containerActions');
    registry.send({ type: 'actions.watch' });
    await flush();
    const follower = registry.getSnapshot().context.actions['dev-1:yolo'] as AnyActorRef;
    expect(follower.getSnapshot().context.percent).toBe(20);
    push('dev-1', CONTAINER_EVENTS.process, { ...running, percent: 65 });
    expect(follower.getSnapshot().context.percent).toBe(65);
  });

  it('opens Jupyter through request_remote_device in a new tab', async () => {
    const tab = { opener: {} };
    const open = vi.fn(() => tab);
    vi.stubGlobal('window', { open });
    const { platform, httpCalls } = fakePlatform({ getContainers: async () => ({ containers: [] }) });
    const containers = system(platform)('containers');
    containers.send({ type: 'containers.watch' });
    containers.send({
      type: 'containers.openJupyter',
      deviceId: 'dev-1',
      containerId: 'c0ffee0123456789abcdef',
    });
    await flush();
    expect(httpCalls[0]).toMatchObject({
      name: 'containers.requestRemoteDevice',
      options: {
        body: { device_id: 'dev-1', target: 'jupyter', data: { container_id: 'c0ffee0123456789abcdef' } },
      },
    });
    expect(open).toHaveBeenCalledWith('/remote/dev-1/c0ffee012345/lab', '_blank');
    expect(tab.opener).toBeNull();
    expect(containers.getSnapshot().context.opening).toBeNull();
  });
});
