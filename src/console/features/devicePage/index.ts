/**
 * The device page feature (`/control-panel/devices?device={id}`; issue "Operate a device" §1): the page with
 * its tabs (other features add theirs through ConsoleFeature.deviceTabs) and its Overview tab, over the
 * devicePage actor (machines/devicePage/), loaded after sign-in in its own chunk.
 */
import type { ConsoleFeature } from '../feature';

export const devicePage: ConsoleFeature = {
  name: 'devicePage',
  loadActors: () => import('./actors').then((m) => m.devicePageActors),
};
