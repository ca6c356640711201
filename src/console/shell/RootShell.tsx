/**
 * The root shell of §2: the progress bar, the routed view, the upload-notification button, the stream
 * modal and the generic dialog; toasts (ToastSlot) and the dialog (DialogSlot) render the notifications actor.
 * The upload button and the stream modal exist for signed-in users only and load lazily with Mantine
 * (SignedInSlots), so the signed-out path ships no Mantine JavaScript.
 */
import { Suspense, lazy } from 'react';
import { Outlet } from 'react-router-dom';
import { useSession } from '../features/accounts/selectors';
import { DialogSlot } from './DialogSlot';
import { ToastSlot } from './ToastSlot';
import { ProgressBar } from './ProgressBar';

const SignedInSlots = lazy(() => import('./SignedInSlots'));

export function RootShell() {
  const { signedIn } = useSession();
  return (
    <>
      <ProgressBar />
      <ToastSlot />
      <Outlet />
      {signedIn && (
        <Suspense fallback={null}>
          <SignedInSlots />
        </Suspense>
      )}
      <DialogSlot />
    </>
  );
}
