/**
 * The schedulers feature (issue 10 "`/schedulers` (calendars; `scheduling-calendar-operation`; jobs that start
 * and stop on schedule)"; spec §2 /schedulers, §4 step 4, §7 scheduling-calendar-operation and
 * start-scheduled-job): calendars of weekly times in a time zone, the jobs they start and stop, sent to the
 * devices that run them; loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const schedulers: ConsoleFeature = {
  name: 'schedulers',
  routes: { schedulers: lazyScreen(() => import('./screens/SchedulersScreen')) },
  loadActors: () => import('./actors').then((m) => m.schedulersActors),
  notices: [{ systemId: SYSTEM_IDS.schedulers }],
};
