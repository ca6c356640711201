/**
 * The applications feature (spec §2 /applications; §3 "Model/application list … Features list and
 * selectedModelInfo"; §7 POST applications, GET features; §9 default threshold 0.3): applications — a model
 * version with its pipeline settings — listed, created from a model, edited and deleted; loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const applications: ConsoleFeature = {
  name: 'applications',
  routes: { applications: lazyScreen(() => import('./screens/ApplicationsScreen')) },
  loadActors: () => import('./actors').then((m) => m.applicationsActors),
  notices: [{ systemId: SYSTEM_IDS.applications }],
};
