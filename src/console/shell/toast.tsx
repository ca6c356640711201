/**
 * Toasts (§2 "Toast notifications use the fields title, message, variant"). `showToast` loads the toast
 * chunk (Toasts.tsx: Mantine's notifications store and container) and queues the toast there; <ToastHost>
 * mounts the container once a toast has been requested. /login ships none of it until something is shown.
 */
import { Suspense, lazy, useSyncExternalStore } from 'react';
import type { NoticeI18n, NoticeVariant } from '../../../machines/notifications/emitted';

let toastsModule: Promise<typeof import('./Toasts')> | null = null;
/** The toast chunk, fetched once. */
const loadToasts = () => (toastsModule ??= import('./Toasts'));

const Toasts = lazy(loadToasts);

let requested = false;
const listeners = new Set<() => void>();

/** Shows a toast with the §2 fields (asynchronously: the toast chunk may still be loading). */
export function showToast(
  toast: { title: string; message: string; variant: NoticeVariant; i18n?: NoticeI18n },
  onClose?: () => void,
): void {
  if (!requested) {
    requested = true;
    listeners.forEach((l) => l());
  }
  loadToasts().then(
    (mod) => mod.showNotification(toast, onClose),
    (error: unknown) => {
      toastsModule = null; // a later toast retries the chunk
      console.error('toast chunk failed to load', error, toast);
    },
  );
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
