/**
 * The metrics feature (issue 16 §1 "Metrics"; §7 "Health and metrics": get-metrics-info, get-usages;
 * "Settings changes": change-save-metrics-info; §9 device score): the device page's Metrics tab and the
 * metrics actor (machines/metrics/), loaded in its own chunk after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const metrics: ConsoleFeature = {
  name: 'metrics',
  loadActors: () => import('./actors').then((m) => m.metricsActors),
  deviceTabs: [
    {
      id: 'metrics',
      label: 'metrics.tab',
      order: 10,
      panel: lazyScreen(() => import('./screens/MetricsTab')),
    },
  ],
};
