/**
 * The composition root — ARCHITECTURE "Console state: the actor system", "Folder layout".
 *
 * `FEATURES` lists the console's features (features/<feature>/index.ts). `createConsoleSystem()` builds the
 * transport (platform/: http, peer link, session storage), merges the features' `.provide()` implementations
 * into the pure root machine, starts it with the features' long-lived actors, and forwards the features'
 * notices to the notifications actor. Features with `loadActors` are loaded after the first sign-in
 * (shell/featureLoader.ts).
 * Views find the actors through their feature's selectors; they never call REST or PeerJS themselves.
 * Nothing heavy is imported here: peerjs, ofetch and zod load on first use.
 */
import { createActor } from 'xstate';
import { systemMachine } from '../../machines/system.machine';
import { accounts } from './features/accounts';
import { authRefOf } from './features/accounts/selectors';
import { createAuthBridge } from './features/accounts/authBridge';
import { cameras } from './features/cameras';
import { containers } from './features/containers';
import { devicePage } from './features/devicePage';
import { devices } from './features/devices';
import { deviceSettings } from './features/deviceSettings';
import { logs } from './features/logs';
import { metrics } from './features/metrics';
import { ipCameras } from './features/ipCameras';
import { groups } from './features/groups';
import { map } from './features/map';
import { records } from './features/records';
import { remoteDesktop } from './features/remoteDesktop';
import { software } from './features/software';
import { models } from './features/models';
import { sshInstall } from './features/sshInstall';
import { repositories } from './features/repositories';
import { applications } from './features/applications';
import { alarms } from './features/alarms';
import { events } from './features/events';
import { faces } from './features/faces';
import { admin } from './features/admin';
import { alarmChannels } from './features/alarmChannels';
import { notifications } from './features/notifications';
import { inference } from './features/inference';
import { demoApps } from './features/demoApps';
import { schedulers } from './features/schedulers';
import { analytics } from './features/analytics';
import { useCases } from './features/useCases';
import { download } from './features/download';
import { engines } from './features/engines';
import { power } from './features/power';
import { search } from './features/search';
import { storage } from './features/storage';
import { uploads } from './features/uploads';
import { profile } from './features/profile';
import { billing } from './features/billing';
import { publicPages } from './features/public';
import type { ConsoleFeature, Platform, SystemActors } from './features/feature';
import { signalling } from './features/signalling';
import { signallingApi } from './features/signalling/api';
import { createHttp } from './platform/http';
import { createBrowserId, createPeerLink, type PeerLinkOptions } from './platform/peerLink';
import { browserStorage, createSessionStore, type KeyValueStorage } from './platform/storage';
import { loadLazyFeatures } from './shell/featureLoader';
import { forwardNotices } from './shell/forwardNotices';
import { createDevInspector } from './shell/inspect';
import type { ConsoleSystem } from './shell/SystemProvider';

export type { ConsoleSystem } from './shell/SystemProvider';

/** The console's features. A new feature adds one line here (and its routes one line each in routes/table.ts). */
export const FEATURES: readonly ConsoleFeature[] = [
  accounts,
  signalling,
  devices,
  devicePage,
  cameras,
  containers,
  logs,
  power,
  deviceSettings,
  storage,
  metrics,
  search,
  ipCameras,
  groups,
  map,
  records,
  software,
  models,
  sshInstall,
  repositories,
  applications,
  alarms,
  events,
  inference,
  demoApps,
  schedulers,
  analytics,
  download,
  engines,
  uploads,
  profile,
  billing,
  publicPages,
  admin,
  remoteDesktop,
  alarmChannels,
  useCases,
  notifications,
  faces,
];

/**
 * The root machine with the features' implementations, and its input with their long-lived actors. Exported
 * so tests can run the real tree on fakes.
 */
export function composeConsole(platform: Platform, features: readonly ConsoleFeature[] = FEATURES) {
  const actors = Object.assign({}, ...features.map((f) => f.provide?.(platform) ?? {})) as SystemActors;
  return {
    machine: systemMachine.provide({ actors }),
    input: { browserId: platform.browserId, features: features.flatMap((f) => f.actors?.(platform) ?? []) },
  };
}

export interface ConsoleSystemOptions {
  /** Open the Stately inspector (development builds only, and only with local storage 'inspect' = '1'). */
  inspect?: boolean;
  /** Session storage (default window.localStorage). */
  storage?: KeyValueStorage | null;
  /** fetch for the REST client (default the global fetch). */
  fetch?: typeof globalThis.fetch;
  /** This tab's peer id (default 'web-' + random). */
  browserId?: string;
  /** PeerJS factory and location (tests). */
  peer?: Pick<PeerLinkOptions, 'createPeer' | 'location'>;
  /**
   * Expose `window.__edgeConsole = { system, callDevice, onDeviceEvent }` (benchmarks and support; main.tsx
   * sets it when local storage 'edge.debug' is '1'). It gives the page nothing the signed-in user does not
   * have already.
   */
  debugGlobal?: boolean;
}

/**
 * Creates and starts the console's actor system. On start, auth restores a stored session; a signed-in
 * session connects signalling and loads the devices table.
 */
export function createConsoleSystem(options: ConsoleSystemOptions = {}): ConsoleSystem {
  const browserId = options.browserId ?? createBrowserId();
  let root: ConsoleSystem | null = null;
  const bridge = createAuthBridge(() => {
    if (!root) throw new Error('console system: not started');
    return authRefOf(root);
  });
  const http = createHttp({ bridge, fetch: options.fetch });
  const peerLink = createPeerLink({ browserId, api: signallingApi(http), ...options.peer });
  const session = createSessionStore(options.storage === undefined ? browserStorage() : options.storage);
  const platform: Platform = { browserId, http, peerLink, session };
  const { machine, input } = composeConsole(platform);
  root = createActor(machine, {
    input,
    inspect: options.inspect ? createDevInspector() : undefined,
  });
  root.start();
  // Notices of the features started now; a lazily loaded feature's are forwarded when it arrives.
  forwardNotices(
    root,
    FEATURES.filter((f) => !f.loadActors).flatMap((f) => f.notices ?? []),
  );
  loadLazyFeatures(root, platform, FEATURES);
  if (options.debugGlobal) {
    (globalThis as { __edgeConsole?: unknown }).__edgeConsole = {
      system: root,
      callDevice: peerLink.callDevice.bind(peerLink),
      onDeviceEvent: peerLink.onDeviceEvent.bind(peerLink),
    };
  }
  return root;
}
