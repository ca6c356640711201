/**
 * One scan of a device folder — §7 "Storage" get-occupied-storage-of-directory (computed asynchronously, with
 * progress), spawned by the storage actor (storage.machine.ts) per scan.
 *
 * `scanning` runs the `scan` actor (provided: the device command with its progress), which sends back
 * `scan.progress` { progress } as the device walks, then `scan.done` { usage } or `scan.failed` { error }.
 * `scan.cancel` goes to `canceling`: the `cancelScan` actor asks the device to stop (cancel-storage-scan); the
 * scan ends `canceled` whatever the answer. Final states: done (usage), failed (error), canceled.
 * Tags: 'running' while scanning or canceling.
 */
import { assign, fromCallback, fromPromise, setup } from 'xstate';
import type { DirectoryUsage, ScanProgress } from '../../src/protocol/storage';

export interface DirectoryScanInput {
  deviceId: string;
  /** Absolute path of the folder. */
  path: string;
  /** The scan's id (cancel-storage-scan). */
  scanId: string;
  /** How many largest child folders to ask for. */
  top: number;
}

/** A failure as the link reports it: its code and message. */
export interface ScanFailure {
  code: string;
  message: string;
}

export interface DirectoryScanContext extends DirectoryScanInput {
  /** What the device has walked so far (null before its first progress message). */
  progress: ScanProgress | null;
  usage: DirectoryUsage | null;
  error: ScanFailure | null;
}

export type DirectoryScanEvent =
  | { type: 'scan.progress'; progress: ScanProgress }
  | { type: 'scan.done'; usage: DirectoryUsage }
  | { type: 'scan.failed'; error: ScanFailure }
  | { type: 'scan.cancel' };

const notProvided = (name: string): never => {
  throw new Error(`directoryScan: actor '${name}' is not provided`);
};

export const directoryScanActors = {
  /** get-occupied-storage-of-directory: sends back scan.progress…, then scan.done or scan.failed. */
  scan: fromCallback<DirectoryScanEvent, DirectoryScanInput>(() => notProvided('scan')),
  /** cancel-storage-scan. */
  cancelScan: fromPromise<unknown, DirectoryScanInput>(async () => notProvided('cancelScan')),
};

/** Reads a failure's code and message (DeviceCommandError and plain errors alike). */
export function scanFailure(error: unknown): ScanFailure {
  if (typeof error === 'object' && error !== null) {
    const e = error as { code?: unknown; message?: unknown };
    return {
      code: typeof e.code === 'string' ? e.code : 'internal_error',
      message: typeof e.message === 'string' ? e.message : String(error),
    };
  }
  return { code: 'internal_error', message: String(error) };
}

export const directoryScanMachine = setup({
  types: {
    context: {} as DirectoryScanContext,
    events: {} as DirectoryScanEvent,
    input: {} as DirectoryScanInput,
  },
  actors: directoryScanActors,
  guards: {
    wasCanceled: ({ event }) => event.type === 'scan.failed' && event.error.code === 'canceled',
  },
}).createMachine({
  id: 'directoryScan',
  context: ({ input }) => ({ ...input, progress: null, usage: null, error: null }),
  initial: 'scanning',
  states: {
    scanning: {
      tags: ['running'],
      invoke: {
        id: 'scan',
        src: 'scan',
        input: ({ context }) => ({
          deviceId: context.deviceId,
          path: context.path,
          scanId: context.scanId,
          top: context.top,
        }),
      },
      on: {
        'scan.progress': { actions: assign({ progress: ({ event }) => event.progress }) },
        'scan.done': {
          target: 'done',
          actions: assign({ usage: ({ event }) => event.usage, progress: ({ event }) => event.usage }),
        },
        'scan.failed': [
          { guard: 'wasCanceled', target: 'canceled' },
          { target: 'failed', actions: assign({ error: ({ event }) => event.error }) },
        ],
        'scan.cancel': { target: 'canceling' },
      },
    },
    canceling: {
      tags: ['running'],
      invoke: {
        id: 'cancelScan',
        src: 'cancelScan',
        input: ({ context }) => ({
          deviceId: context.deviceId,
          path: context.path,
          scanId: context.scanId,
          top: context.top,
        }),
        onDone: { target: 'canceled' },
        onError: { target: 'canceled' },
      },
    },
    done: { type: 'final' },
    failed: { type: 'final' },
    canceled: { type: 'final' },
  },
});
