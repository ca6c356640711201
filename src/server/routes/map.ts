/**
 * Handlers of the map feature's routes (src/protocol/map.ts; issue 16 §2 /map: devices on a map, a location set per device).
 */
import type { mapRoutes } from '../../protocol/map';
import type { HandlersOf } from './register';

export const mapHandlers: HandlersOf<typeof mapRoutes> = () => ({});
