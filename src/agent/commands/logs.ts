/**
 * Handlers of the logs feature's device commands (src/protocol/logs.ts; §7 "Logs and remote control": log, endLogProcess).
 */
import type { Handlers } from './registry';

export const logHandlers = {} satisfies Pick<Handlers, never>;
