/** The bell's texts in French (§2 language 'fr'). */
import type { InboxTranslation } from './en';

export const fr: InboxTranslation = {
  bell: 'Notifications',
  bellUnread: 'Notifications, {{count}} non lues',
  title: 'Notifications',
  none: 'Aucune notification.',
  markRead: 'Marquer comme lue',
  markReadOf: 'Marquer « {{title}} » comme lue',
  markAllRead: 'Tout marquer comme lu',
  unread: 'Non lue',
  offline: 'Reconnexion des mises à jour en direct…',
  retry: 'Réessayer',
};
