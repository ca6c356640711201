/**
 * Shows every `notice` emitted by the long-lived actors (auth, signal, devicesTable, devicePool, streams)
 * and by each device connection actor as a Mantine notification (§2 toasts: title, message, variant).
 * Renders the toast container once the first notice arrives.
 */
import { useEffect } from 'react';
import type { NoticeEmitted } from '../../../machines/emitted';
import {
  useAuthRef,
  useAllConnectionRefs,
  useDevicePoolRef,
  useDevicesTableRef,
  useSignalRef,
  useStreamsRef,
} from '../state/hooks';
import { ToastHost, showToast } from './toast';

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
    const show = (e: NoticeEmitted) => showToast(e);
    const sources = [auth, signal, table, pool, streams, ...connections] as unknown as NoticeSource[];
    const subs = sources.map((ref) => ref.on('notice', show));
    return () => subs.forEach((s) => s.unsubscribe());
  }, [auth, signal, table, pool, streams, connections]);
  return <ToastHost />;
}
