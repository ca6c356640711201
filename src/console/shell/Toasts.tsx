/**
 * Mantine's toast container and its store, in their own chunk: toast.tsx loads this module with the first
 * toast, so /login ships neither. Brings its own Mantine provider (the root has none; shell/mantine.tsx).
 */
import { Notifications, notifications } from '@mantine/notifications';
import type { NoticeVariant } from '../../../machines/notifications/emitted';
import { WithMantine } from './mantine';
import { noticeColour } from './notices';

/** Queues a Mantine notification with the §2 toast fields (shown once <Toasts> is mounted). */
export function showNotification(
  toast: { title: string; message: string; variant: NoticeVariant },
  onClose?: () => void,
): void {
  notifications.show({
    title: toast.title,
    message: toast.message,
    color: noticeColour(toast.variant),
    ...(onClose ? { onClose } : {}),
  });
}

export default function Toasts() {
  return (
    <WithMantine>
      <Notifications position="top-right" limit={5} />
    </WithMantine>
  );
}
