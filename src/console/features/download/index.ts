/**
 * The download feature (spec §2 /download): the device client for x86 and Jetson — the published release,
 * what a device needs, and a new device with the one-line install command — loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const download: ConsoleFeature = {
  name: 'download',
  routes: { download: lazyScreen(() => import('./screens/DownloadScreen')) },
  loadActors: () => import('./actors').then((m) => m.downloadActors),
  notices: [{ systemId: SYSTEM_IDS.download }],
};
