/** The bell's texts in Spanish (§2 language 'es'). */
import type { InboxTranslation } from './en';

export const es: InboxTranslation = {
  bell: 'Notificaciones',
  bellUnread: 'Notificaciones, {{count}} sin leer',
  title: 'Notificaciones',
  none: 'No hay notificaciones.',
  markRead: 'Marcar como leída',
  markReadOf: 'Marcar «{{title}}» como leída',
  markAllRead: 'Marcar todas como leídas',
  unread: 'Sin leer',
  offline: 'Reconectando las actualizaciones en directo…',
  retry: 'Reintentar',
};
