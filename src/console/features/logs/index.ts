/**
 * The logs feature (§7 "Logs and remote control": log, endLogProcess).
 */
import type { ConsoleFeature } from '../feature';

export const logs: ConsoleFeature = { name: 'logs' };
