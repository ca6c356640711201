/**
 * The software feature (issue 16 §1 "Software"; §7 get-client-version, check-version-update,
 * check-stream-engine-update and the companion checks, get-download-upload-status; §4 client update; agent
 * releases published by the server): the device page's Software tab and the software registry
 * (machines/software/), loaded in its own chunk after sign-in, whose updates' notices are shown.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import './tabLabel';

interface SoftwareSnapshotLike {
  context: { updates: Record<string, never> };
}

export const software: ConsoleFeature = {
  name: 'software',
  loadActors: () => import('./actors').then((m) => m.softwareActors),
  deviceTabs: [
    {
      id: 'software',
      label: 'software.tab',
      order: 50,
      panel: lazyScreen(() => import('./screens/SoftwareTab')),
    },
  ],
  notices: [
    {
      systemId: SYSTEM_IDS.software,
      children: (s) => Object.values((s as unknown as SoftwareSnapshotLike).context.updates),
    },
  ],
};
