/**
 * The metrics feature (§7 "Health and metrics": get-metrics-info).
 */
import type { ConsoleFeature } from '../feature';

export const metrics: ConsoleFeature = { name: 'metrics' };
