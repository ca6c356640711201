/**
 * The remote desktop's place in the root shell (§2 "a stream modal"): once the feature's actors run and a
 * desktop is open, its modal (loaded on first use).
 */
import { Suspense, lazy } from 'react';
import { useSelector } from '@xstate/react';
import { useRemoteDesktopLoaded, useRemoteDesktopRef } from '../selectors';

const RemoteDesktopModal = lazy(() => import('./RemoteDesktopModal'));

export function RemoteDesktopSlot() {
  return useRemoteDesktopLoaded() ? <OpenDesktop /> : null;
}

function OpenDesktop() {
  const open = useSelector(useRemoteDesktopRef(), (s) => s.hasTag('open'));
  if (!open) return null;
  return (
    <Suspense fallback={null}>
      <RemoteDesktopModal />
    </Suspense>
  );
}
