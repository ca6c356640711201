/** The §2 upload notification as a root-shell slot: its code loads with the first upload. */
import { Suspense, lazy } from 'react';
import { useSelector } from '@xstate/react';
import type { AnyActorRef } from 'xstate';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { useSystem } from '../../shell/SystemProvider';

const UploadNotification = lazy(() => import('./screens/UploadNotification'));

export function UploadNotificationSlot() {
  const system = useSystem();
  const uploads = system.system.get(SYSTEM_IDS.uploads) as AnyActorRef;
  const any = useSelector(
    uploads,
    (s: { context: { order: readonly string[]; results: readonly unknown[] } }) =>
      s.context.order.length > 0 || s.context.results.length > 0,
  );
  if (!any) return null;
  return (
    <Suspense fallback={null}>
      <UploadNotification />
    </Suspense>
  );
}
