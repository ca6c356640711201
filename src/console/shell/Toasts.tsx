/**
 * Mantine's toast container and its store, in their own chunk: toast.tsx loads this module with the first
 * toast, so /login ships neither. Brings its own Mantine provider (the root has none; shell/mantine.tsx).
 */
import { Notifications, notifications } from '@mantine/notifications';
import type { NoticeI18n, NoticeText, NoticeVariant } from '../../../machines/notifications/emitted';
import i18n from '../i18n';
import { WithMantine } from './mantine';
import { noticeColour } from './notices';

/** Queues a Mantine notification with the §2 toast fields (shown once <Toasts> is mounted). */
export function showNotification(
  toast: { title: string; message: string; variant: NoticeVariant; i18n?: NoticeI18n },
  onClose?: () => void,
): void {
  notifications.show({
    title: translated(toast.title, toast.i18n?.title),
    message: translated(toast.message, toast.i18n?.message),
    color: noticeColour(toast.variant),
    ...(onClose ? { onClose } : {}),
  });
}

/** `text` in the user's language when it has a key (the English `fallback` for a key without a text). */
export function translated(fallback: string, text: NoticeText | undefined): string {
  return text ? i18n.t(text.key, { ...text.values, defaultValue: fallback }) : fallback;
}

export default function Toasts() {
  return (
    <WithMantine>
      <Notifications position="top-right" limit={5} />
    </WithMantine>
  );
}
