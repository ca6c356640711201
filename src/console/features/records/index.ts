/**
 * The records feature (issue 16 §2 records; §2 /control-panel/records; §8 "Records: device does not exist or not connected for removal": recordings kept on devices).
 */
import type { ConsoleFeature } from '../feature';

export const records: ConsoleFeature = { name: 'records' };
