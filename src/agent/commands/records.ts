/**
 * Handlers of the records feature's device commands (src/protocol/records.ts; issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not exist or not connected for removal": recordings kept on devices).
 */
import type { Handlers } from './registry';

export const recordHandlers = {} satisfies Pick<Handlers, never>;
