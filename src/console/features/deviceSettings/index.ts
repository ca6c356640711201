/**
 * The deviceSettings feature (spec §7 "Client and settings": get-home-path, get-settings-info,
 * get-device-settings-info with its four infoTypes, force-refresh-device-settings, restart-client-engine,
 * restart-frp-client, connect-cie; "Settings changes": change-startup-info, change-connection-alert-info,
 * change-check-device-metrics-info, change-client-log-info, change-stream-engine-log-info, the Jetson service;
 * §8 "Device setting calls return data null plus the error"): the device page's Settings tab (order 30) and the
 * deviceSettings actor (machines/deviceSettings/), loaded after sign-in.
 */
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const deviceSettings: ConsoleFeature = {
  name: 'deviceSettings',
  loadActors: () => import('./actors').then((m) => m.deviceSettingsActors),
  // Metric alerts (link event 'settings.metricAlert') are shown as toasts.
  notices: [{ systemId: SYSTEM_IDS.deviceSettings }],
  deviceTabs: [
    {
      id: 'settings',
      label: 'deviceSettings.tab',
      order: 30,
      panel: lazyScreen(() => import('./screens/SettingsTab')),
    },
  ],
};
