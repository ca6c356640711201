/**
 * The models feature (issue 9 "Models"): the model repository (/models, /llm-models, /models-beta) with upload
 * through the uploads feature (purpose 'model'), a model's page with deploy to a device, and /remote-downloads;
 * loaded after sign-in. The list machine's §8 toast is shown through `notices`.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const models: ConsoleFeature = {
  name: 'models',
  routes: {
    models: lazyScreen(() => import('./screens/ModelsScreen')),
    remoteDownloads: lazyScreen(() => import('./screens/RemoteDownloadsScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.modelsActors),
  notices: [{ systemId: SYSTEM_IDS.modelList }],
};
