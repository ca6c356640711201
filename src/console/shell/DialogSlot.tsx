/**
 * The root shell's generic dialog (§2): shows `dialog` emissions (machines/emitted.ts) one at a time,
 * e.g. the confirm-mail dialog of login status 1 (§4) and "Device is not reachable" (§8). Listens to the
 * long-lived actors and to every device connection actor.
 */
import { Suspense, lazy, useEffect, useRef, useState } from 'react';
import type { DialogEmitted } from '../../../machines/notifications/emitted';
import { useAuthRef, useEmittingActors, type EmittingActor } from '../state/hooks';
import { enqueueDialog, type QueuedDialog } from './notices';

const DialogView = lazy(() => import('./DialogView'));

export function DialogSlot() {
  const auth = useAuthRef();
  const sources = useEmittingActors();
  const [queue, setQueue] = useState<QueuedDialog[]>([]);
  const nextKey = useRef(1);

  useEffect(() => {
    const subs = sources.map(([source, ref]: [string, EmittingActor]) =>
      ref.on('dialog', (e: DialogEmitted) =>
        setQueue((q) =>
          enqueueDialog(q, { key: nextKey.current++, source, title: e.title, message: e.message }),
        ),
      ),
    );
    return () => subs.forEach((s) => s.unsubscribe());
  }, [sources]);

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
