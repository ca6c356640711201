/**
 * §2 Stream modal slot of the root shell: the camera grid actor's `modal` region (open, minimised) decides
 * what shows; the modal's code loads when a stream is first shown in it.
 */
import { Suspense, lazy } from 'react';
import { useModalView } from '../selectors';

const StreamModal = lazy(() => import('./StreamModal'));

export function StreamModalSlot() {
  const { mode } = useModalView();
  if (mode === 'closed') return null;
  return (
    <Suspense fallback={null}>
      <StreamModal />
    </Suspense>
  );
}
