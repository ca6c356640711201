/**
 * The logs feature (issue 16 "Logs"; §7 "Logs and remote control": log, endLogProcess; §3 Log info; §8 "No log
 * file found", "Log file modified or deleted"; §9 default log count 10): the /logs screen, the device page's
 * Logs tab, and the logs registry with one logTail per open log (machines/logs/), loaded after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const logs: ConsoleFeature = {
  name: 'logs',
  routes: { logs: lazyScreen(() => import('./screens/LogsScreen')) },
  loadActors: () => import('./actors').then((m) => m.logsActors),
  deviceTabs: [
    { id: 'logs', label: 'logs.tab', order: 20, panel: lazyScreen(() => import('./screens/LogsTab')) },
  ],
};
