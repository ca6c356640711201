/**
 * Root-shell slots of §2 for signed-in users: what the features add (`signedInSlots`: the stream modal of
 * features/cameras, the upload-notification button and dialog of features/uploads). Each renders nothing
 * until there is something to show.
 */
import { Suspense } from 'react';
import { FEATURES } from '../system';
import { FeatureReady } from './FeatureReady';

/** The features' signed-in slots (e.g. §2 Stream modal, features/cameras). */
export function FeatureSlots() {
  return (
    <>
      {FEATURES.flatMap((f) =>
        (f.signedInSlots ?? []).map((Slot, i) =>
          f.loadActors ? (
            <FeatureReady key={`${f.name}-${i}`} feature={f.name} fallback={null}>
              <Slot />
            </FeatureReady>
          ) : (
            <Slot key={`${f.name}-${i}`} />
          ),
        ),
      )}
    </>
  );
}

/** The features' header slots (e.g. quick search), each in its own chunk once its feature's actors run. */
export function HeaderSlots() {
  return (
    <>
      {FEATURES.flatMap((f) =>
        (f.headerSlots ?? []).map((Slot, i) => (
          <Suspense key={`${f.name}-${i}`} fallback={null}>
            {f.loadActors ? (
              <FeatureReady feature={f.name} fallback={null}>
                <Slot />
              </FeatureReady>
            ) : (
              <Slot />
            )}
          </Suspense>
        )),
      )}
    </>
  );
}
