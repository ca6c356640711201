/**
 * The records feature's contract (issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not exist or not connected for removal": recordings kept on devices).
 * Shapes the spec does not give ("not shown") are ours, documented field by field with units.
 */
import { defineCommands } from './command';

export const recordCommands = defineCommands({});
