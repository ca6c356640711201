/**
 * The map feature's contract (issue 16 §2 /map: devices on a map, a location set per device).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineRoutes } from './route';

export const mapRoutes = defineRoutes({});
