/**
 * What views read of the notifications actor (machines/notifications/notifications.machine.ts): the
 * toasts on screen and the dialog shown (`snapshotToView` reads the `dialog` tag).
 */
import { useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type {
  notificationsMachine,
  QueuedDialog,
  Toast,
} from '../../../machines/notifications/notifications.machine';
import { SYSTEM_IDS } from '../../../machines/systemIds';
import { actorOf, useSystem, type ConsoleSystem } from './SystemProvider';

export type NotificationsRef = ActorRefFrom<typeof notificationsMachine>;
type NotificationsSnapshot = SnapshotFrom<typeof notificationsMachine>;

/** The notifications actor. */
export const notificationsRefOf = (system: ConsoleSystem): NotificationsRef =>
  actorOf<NotificationsRef>(system, SYSTEM_IDS.notifications);
export function useNotificationsRef(): NotificationsRef {
  return notificationsRefOf(useSystem());
}

export interface NotificationsView {
  toasts: Toast[];
  /** The dialog shown, or null. */
  dialog: QueuedDialog | null;
}
export function snapshotToView(s: NotificationsSnapshot): NotificationsView {
  return { toasts: s.context.toasts, dialog: s.hasTag('dialog') ? (s.context.dialogs[0] ?? null) : null };
}

/** The toasts on screen (same array while they do not change). */
export function useToasts(): Toast[] {
  return useSelector(useNotificationsRef(), (s) => snapshotToView(s).toasts);
}
/** The dialog shown, or null. */
export function useShownDialog(): QueuedDialog | null {
  return useSelector(useNotificationsRef(), (s) => snapshotToView(s).dialog);
}
