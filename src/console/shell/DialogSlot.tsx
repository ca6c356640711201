/**
 * The root shell's generic dialog (§2): shows `dialog` emissions (machines/emitted.ts) one at a time,
 * e.g. the confirm-mail dialog of login status 1 (§4) and "Device is not reachable" (§8). Listens to the
 * long-lived actors and to every device connection actor.
 */
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { DialogEmitted } from '../../../machines/emitted';
import {
  useAuthRef,
  useAllConnectionRefs,
  useDevicePoolRef,
  useDevicesTableRef,
  useSignalRef,
  useStreamsRef,
} from '../state/hooks';
import { enqueueDialog, type QueuedDialog } from './notices';

const DialogView = lazy(() => import('./DialogView'));

interface DialogSource {
  on(type: 'dialog', handler: (event: DialogEmitted) => void): { unsubscribe(): void };
}

export function DialogSlot() {
  const auth = useAuthRef();
  const signal = useSignalRef();
  const table = useDevicesTableRef();
  const pool = useDevicePoolRef();
  const streams = useStreamsRef();
  const connections = useAllConnectionRefs();
  const [queue, setQueue] = useState<QueuedDialog[]>([]);
  const nextKey = useRef(1);

  useEffect(() => {
    const named: Array<[string, DialogSource]> = [
      ['auth', auth as unknown as DialogSource],
      ['signal', signal as unknown as DialogSource],
      ['devicesTable', table as unknown as DialogSource],
      ['devicePool', pool as unknown as DialogSource],
      ['streams', streams as unknown as DialogSource],
      ...connections.map((c): [string, DialogSource] => ['deviceConnection', c as unknown as DialogSource]),
    ];
    const subs = named.map(([source, ref]) =>
      ref.on('dialog', (e) =>
        setQueue((q) =>
          enqueueDialog(q, { key: nextKey.current++, source, title: e.title, message: e.message }),
        ),
      ),
    );
    return () => subs.forEach((s) => s.unsubscribe());
  }, [auth, signal, table, pool, streams, connections]);

  const current = queue[0];
  const close = () => {
    // The confirm-mail dialog belongs to the auth machine's confirmMail state (§4 status 1): close it there too.
    if (current?.source === 'auth' && auth.getSnapshot().matches({ signedOut: 'confirmMail' })) {
      auth.send({ type: 'auth.confirmMail.close' });
    }
    setQueue((q) => q.slice(1));
  };

  if (!current) return null;
  return (
    <Suspense fallback={null}>
      <DialogView key={current.key} title={current.title} message={current.message} onClose={close} />
    </Suspense>
  );
}
