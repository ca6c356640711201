/** The bell's texts in English (§2 language 'en'), the complete set. */
export const en = {
  bell: 'Notifications',
  bellUnread: 'Notifications, {{count}} unread',
  title: 'Notifications',
  none: 'No notifications.',
  markRead: 'Mark read',
  markReadOf: 'Mark “{{title}}” read',
  markAllRead: 'Mark all read',
  unread: 'Unread',
  offline: 'Live updates are reconnecting…',
  retry: 'Try again',
};
export type InboxTexts = typeof en;
export type InboxTranslation = { [K in keyof InboxTexts]: string };
