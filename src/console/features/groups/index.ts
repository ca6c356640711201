/**
 * The groups feature (issue 16 §2 groups; §3 Group; §7 groups (group_type device or camera): create, rename,
 * nest, delete, assign devices and cameras). Its actor (systemId 'groups', machines/groups/) loads after
 * sign-in in its own chunk; its screens are the group filter and the groups manager
 * (screens/GroupFilter.tsx), shown by the device table and the camera page.
 */
import type { ConsoleFeature } from '../feature';

export const groups: ConsoleFeature = {
  name: 'groups',
  loadActors: () => import('./actors').then((m) => m.groupsActors),
};
