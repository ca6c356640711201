/**
 * The use cases feature (issue 11 "use cases"; spec §2 /use-cases/person-counter,
 * /use-cases/person-counter/analytics, /use-cases/demographic, /use-cases/vehicle-plate-detection): a person
 * counter with its line drawn on the camera and live in/out counts, its counts per interval (chart, totals,
 * CSV), people by age band and gender, plates per vehicle; each use case runs on one running inference job's
 * detections on the device (src/agent/useCases/). Loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const useCases: ConsoleFeature = {
  name: 'useCases',
  routes: {
    personCounter: lazyScreen(() => import('./screens/PersonCounterScreen')),
    personCounterAnalytics: lazyScreen(() => import('./screens/CounterAnalyticsScreen')),
    demographic: lazyScreen(() => import('./screens/DemographicScreen')),
    vehiclePlates: lazyScreen(() => import('./screens/PlatesScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.useCasesActors),
  notices: [{ systemId: SYSTEM_IDS.useCases }],
};
