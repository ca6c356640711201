/**
 * Handlers of the storage feature's device commands (src/protocol/storage.ts; §7 "Storage":
 * get-occupied-storage-of-directory, get-total-storage-info, lists of the three image kinds, delete of
 * product data; ours: cancel-storage-scan, get-product-data). The work is the storage part's
 * (src/agent/storage/); its refusals become CommandErrors with the same code: 'not_found', 'busy'
 * (LINK_ERROR_CODES), 'not_directory', 'canceled', 'forbidden' (STORAGE_ERROR_CODES); an unreachable Docker
 * engine answers 'engine_unavailable'.
 */
import { StorageError } from '../storage/errors';
import { imageList } from '../storage/images';
import { toCommandError } from './containers';
import { CommandError } from './errors';
import type { Handlers } from './registry';

type StorageProcess =
  | 'get-total-storage-info'
  | 'get-occupied-storage-of-directory'
  | 'cancel-storage-scan'
  | 'get-storage-images'
  | 'get-product-data'
  | 'delete-product-data';

/** A storage failure as a CommandError (other errors pass through: the dispatcher answers internal_error). */
export function toStorageCommandError(err: unknown): unknown {
  return err instanceof StorageError ? new CommandError(err.code, err.message) : err;
}

async function storageCall<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw toStorageCommandError(err);
  }
}

export const storageHandlers = {
  'get-total-storage-info': async (_payload, ctx) => ctx.storage.totals(),

  'get-occupied-storage-of-directory': async ({ path, scan_id, top }, ctx, scope) =>
    storageCall(() =>
      ctx.storage.scan({
        scanId: scan_id,
        path,
        top,
        onProgress: (progress) => scope.progress(progress),
        // The request's own signal (aborted when its link closes), once the dispatcher gives one.
        signal: scope.signal,
      }),
    ),

  'cancel-storage-scan': async ({ scan_id }, ctx) => ({ canceled: ctx.storage.cancelScan(scan_id) }),

  'get-storage-images': async ({ kind }, ctx) => {
    let images;
    try {
      images = await ctx.containers.listImages();
    } catch (err) {
      throw toCommandError(err);
    }
    return imageList(kind, [...images, ...ctx.storage.extraImages()]);
  },

  'get-product-data': async (_payload, ctx) => storageCall(() => ctx.storage.productData()),

  'delete-product-data': async ({ path }, ctx) => storageCall(() => ctx.storage.deleteProductData(path)),
} satisfies Pick<Handlers, StorageProcess>;
