/**
 * The events feature (issue 11 `/events`, `/alarm-dashboard`; spec §2 "If the page URL contains events the app
 * goes to /events"): the timeline of events with filters, bulk review and the snapshot/clip viewer, and the
 * alarm dashboard (counts per alarm and severity, events per hour, recent events); loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const events: ConsoleFeature = {
  name: 'events',
  routes: {
    events: lazyScreen(() => import('./screens/EventsScreen')),
    alarmDashboard: lazyScreen(() => import('./screens/AlarmDashboardScreen')),
  },
  loadActors: () => import('./actors').then((m) => m.eventsActors),
  notices: [{ systemId: SYSTEM_IDS.events }],
};
