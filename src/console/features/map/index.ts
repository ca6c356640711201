/**
 * The map feature (issue 16 §2 /map: devices on a map, a location set per device).
 */
import type { ConsoleFeature } from '../feature';

export const map: ConsoleFeature = { name: 'map' };
