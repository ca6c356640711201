/**
 * The devices feature (spec §4 Device connection, §7 get_devices/; server routes `devices`): the dashboard
 * and devices screens, the devices table and device pool actors' side effects, their notices.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { devicesActors } from './actors';
import { allConnectionRefsOf } from './selectors';

export const devices: ConsoleFeature = {
  name: 'devices',
  routes: {
    dashboard: lazyScreen(() => import('./screens/DashboardScreen')),
    devices: lazyScreen(() => import('./screens/DevicesScreen')),
  },
  actors: devicesActors,
  busy: [SYSTEM_IDS.devicesTable],
  notices: [
    { systemId: SYSTEM_IDS.devicesTable },
    // Each device's connection actor emits too (§8 "Device is not reachable").
    { systemId: SYSTEM_IDS.devicePool, children: (s) => allConnectionRefsOf(s as never) },
  ],
};
