/**
 * Root-shell slots of §2: the upload-notification button (§2 "Upload notification": a floating button
 * while uploads run; a later issue) and the stream modal (§2 "Stream modal"). Both render nothing until
 * there is something to show; the stream modal's code loads when a stream is first shown in it.
 */
import { Suspense, lazy } from 'react';
import { useModalFacts } from '../state/hooks';

const StreamModal = lazy(() => import('../features/cameras/screens/StreamModal'));

/** §2 Upload notification: no uploads exist yet (a later issue adds the uploads actor). */
export function UploadNotificationSlot() {
  return null;
}

/** §2 Stream modal: the camera grid actor's `modal` region (open, minimised) decides what shows. */
export function StreamModalSlot() {
  const { mode } = useModalFacts();
  if (mode === 'closed') return null;
  return (
    <Suspense fallback={null}>
      <StreamModal />
    </Suspense>
  );
}
