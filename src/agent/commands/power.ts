/**
 * Handlers of the power feature's device commands (src/protocol/power.ts; §7 "Client and settings": restartItself, restartDevice, shutDownDevice, force-shut-down).
 */
import type { Handlers } from './registry';

export const powerHandlers = {} satisfies Pick<Handlers, never>;
