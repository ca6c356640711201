/**
 * Handlers of the metrics feature's device commands (src/protocol/metrics.ts; §7 "Health and metrics": get-metrics-info).
 */
import type { Handlers } from './registry';

export const metricsHandlers = {} satisfies Pick<Handlers, never>;
