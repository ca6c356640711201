/**
 * Shows the notifications actor's toasts as Mantine notifications (§2 toasts: title, message, variant);
 * a toast Mantine closes (after its time or by the user) is dismissed in the actor. Renders the toast
 * container once the first toast arrives.
 */
import { useEffect, useRef } from 'react';
import { useNotificationsRef, useToasts } from './notifications';
import { ToastHost, showToast } from './toast';

export function ToastSlot() {
  const notifications = useNotificationsRef();
  const toasts = useToasts();
  const shown = useRef(new Set<number>());
  useEffect(() => {
    for (const toast of toasts) {
      if (shown.current.has(toast.id)) continue;
      shown.current.add(toast.id);
      showToast(toast, () => {
        shown.current.delete(toast.id);
        notifications.send({ type: 'notice.dismiss', id: toast.id });
      });
    }
  }, [toasts, notifications]);
  return <ToastHost />;
}
