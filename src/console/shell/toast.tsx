/**
 * Toasts (§2 "Toast notifications use the fields title, message, variant"). `showToast` loads the toast
 * chunk (Toasts.tsx: Mantine's notifications store and container) and queues the toast there; <ToastHost>
 * mounts the container once a toast has been requested. /login ships none of it until something is shown.
 */
import { useEffect, useState, useSyncExternalStore, type ComponentType } from 'react';
import type { NoticeI18n, NoticeVariant } from '../../../machines/notifications/emitted';

let toastsModule: Promise<typeof import('./Toasts')> | null = null;
/** The toast chunk, fetched once (a failed fetch is forgotten, so the next toast fetches it again). */
const loadToasts = () =>
  (toastsModule ??= import('./Toasts').catch((error: unknown) => {
    toastsModule = null;
    throw error;
  }));

/** Toasts asked for so far; each one while the chunk is missing makes <ToastHost> try to load it again. */
let requests = 0;
const listeners = new Set<() => void>();

/** Shows a toast with the §2 fields (asynchronously: the toast chunk may still be loading). */
export function showToast(
  toast: { title: string; message: string; variant: NoticeVariant; i18n?: NoticeI18n },
  onClose?: () => void,
): void {
  requests += 1;
  listeners.forEach((l) => l());
  loadToasts().then(
    (mod) => mod.showNotification(toast, onClose),
    (error: unknown) => console.error('toast chunk failed to load', error, toast),
  );
}

/**
 * Mounts the toast container once a toast has been requested. The chunk is loaded here rather than through
 * React.lazy: a lazy component whose import failed (the server restarting, the browser offline) keeps that
 * failure and throws it on every render, which took the whole console down to its error boundary; here a failed
 * load renders nothing and the next toast tries again.
 */
export function ToastHost() {
  const asked = useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => requests,
    () => 0,
  );
  const [Container, setContainer] = useState<ComponentType | null>(null);
  useEffect(() => {
    if (asked === 0 || Container) return;
    let live = true;
    loadToasts().then(
      (mod) => live && setContainer(() => mod.default),
      () => undefined, // logged by showToast; the next toast retries
    );
    return () => {
      live = false;
    };
  }, [asked, Container]);
  return Container ? <Container /> : null;
}
