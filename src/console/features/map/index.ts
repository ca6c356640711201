/**
 * The map feature (issue 16 §2 /map: devices on a map, a location set per device, tiles from a configurable
 * URL, usable when tiles cannot load; click a marker to open the device). Its actor (systemId 'map',
 * machines/map/) loads after sign-in in its own chunk; its screen is /map (screens/MapScreen.tsx).
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const map: ConsoleFeature = {
  name: 'map',
  routes: { map: lazyScreen(() => import('./screens/MapScreen')) },
  loadActors: () => import('./actors').then((m) => m.mapActors),
};
