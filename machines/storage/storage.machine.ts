/**
 * A device's storage — §7 "Storage" (get-total-storage-info, get-occupied-storage-of-directory, lists of the
 * three image kinds, delete of product data); §3 Storage item. Long-lived (systemId 'storage'), one device
 * shown at a time (the device page's Storage tab).
 *
 * - `storage.open` { deviceId } loads the overview (`loadOverview` provided: totals, the three image lists
 *   and the product data folders); `storage.refresh` loads it again. A failed load keeps `loadError`.
 * - `storage.scan` { path } spawns a directoryScan machine (its ref in `scans`, newest first, at most
 *   SCANS_KEPT; finished ones beyond that are dropped). `storage.cancelScan` { scanId } forwards scan.cancel.
 * - Delete of product data asks first: `storage.delete` { path } → confirming; `storage.delete.confirm` →
 *   deleting (`deleteProductData` provided) → the overview is loaded again, `lastDeleted` says what was freed;
 *   `storage.delete.cancel` (or closing the dialog) goes back without deleting; a failure keeps `deleteError`.
 * - `storage.open` of another device, `storage.close` and `storage.reset` (sign-out) cancel running scans.
 * Tags: 'loading' (overview), 'confirming', 'deleting'.
 */
import { assign, enqueueActions, fromPromise, raise, setup, type ActorRefFrom } from 'xstate';
import type { ImageList, ProductData, TotalStorageInfo } from '../../src/protocol/storage';
import { directoryScanMachine, scanFailure, type ScanFailure } from './directoryScan.machine';

/** Scans kept in `scans` (running ones are always kept). */
export const SCANS_KEPT = 4;
/** Largest child folders asked for per scan. */
export const SCAN_TOP = 12;

/** What the tab shows before any scan. */
export interface StorageOverview {
  totals: TotalStorageInfo;
  /** The three image kinds, in IMAGE_KINDS order. */
  images: ImageList[];
  productData: ProductData;
}

export interface DeletedData {
  path: string;
  freed: number;
  files: number;
}

export type ScanRef = ActorRefFrom<typeof directoryScanMachine>;

export interface StorageContext {
  deviceId: string | null;
  overview: StorageOverview | null;
  loadError: ScanFailure | null;
  scans: ScanRef[];
  /** Counter for scan ids (with the device id and a random part from `newScanId`). */
  scanCount: number;
  /** The path a delete waits confirmation for, or runs on. */
  pendingDelete: string | null;
  deleteError: ScanFailure | null;
  lastDeleted: DeletedData | null;
}

export type StorageEvent =
  | { type: 'storage.open'; deviceId: string }
  | { type: 'storage.refresh' }
  | { type: 'storage.scan'; path: string }
  | { type: 'storage.cancelScan'; scanId: string }
  | { type: 'storage.delete'; path: string }
  | { type: 'storage.delete.confirm' }
  | { type: 'storage.delete.cancel' }
  | { type: 'storage.close' }
  | { type: 'storage.reset' };

const notProvided = (name: string): never => {
  throw new Error(`storage: actor '${name}' is not provided`);
};

export const storageActors = {
  /** get-total-storage-info, get-storage-images ×3, get-product-data. */
  loadOverview: fromPromise<StorageOverview, { deviceId: string }>(async () => notProvided('loadOverview')),
  /** delete-product-data { path, confirm: true }. */
  deleteProductData: fromPromise<DeletedData, { deviceId: string; path: string }>(async () =>
    notProvided('deleteProductData'),
  ),
  directoryScan: directoryScanMachine,
};

const EMPTY: StorageContext = {
  deviceId: null,
  overview: null,
  loadError: null,
  scans: [],
  scanCount: 0,
  pendingDelete: null,
  deleteError: null,
  lastDeleted: null,
};

const isRunning = (ref: ScanRef) => ref.getSnapshot().status === 'active';

