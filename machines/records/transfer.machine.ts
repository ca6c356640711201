/**
 * One transfer of a recording between the console and a device (issue 16 §2 records; §9 "Recorded video codec
 * vp8"): an upload (records-save-begin/chunk/finish) or a download (records-read, for Play and Download), in
 * chunks, with progress and cancel. Pure: the work is the provided callback actor `runTransfer`
 * (src/console/features/records/actors.ts) that reports `transfer.progress` (bytes done / total),
 * `transfer.done` (a Blob for downloads) or `transfer.failed`; stopping it (cancel) aborts the calls.
 */
import { assign, fromCallback, setup } from 'xstate';

export interface TransferInput {
  deviceId: string;
  direction: 'upload' | 'download';
  /** The recording's name on the device. */
  name: string;
  /** Upload: the file to send. */
  blob?: Blob;
  /** Upload: camera label kept with it. */
  camera?: string | null;
}

export type TransferReport =
  | { type: 'transfer.progress'; done: number; total: number }
  | { type: 'transfer.done'; blob: Blob | null }
  | { type: 'transfer.failed'; error: string };

export type TransferEvent = TransferReport | { type: 'cancel' } | { type: 'retry' };

export interface TransferContext {
  input: TransferInput;
  /** Bytes moved so far / in all (0 until known). */
  done: number;
  total: number;
  /** The downloaded file (download, done). */
  blob: Blob | null;
  error: string | null;
}

export const transferMachine = setup({
  types: {
    input: {} as TransferInput,
    context: {} as TransferContext,
    events: {} as TransferEvent,
  },
  actors: {
    runTransfer: fromCallback<TransferEvent, TransferInput>(({ sendBack }) => {
      sendBack({ type: 'transfer.failed', error: 'records: runTransfer is not provided' });
    }),
  },
}).createMachine({
  id: 'recordTransfer',
  context: ({ input }) => ({ input, done: 0, total: input.blob?.size ?? 0, blob: null, error: null }),
  initial: 'running',
  states: {
    running: {
      invoke: { id: 'runTransfer', src: 'runTransfer', input: ({ context }) => context.input },
      on: {
        'transfer.progress': {
          actions: assign({ done: ({ event }) => event.done, total: ({ event }) => event.total }),
        },
        'transfer.done': { target: 'done', actions: assign({ blob: ({ event }) => event.blob }) },
        'transfer.failed': { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        cancel: 'cancelled',
      },
    },
    done: { type: 'final' },
    failed: { on: { retry: { target: 'running', actions: assign({ done: 0, error: null }) } } },
    cancelled: { type: 'final' },
  },
});
