/**
 * Shows every `notice` emitted by the long-lived actors (auth, signal, devicesTable, devicePool, streams)
 * and by each device connection actor as a Mantine notification (§2 toasts: title, message, variant).
 * Renders nothing.
 */
import { useEffect } from 'react';
import { notifications } from '@mantine/notifications';
import type { NoticeEmitted } from '../../../machines/emitted';
import {
  useAuthRef,
  useAllConnectionRefs,
  useDevicePoolRef,
  useDevicesTableRef,
  useSignalRef,
  useStreamsRef,
} from '../state/hooks';
import { noticeColour } from './notices';

/** The minimal actor surface this bridge needs: `on('notice', handler)`. */
interface NoticeSource {
  on(type: 'notice', handler: (event: NoticeEmitted) => void): { unsubscribe(): void };
}

export function NoticeBridge() {
  const auth = useAuthRef();
  const signal = useSignalRef();
  const table = useDevicesTableRef();
  const pool = useDevicePoolRef();
  const streams = useStreamsRef();
  const connections = useAllConnectionRefs();
  useEffect(() => {
    const show = (e: NoticeEmitted) =>
      notifications.show({ title: e.title, message: e.message, color: noticeColour(e.variant) });
    const sources = [auth, signal, table, pool, streams, ...connections] as unknown as NoticeSource[];
    const subs = sources.map((ref) => ref.on('notice', show));
    return () => subs.forEach((s) => s.unsubscribe());
  }, [auth, signal, table, pool, streams, connections]);
  return null;
}
