/** The bell's texts in Japanese (§2 language 'jp'). */
import type { InboxTranslation } from './en';

export const jp: InboxTranslation = {
  bell: '通知',
  bellUnread: '通知、未読 {{count}} 件',
  title: '通知',
  none: '通知はありません。',
  markRead: '既読にする',
  markReadOf: '「{{title}}」を既読にする',
  markAllRead: 'すべて既読にする',
  unread: '未読',
  offline: 'ライブ更新を再接続しています…',
  retry: '再試行',
};
