/**
 * The containers screens rendered (server-side, react-dom/server) from the feature's real actors on a fake
 * peer link and REST client: what each shows, its labels and test ids. Browser behaviour (clicks, axe) is
 * the end-to-end suite's.
 */
import { describe, expect, it } from 'vitest';
import type { ComponentType } from 'react';
import { renderToString } from 'react-dom/server';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { assign, createActor, fromPromise, setup } from 'xstate';
import '../../../src/console/i18n';
import { authMachine, type StoredSession } from '../../../machines/accounts/auth.machine';
import { containersActors } from '../../../src/console/features/containers/actors';
import AdminDockersScreen from '../../../src/console/features/containers/screens/AdminDockersScreen';
import ContainerDetailsScreen from '../../../src/console/features/containers/screens/ContainerDetailsScreen';
import ContainersScreen from '../../../src/console/features/containers/screens/ContainersScreen';
import EnvironmentScreen from '../../../src/console/features/containers/screens/EnvironmentScreen';
import EnvironmentsScreen from '../../../src/console/features/containers/screens/EnvironmentsScreen';
import PublicEnvironmentScreen from '../../../src/console/features/containers/screens/PublicEnvironmentScreen';
import type { Platform } from '../../../src/console/features/feature';
import { WithMantine } from '../../../src/console/shell/mantine';
import { SystemProvider, type ConsoleSystem } from '../../../src/console/shell/SystemProvider';
import type { Environment } from '../../../src/protocol/containers';
import { container } from '../../model/containers/fixtures';

const flush = async () => {
  for (let i = 0; i < 6; i++) await new Promise((r) => setTimeout(r, 0));
};

const env: Environment = {
  id: 'e1',
  alias: 'pytorch-lab',
  name: 'PyTorch lab',
  description: 'PyTorch with JupyterLab',
  image: 'nvcr.io/nvidia/l4t-pytorch',
  tags: [{ tag: 'r35', platform: 'jetson', size_mb: 4200 }],
  jupyter: true,
  jupyter_port: 8888,
  gpu: true,
  public: true,
  created_at: '',
  updated_at: '',
};

/** The feature's actors (and auth, signed out) under one root, dev-1 connected with two containers. */
async function consoleWith(connected: boolean) {
  const platform = {
    browserId: 'w',
    session: {},
    http: {
      call: async (name: string, options: { params?: { alias?: string } }) => {
        if (name === 'containers.environments') return { environments: [env] };
        if (options.params?.alias === 'pytorch-lab') return { environment: env };
        throw Object.assign(new Error('Not found'), { status: 404 });
      },
    },
    peerLink: {
      callDevice: async (_deviceId: string, process: string) =>
        process === 'getContainers'
          ? {
              containers: [
                container({ Jupyter: true, LocalPort: 49_153 }),
                container({ Id: 'dead00000000ffff', Name: 'old', State: 'exited' }),
              ],
            }
          : { processes: [] },
      onDeviceEvent: () => () => undefined,
    },
  } as unknown as Platform;
  const devicePool = setup({}).createMachine({
    context: {
      order: connected ? ['dev-1'] : [],
      status: connected ? { 'dev-1': 'open' } : {},
      connections: {
        'dev-1': {
          getSnapshot: () => ({
            context: { device: { device_id: 'dev-1', label: 'Device 1', chipset_id: '33' } },
          }),
        },
      },
    },
    on: { never: { actions: assign({}) } },
  });
  const actors = containersActors(platform);
  const auth = authMachine.provide({
    actors: { restoreSession: fromPromise<StoredSession | null>(async () => null) },
  });
  const root = setup({}).createMachine({
    invoke: [
      { id: 'auth', systemId: 'auth', src: auth },
      { id: 'devicePool', systemId: 'devicePool', src: devicePool },
      ...actors.map((a) => ({
        id: a.systemId,
        systemId: a.systemId,
        src: a.logic,
        input: a.input?.({ browserId: 'w', peerConnectionLimit: 50 }),
      })),
    ] as never,
  });
  const system = createActor(root).start() as unknown as ConsoleSystem;
  system.system.get('containers')!.send({ type: 'containers.watch' });
  system.system.get('environments')!.send({ type: 'environments.load' });
  await flush();
  return system;
}

