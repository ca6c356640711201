/**
 * Handlers of the logs feature's device commands (src/protocol/logs.ts; §7 "Logs and remote control": log,
 * endLogProcess; ours: log-info for §3 Log info). `log` streams its lines as progress messages (LogBatch) and
 * answers when the log process ends (or `more`: a followed log is long-polled); the request's link closing
 * stops the link's logs; failures answer CommandError `not_found` (§8 "No log file found"),
 * `log_changed` (§8 "Log file modified or deleted") or `busy`.
 */
import { LINK_ERROR_CODES } from '../../protocol';
import { LOG_ERROR_CODES } from '../../protocol/logs';
import { LogSourceError } from '../logs';
import { CommandError } from './errors';
import type { Handlers } from './registry';

type LogProcess = 'log-info' | 'log' | 'endLogProcess';

/** A LogSourceError as a CommandError (other errors pass through: the dispatcher answers internal_error). */
export function toLogCommandError(err: unknown): unknown {
  if (!(err instanceof LogSourceError)) return err;
  const code =
    err.code === 'not_found'
      ? LINK_ERROR_CODES.notFound
      : err.code === 'busy'
        ? LINK_ERROR_CODES.busy
        : LOG_ERROR_CODES.changed;
  return new CommandError(code, err.message);
}

export const logHandlers = {
  'log-info': async (_payload, ctx) => ({ topics: await ctx.logs.topics() }),

  log: async (p, ctx, scope) => {
    // The link closing ends its logs at once (between two calls of a followed log, LOG_RESUME_MS does).
    const onClose = () => ctx.logs.stopLink(ctx.linkId);
    scope.signal?.addEventListener('abort', onClose, { once: true });
    try {
      const result = await ctx.logs.run(
        {
          uuid: p.uuid,
          topic: p.topic,
          subtopic: p.subtopic,
          count: p.count,
          follow: p.follow,
          simRate: p.sim_rate,
        },
        { browserId: ctx.browserId, linkId: ctx.linkId },
        (batch) => scope.progress(batch),
      );
      return { uuid: p.uuid, ...result };
    } catch (err) {
      throw toLogCommandError(err);
    } finally {
      scope.signal?.removeEventListener('abort', onClose);
    }
  },

  endLogProcess: async ({ uuid }, ctx) => ({ ended: ctx.logs.end(uuid, ctx.browserId) }),
} satisfies Pick<Handlers, LogProcess>;
