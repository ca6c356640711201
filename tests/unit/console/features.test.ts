import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../../src/console/routes/table';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { composeConsole, FEATURES } from '../../../src/console/system';

const SHELL_SCREENS = ['notFound', 'expired', 'later'];

describe('features and the composition root (ARCHITECTURE "Folder layout")', () => {
  it('names each feature once, as its folder', () => {
    const names = FEATURES.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    expect(names).toEqual([
      'accounts',
      'signalling',
      'devices',
      'devicePage',
      'cameras',
      'containers',
      'logs',
      'power',
      'deviceSettings',
      'storage',
      'metrics',
      'search',
      'ipCameras',
      'groups',
      'map',
      'records',
      'software',
      'models',
      'sshInstall',
      'repositories',
      'applications',
      'alarms',
      'events',
      'inference',
      'demoApps',
      'schedulers',
      'analytics',
      'download',
      'engines',
      'uploads',
      'profile',
      'billing',
      'public',
      'admin',
      'remoteDesktop',
      'alarmChannels',
      'useCases',
      'notifications',
      'faces',
    ]);
  });

  it('has a screen for every routed screen of the §2 table, from the shell or exactly one feature', () => {
    for (const route of ROUTES) {
      if (SHELL_SCREENS.includes(route.screen)) continue;
      const owners = FEATURES.filter((f) => f.routes && route.screen in f.routes).map((f) => f.name);
      expect(owners, `${route.path} (${route.screen})`).toHaveLength(1);
    }
  });

  it('gives the root its auth and starts each long-lived feature actor once, under its systemId', async () => {
    // Nothing runs until an actor starts: any function will do for the transport.
    const anything = new Proxy({}, { get: () => () => undefined });
    const platform = {
      browserId: 'web-test',
      http: anything,
      peerLink: anything,
      session: anything,
    } as never;
    const provided = FEATURES.flatMap((f) => Object.keys(f.provide?.(platform) ?? {}));
    expect(provided).toEqual(['auth']);
    const started = composeConsole(platform).input.features.map((a) => a.systemId);
    expect(started).toEqual([
      SYSTEM_IDS.connectivity,
      SYSTEM_IDS.signal,
      SYSTEM_IDS.devicePool,
      SYSTEM_IDS.devicesTable,
      SYSTEM_IDS.streams,
    ]);
    // The containers feature's actors come in their own chunk, after sign-in (shell/featureLoader.ts).
    const containers = FEATURES.find((f) => f.name === 'containers')!;
    expect(containers.actors).toBeUndefined();
    const loaded = (await containers.loadActors!())(platform).map((a) => a.systemId);
    expect(loaded).toEqual([
      SYSTEM_IDS.containers,
      SYSTEM_IDS.containerActions,
      SYSTEM_IDS.containerLogs,
      SYSTEM_IDS.environments,
    ]);
  });
});