function render(system: ConsoleSystem, path: string, pattern: string, Screen: ComponentType) {
  return renderToString(
    <MemoryRouter initialEntries={[path]}>
      <SystemProvider system={system}>
        <WithMantine>
          <Routes>
            <Route path={pattern} element={<Screen />} />
          </Routes>
        </WithMantine>
      </SystemProvider>
    </MemoryRouter>,
  );
}

describe('containers screens', () => {
  it('/control-panel/containers lists the containers with their actions, labelled per container', async () => {
    const html = render(await consoleWith(true), '/c', '/c', ContainersScreen);
    expect(html).toContain('Containers on connected devices');
    expect(html).toContain('data-testid="container-row-c0ffee012345"');
    expect(html).toContain('data-testid="container-open-jupyter-c0ffee012345"');
    expect(html).toContain('aria-label="Stop container pytorch-lab-1"');
    expect(html).toContain('data-testid="container-start-dead00000000"');
    expect(html).toContain('49153');
    expect(html).not.toContain('data-testid="containers-no-device"');
  });

  it('/control-panel/containers without a connected device links to the devices', async () => {
    const html = render(await consoleWith(false), '/c', '/c', ContainersScreen);
    expect(html).toContain('data-testid="containers-no-device"');
    expect(html).toContain('href="/control-panel/devices"');
  });

  it('/containers shows the catalogue as cards', async () => {
    const html = render(await consoleWith(true), '/containers', '/containers', EnvironmentsScreen);
    expect(html).toContain('data-testid="environment-card-pytorch-lab"');
    expect(html).toContain('nvcr.io/nvidia/l4t-pytorch');
    expect(html).toContain('href="/containers/pytorch-lab"');
  });

  it('/containers/:alias shows versions, the devices running it and the create form', async () => {
    const system = await consoleWith(true);
    system.system.get('environments')!.send({ type: 'environments.open', alias: 'pytorch-lab' });
    await flush();
    const html = render(system, '/containers/pytorch-lab', '/containers/:alias', EnvironmentScreen);
    expect(html).toContain('data-testid="environment-versions"');
    expect(html).toContain('data-testid="environment-container-c0ffee012345"');
    expect(html).toContain('data-testid="create-form"');
    expect(html).toContain('data-testid="create-jupyter"');
    expect(html).toContain('Device 1');
  });

  it('/containers/details/:envId shows one container, or says no connected device has it', async () => {
    const system = await consoleWith(true);
    const html = render(system, '/d/c0ffee012345', '/d/:envId', ContainerDetailsScreen);
    expect(html).toContain('data-testid="container-details"');
    expect(html).toContain('Container c0ffee012345');
    const missing = render(system, '/d/nope', '/d/:envId', ContainerDetailsScreen);
    expect(missing).toContain('data-testid="container-details-missing"');
  });

  it('environment-detail shows catalogue facts signed out, and 404 for an unknown alias', async () => {
    const system = await consoleWith(false);
    system.system
      .get('environments')!
      .send({ type: 'environments.open', alias: 'pytorch-lab', public: true });
    await flush();
    const html = render(system, '/e/pytorch-lab', '/e/:envId?', PublicEnvironmentScreen);
    expect(html).toContain('PyTorch lab');
    expect(html).toContain('data-testid="public-environment-versions"');
    expect(html).toContain('href="/login"');
    system.system.get('environments')!.send({ type: 'environments.open', alias: 'gone', public: true });
    await flush();
    expect(render(system, '/e/gone', '/e/:envId?', PublicEnvironmentScreen)).toContain(
      'data-testid="public-environment-missing"',
    );
  });

  it('/admin-panel/dockers lists the catalogue with labelled edit and delete buttons', async () => {
    const html = render(await consoleWith(true), '/a', '/a', AdminDockersScreen);
    expect(html).toContain('data-testid="admin-environments-table"');
    expect(html).toContain('aria-label="Edit PyTorch lab"');
    expect(html).toContain('aria-label="Delete PyTorch lab"');
  });
});
