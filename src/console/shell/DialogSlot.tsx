/**
 * The root shell's generic dialog (§2): shows the notifications actor's first queued dialog, e.g. the
 * confirm-mail dialog of login status 1 (§4) and "Device is not reachable" (§8). OK closes it there.
 */
import { Suspense, lazy } from 'react';
import { useNotificationsRef, useShownDialog } from './notifications';

const DialogView = lazy(() => import('./DialogView'));

export function DialogSlot() {
  const notifications = useNotificationsRef();
  const dialog = useShownDialog();
  if (!dialog) return null;
  return (
    <Suspense fallback={null}>
      <DialogView
        key={dialog.id}
        title={dialog.title}
        message={dialog.message}
        onClose={() => notifications.send({ type: 'dialog.close' })}
      />
    </Suspense>
  );
}
