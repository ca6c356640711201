/**
 * Handlers of the metrics feature's device commands (src/protocol/metrics.ts; §7 "Health and metrics":
 * get-metrics-info; "Settings changes": change-save-metrics-info), over the device's history
 * (src/agent/metrics/). get-metrics-info sends its values as progress chunks, then answers the layout.
 * Refusals: CommandError 'bad_range' (to ≤ from) and 'too_many_samples' (METRICS_ERROR_CODES).
 */
import { MetricsError } from '../metrics';
import { CommandError } from './errors';
import type { Handlers } from './registry';

type MetricsProcess = 'get-metrics-info' | 'change-save-metrics-info';

/** Length of the default range (no `from`), ms: one hour. */
export const DEFAULT_RANGE_MS = 3_600_000;

/** A MetricsError as the CommandError the caller gets (others pass through: internal_error). */
function coded(err: unknown): unknown {
  return err instanceof MetricsError ? new CommandError(err.code, err.message) : err;
}

export const metricsHandlers = {
  'get-metrics-info': async (payload, ctx, scope) => {
    await ctx.metrics.ready;
    const to = payload.to ?? Date.now();
    const from = payload.from ?? to - DEFAULT_RANGE_MS;
    let answer;
    try {
      answer = ctx.metrics.query(from, to, payload.maxPoints);
    } catch (err) {
      throw coded(err);
    }
    const { chunks, ...layout } = answer;
    for (const chunk of chunks) scope.progress(chunk);
    return { ...layout, chunks: chunks.length };
  },

  'change-save-metrics-info': async (payload, ctx) => {
    try {
      return { settings: await ctx.metrics.setSettings(payload) };
    } catch (err) {
      throw coded(err);
    }
  },
} satisfies Pick<Handlers, MetricsProcess>;
