/**
 * The notification bell (spec §3 Notification; §7 real-time socket; issue 11 "a notification bell with unread
 * count"): in the shell's header, over the inbox actor, loaded after sign-in in its own chunk.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';

export const notifications: ConsoleFeature = {
  name: 'notifications',
  loadActors: () => import('./actors').then((m) => m.notificationsActors),
  headerSlots: [lazyScreen(() => import('./screens/Bell'))],
};
