/**
 * The storage feature (§7 "Storage": get-occupied-storage-of-directory, get-total-storage-info, lists of the
 * three image kinds, delete of product data; §3 Storage item): the device page's Storage tab and the
 * storage actor (machines/storage/), loaded in its own chunk after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import './tabLabel';

export const storage: ConsoleFeature = {
  name: 'storage',
  loadActors: () => import('./actors').then((m) => m.storageActors),
  deviceTabs: [
    {
      id: 'storage',
      label: 'storage.tab',
      order: 40,
      panel: lazyScreen(() => import('./screens/StorageTab')),
    },
  ],
};
