/**
 * The analytics feature (issue 11 "Analytics"; spec §2 /analytics/dashboard-collections-manager,
 * /analytics/dashboard-collection/{id}, /analytics/dashboard/{id}): collections of dashboards, and dashboards
 * as grids of charts over events and use-case records aggregated by the server (src/server/analytics/),
 * filtered by clicking a chart, exported as CSV and PNG. Its machines are provided after sign-in (actors.ts).
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const analytics: ConsoleFeature = {
  name: 'analytics',
  routes: {
    analyticsCollections: lazyScreen(() => import('./screens/CollectionsScreen')),
    analyticsCollection: lazyScreen(() => import('./screens/CollectionScreen')),
    analyticsDashboard: lazyScreen(() => import('./screens/DashboardScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.analyticsActors),
};
