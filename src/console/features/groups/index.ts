/**
 * The groups feature (issue 16 §2 groups; §3 Group; §7 groups (group_type device or camera): create, rename, nest, delete, assign devices and cameras).
 */
import type { ConsoleFeature } from '../feature';

export const groups: ConsoleFeature = { name: 'groups' };
