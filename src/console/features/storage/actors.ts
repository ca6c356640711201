/**
 * The storage feature's side effects (machines/storage/*.machine.ts): the overview (get-total-storage-info,
 * get-storage-images × 3, get-product-data), a scan with its progress (get-occupied-storage-of-directory) and
 * its cancel (cancel-storage-scan), and delete-product-data. Loaded in its own chunk after sign-in
 * (ConsoleFeature.loadActors).
 */
import { fromCallback, fromPromise } from 'xstate';
import {
  directoryScanMachine,
  scanFailure,
  type DirectoryScanEvent,
  type DirectoryScanInput,
} from '../../../../machines/storage/directoryScan.machine';
import { storageMachine } from '../../../../machines/storage/storage.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { storageCommands } from './api';

export function storageActors({ peerLink }: Platform): FeatureActor[] {
  const commands = storageCommands(peerLink.callDevice.bind(peerLink));

  const directoryScan = directoryScanMachine.provide({
    actors: {
      scan: fromCallback<DirectoryScanEvent, DirectoryScanInput>(({ input, sendBack }) => {
        const abort = new AbortController();
        commands
          .scan(
            input.deviceId,
            input,
            (progress) => sendBack({ type: 'scan.progress', progress }),
            abort.signal,
          )
          .then(
            (usage) => sendBack({ type: 'scan.done', usage }),
            (error: unknown) => {
              if (!abort.signal.aborted) sendBack({ type: 'scan.failed', error: scanFailure(error) });
            },
          );
        return () => abort.abort();
      }),
      cancelScan: fromPromise(async ({ input }) => commands.cancelScan(input.deviceId, input.scanId)),
    },
  });

  const storage = storageMachine.provide({
    actors: {
      loadOverview: fromPromise(async ({ input }) => commands.overview(input.deviceId)),
      deleteProductData: fromPromise(async ({ input }) =>
        commands.deleteProductData(input.deviceId, input.path),
      ),
      directoryScan,
    },
  });

  return [
    featureActor({
      systemId: SYSTEM_IDS.storage,
      logic: storage,
      onSignOut: [{ type: 'storage.reset' }],
    }),
  ];
}
