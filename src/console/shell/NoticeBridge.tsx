/**
 * Shows every `notice` emitted by the long-lived actors (auth, signal, devicesTable, devicePool, streams)
 * and by each device connection actor as a Mantine notification (§2 toasts: title, message, variant).
 * Renders the toast container once the first notice arrives.
 */
import { useEffect } from 'react';
import type { NoticeEmitted } from '../../../machines/notifications/emitted';
import { useEmittingActors } from '../state/hooks';
import { ToastHost, showToast } from './toast';

export function NoticeBridge() {
  const sources = useEmittingActors();
  useEffect(() => {
    const show = (e: NoticeEmitted) => showToast(e);
    const subs = sources.map(([, ref]) => ref.on('notice', show));
    return () => subs.forEach((s) => s.unsubscribe());
  }, [sources]);
  return <ToastHost />;
}
