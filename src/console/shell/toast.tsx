/**
 * Toasts (§2 "Toast notifications use the fields title, message, variant"). `showToast` queues a Mantine
 * notification; <ToastHost> loads the container chunk with the first toast, so /login does not ship it
 * until something is shown (the notifications store keeps the toast meanwhile).
 */
import { Suspense, lazy, useSyncExternalStore } from 'react';
import { notifications } from '@mantine/notifications';
import type { NoticeVariant } from '../../../machines/emitted';
import { noticeColour } from './notices';

const Toasts = lazy(() => import('./Toasts'));

let requested = false;
const listeners = new Set<() => void>();

/** Shows a toast with the §2 fields. */
export function showToast(toast: { title: string; message: string; variant: NoticeVariant }): void {
  if (!requested) {
    requested = true;
    listeners.forEach((l) => l());
  }
  notifications.show({ title: toast.title, message: toast.message, color: noticeColour(toast.variant) });
}

/** Mounts the toast container once a toast has been requested. */
export function ToastHost() {
  const show = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => requested,
    () => false,
  );
  return show ? (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  ) : null;
}
