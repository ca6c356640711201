/** The bell's texts in German (§2 language 'de'). */
import type { InboxTranslation } from './en';

export const de: InboxTranslation = {
  bell: 'Benachrichtigungen',
  bellUnread: 'Benachrichtigungen, {{count}} ungelesen',
  title: 'Benachrichtigungen',
  none: 'Keine Benachrichtigungen.',
  markRead: 'Als gelesen markieren',
  markReadOf: '„{{title}}“ als gelesen markieren',
  markAllRead: 'Alle als gelesen markieren',
  unread: 'Ungelesen',
  offline: 'Live-Aktualisierung verbindet neu…',
  retry: 'Erneut versuchen',
};
