/**
 * The storage feature (§7 "Storage": get-occupied-storage-of-directory, get-total-storage-info, lists of the three image kinds, delete of product data).
 */
import type { ConsoleFeature } from '../feature';

export const storage: ConsoleFeature = { name: 'storage' };
