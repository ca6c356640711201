/**
 * The alarms feature (issue 11 `/alarms`; spec §3 Alarm, §4 start step 1, §7 alarm-new and
 * POST /calendars/alarms/{id}/assign/): alarms listed, edited (cameras, classes, zones drawn on a camera
 * still, minimum score, cooldown, severity, calendars) and deleted; loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const alarms: ConsoleFeature = {
  name: 'alarms',
  routes: { alarms: lazyScreen(() => import('./screens/AlarmsScreen')) },
  loadActors: () => import('./actors').then((m) => m.alarmsActors),
  notices: [{ systemId: SYSTEM_IDS.alarms }],
};
