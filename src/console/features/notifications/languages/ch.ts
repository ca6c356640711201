/** The bell's texts in Chinese (§2 language 'ch'). */
import type { InboxTranslation } from './en';

export const ch: InboxTranslation = {
  bell: '通知',
  bellUnread: '通知，{{count}} 条未读',
  title: '通知',
  none: '没有通知。',
  markRead: '标为已读',
  markReadOf: '将“{{title}}”标为已读',
  markAllRead: '全部标为已读',
  unread: '未读',
  offline: '实时更新正在重新连接…',
  retry: '重试',
};
