/**
 * Handlers of the schedulers feature's device commands (src/protocol/schedulers.ts; spec §7
 * scheduling-calendar-operation, §4 step 4 / §7 start-scheduled-job): the work is src/agent/schedulers/.
 */
import { LINK_ERROR_CODES } from '../../protocol/link';
import { CommandError } from './errors';
import type { Handlers } from './registry';

export const schedulerHandlers = {
  'scheduling-calendar-operation': async (req, ctx) => {
    if (req.operation === 'delete') {
      if (!ctx.schedulers.remove(req.id))
        throw new CommandError(LINK_ERROR_CODES.notFound, `This device has no calendar ${req.id}`);
      return { calendars: ctx.schedulers.list() };
    }
    return { calendars: await ctx.schedulers.put(req.calendar) };
  },
  'start-scheduled-job': async ({ job_id }, ctx) => {
    try {
      return { job_id, started: await ctx.schedulers.startJob(job_id) };
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      throw new CommandError(
        message.startsWith('No calendar') ? LINK_ERROR_CODES.notFound : LINK_ERROR_CODES.inferenceEngineError,
        message,
      );
    }
  },
} satisfies Pick<Handlers, 'scheduling-calendar-operation' | 'start-scheduled-job'>;