export const storageMachine = setup({
  types: {
    context: {} as StorageContext,
    events: {} as StorageEvent,
  },
  actors: storageActors,
  actions: {
    /** Cancels every running scan and forgets the device's data. */
    clear: enqueueActions(({ context, enqueue }) => {
      for (const ref of context.scans) {
        if (isRunning(ref)) enqueue.sendTo(ref, { type: 'scan.cancel' });
      }
      enqueue.assign(EMPTY);
    }),
    target: assign(({ event }) => (event.type === 'storage.open' ? { deviceId: event.deviceId } : {})),
    startScan: assign(({ context, event, spawn }) => {
      if (event.type !== 'storage.scan' || !context.deviceId) return {};
      const scanCount = context.scanCount + 1;
      const scanId = `scan-${scanCount}-${context.deviceId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40)}`;
      const ref = spawn('directoryScan', {
        id: scanId,
        input: { deviceId: context.deviceId, path: event.path, scanId, top: SCAN_TOP },
      });
      const kept = [ref, ...context.scans].filter((r, i) => i < SCANS_KEPT || isRunning(r));
      return { scanCount, scans: kept };
    }),
    cancelScan: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'storage.cancelScan') return;
      const ref = context.scans.find((r) => r.id === event.scanId);
      if (ref && isRunning(ref)) enqueue.sendTo(ref, { type: 'scan.cancel' });
    }),
  },
  guards: {
    otherDevice: ({ context, event }) => event.type === 'storage.open' && event.deviceId !== context.deviceId,
  },
}).createMachine({
  id: 'storage',
  context: EMPTY,
  initial: 'closed',
  on: {
    'storage.reset': { target: '.closed', actions: 'clear' },
  },
  states: {
    closed: {
      on: { 'storage.open': { target: 'open', actions: 'target' } },
    },
    open: {
      type: 'parallel',
      on: {
        'storage.open': {
          guard: 'otherDevice',
          target: 'open',
          reenter: true,
          actions: ['clear', 'target'],
        },
        'storage.close': { target: 'closed', actions: 'clear' },
        'storage.scan': { actions: 'startScan' },
        'storage.cancelScan': { actions: 'cancelScan' },
      },
      states: {
        overview: {
          initial: 'loading',
          states: {
            loading: {
              tags: ['loading'],
              on: { 'storage.refresh': { target: 'loading', reenter: true } },
              invoke: {
                id: 'loadOverview',
                src: 'loadOverview',
                input: ({ context }) => ({ deviceId: context.deviceId! }),
                onDone: {
                  target: 'ready',
                  actions: assign({ overview: ({ event }) => event.output, loadError: null }),
                },
                onError: {
                  target: 'ready',
                  actions: assign({ loadError: ({ event }) => scanFailure(event.error) }),
                },
              },
            },
            ready: {
              on: { 'storage.refresh': { target: 'loading' } },
            },
          },
        },
        deletion: {
          initial: 'idle',
          states: {
            idle: {
              on: {
                'storage.delete': {
                  target: 'confirming',
                  actions: assign({ pendingDelete: ({ event }) => event.path, deleteError: null }),
                },
              },
            },
            confirming: {
              tags: ['confirming'],
              on: {
                'storage.delete.confirm': { target: 'deleting' },
                'storage.delete.cancel': { target: 'idle', actions: assign({ pendingDelete: null }) },
              },
            },
            deleting: {
              tags: ['deleting'],
              invoke: {
                id: 'deleteProductData',
                src: 'deleteProductData',
                input: ({ context }) => ({ deviceId: context.deviceId!, path: context.pendingDelete! }),
                // The overview is loaded again: what was freed shows in the totals.
                onDone: {
                  target: 'idle',
                  actions: [
                    assign({
                      lastDeleted: ({ event }) => event.output,
                      pendingDelete: null,
                      deleteError: null,
                    }),
                    raise({ type: 'storage.refresh' }),
                  ],
                },
                onError: {
                  target: 'idle',
                  actions: assign({
                    deleteError: ({ event }) => scanFailure(event.error),
                    pendingDelete: null,
                  }),
                },
              },
            },
          },
        },
      },
    },
  },
});
