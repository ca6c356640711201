/**
 * Hooks the use-case screens share: the camera still the line is drawn on (api.ts cameraStill), and a
 * window reader (the data machine for counts or people over a window, re-read every `pollMs`).
 */
import { useActorRef } from '@xstate/react';
import { useEffect, useState } from 'react';
import type { UseCase } from '../../../../protocol/analytics';
import { cameraStill, dataLogic, type WindowRead } from '../api';
import { useDataView, type DataView } from '../selectors';
import type { WindowQuery } from '../views';

export type Still = { state: 'loading' | 'ready' | 'failed'; image: string | null; error: string | null };

/** A still of the device's camera (loading / ready / failed); nothing is asked while `enabled` is false. */
export function useCameraStill(deviceId: string, cameraId: string, enabled = true): Still {
  const [still, setStill] = useState<Still>({ state: 'loading', image: null, error: null });
  useEffect(() => {
    if (!enabled || !deviceId || !cameraId) return;
    let live = true;
    setStill({ state: 'loading', image: null, error: null });
    cameraStill(deviceId, cameraId).then(
      (image) => live && setStill({ state: 'ready', image, error: null }),
      (err: unknown) =>
        live &&
        setStill({ state: 'failed', image: null, error: err instanceof Error ? err.message : String(err) }),
    );
    return () => {
      live = false;
    };
  }, [enabled, deviceId, cameraId]);
  return still;
}

/**
 * Reads `kind` for the shown use case over `window` (or live from its start to each read), again every
 * `pollMs`; cleared when no use case is shown. The reader ref (data.refresh) and its view.
 */
export function useWindowReader<A>(
  kind: 'counts' | 'people',
  shown: UseCase | null,
  window: WindowQuery,
  pollMs: number,
  live = false,
) {
  const reader = useActorRef(dataLogic(kind), { input: { pollMs } });
  const data: DataView<A> = useDataView<A>(reader);
  const windowKey = JSON.stringify(window);
  useEffect(() => {
    if (!shown) {
      reader.send({ type: 'data.clear' });
      return;
    }
    const read: WindowRead = {
      id: shown.id,
      window: JSON.parse(windowKey) as WindowQuery,
      ...(live ? { live: shown } : {}),
    };
    reader.send({ type: 'data.query', query: read });
  }, [reader, shown, windowKey, live]);
  return { reader, data, windowKey };
}
