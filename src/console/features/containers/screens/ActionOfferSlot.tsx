/**
 * Root-shell slot (signed in) for the container actions' download offers (§4 "A 404 offers a download"; §8
 * "Environment not found, then a download offer"): one watcher per action actor; an action awaiting the
 * user's answer shows its offer dialog, whose code loads on first use.
 */
import { Suspense, lazy } from 'react';
import { useActionRefs, useActionView, type ContainerActionRef } from '../selectors';

const DownloadOfferDialog = lazy(() => import('./DownloadOfferDialog'));

export function ActionOfferSlot() {
  const refs = useActionRefs();
  return (
    <>
      {refs.map((ref) => (
        <OfferWatcher key={ref.id} actionRef={ref} />
      ))}
    </>
  );
}

function OfferWatcher({ actionRef }: { actionRef: ContainerActionRef }) {
  const view = useActionView(actionRef);
  if (!view?.awaitingConfirm) return null;
  return (
    <Suspense fallback={null}>
      <DownloadOfferDialog actionRef={actionRef} view={view} />
    </Suspense>
  );
}
