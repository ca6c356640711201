/**
 * Handlers of the storage feature's device commands (src/protocol/storage.ts; §7 "Storage": get-occupied-storage-of-directory, get-total-storage-info, lists of the three image kinds, delete of product data).
 */
import type { Handlers } from './registry';

export const storageHandlers = {} satisfies Pick<Handlers, never>;
