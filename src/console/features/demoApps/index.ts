/**
 * The demo AI applications (issue 14; spec §2 /nanoowl, /llava, /speed_application, /ibb, /ai-platform,
 * /control-panel/cameras-dev): one screen per app on a live camera of a device, answered by the device's
 * engine (sim: the synthetic scene's truth; host: a deployed model), and the camera page with developer views.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const demoApps: ConsoleFeature = {
  name: 'demoApps',
  routes: {
    nanoowl: lazyScreen(() => import('./screens/NanoOwlScreen')),
    llava: lazyScreen(() => import('./screens/LlavaScreen')),
    speedApplication: lazyScreen(() => import('./screens/SpeedScreen')),
    ibb: lazyScreen(() => import('./screens/IbbScreen')),
    aiPlatform: lazyScreen(() => import('./screens/AiPlatformScreen')),
    camerasDev: lazyScreen(() => import('./screens/CamerasDevScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.demoAppsActors),
};
