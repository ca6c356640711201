/**
 * The inference feature (issue 10; spec §2 /jobs; §3 Job and Stream; §4 "Job events" and "Starting an
 * inference connection"; §8 inference texts; §9 threshold 0.3, stream engine wait 60 s / 500 ms): jobs listed,
 * started from an application and a camera (every start stage visible), stopped and deleted; application
 * streams get their detections drawn over the video in the camera grid and the stream modal (overlay.tsx).
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const inference: ConsoleFeature = {
  name: 'inference',
  routes: { jobs: lazyScreen(() => import('./screens/JobsScreen')) },
  loadActors: () => import('./actors').then((m) => m.inferenceActors),
  notices: [
    {
      systemId: SYSTEM_IDS.inferenceJobs,
      children: (s) =>
        Object.values((s as { context?: { starts?: Record<string, never> } }).context?.starts ?? {}),
    },
  ],
};
