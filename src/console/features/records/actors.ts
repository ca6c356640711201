/**
 * The records feature's actors: the records screen machine (systemId 'records') with its device calls, and the
 * transfer actor used by the screen's Play / Download / Upload and by saveRecordingToDevice.
 */
import { fromCallback, fromPromise } from 'xstate';
import { recordsMachine } from '../../../../machines/records/records.machine';
import {
  transferMachine,
  type TransferEvent,
  type TransferInput,
} from '../../../../machines/records/transfer.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';
import { recordCommands, type RecordCommands } from './api';

let commands: RecordCommands | null = null;

/** The device calls, once the feature's actors have started (after sign-in). */
export function recordsApi(): RecordCommands {
  if (!commands) throw new Error('records: not started');
  return commands;
}

const message = (e: unknown) => (e instanceof Error ? e.message : String(e));

/** runTransfer over the given commands: progress, done (download: the Blob), failed; stop aborts. */
export function transferActor(api: () => RecordCommands) {
  return fromCallback<TransferEvent, TransferInput>(({ input, sendBack }) => {
    const abort = new AbortController();
    const progress = (done: number, total: number) => {
      if (!abort.signal.aborted) sendBack({ type: 'transfer.progress', done, total });
    };
    const work =
      input.direction === 'upload'
        ? api()
            .upload(input.deviceId, input.name, input.blob!, input.camera ?? null, progress, abort.signal)
            .then(() => null)
        : api().download(input.deviceId, input.name, progress, abort.signal);
    work.then(
      (blob) => !abort.signal.aborted && sendBack({ type: 'transfer.done', blob }),
      (e: unknown) => !abort.signal.aborted && sendBack({ type: 'transfer.failed', error: message(e) }),
    );
    return () => abort.abort();
  });
}

/** The transfer machine with its real actor. */
export const transferLogic = () =>
  transferMachine.provide({ actors: { runTransfer: transferActor(recordsApi) } });

export function recordsActors({ peerLink }: Platform): FeatureActor[] {
  commands = recordCommands(peerLink.callDevice.bind(peerLink));
  const logic = recordsMachine.provide({
    actors: {
      listRecords: fromPromise(({ input }) => recordsApi().list(input.deviceId)),
      removeRecord: fromPromise(({ input }) => recordsApi().remove(input.deviceId, input.name)),
    },
  });
  return [featureActor({ systemId: SYSTEM_IDS.records, logic, onSignOut: [{ type: 'records.reset' }] })];
}
