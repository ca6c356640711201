/**
 * The records feature (issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not exist or
 * not connected for removal"; §9 "Recorded video codec vp8"): recordings kept on devices — the
 * /control-panel/records screen (list, play, download, remove, upload) and saving a camera cell's recording to
 * its device (saveToDevice.tsx), loaded after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const records: ConsoleFeature = {
  name: 'records',
  routes: { records: lazyScreen(() => import('./screens/RecordsScreen')) },
  loadActors: () => import('./actors').then((m) => m.recordsActors),
};
