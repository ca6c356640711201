/**
 * Liveness and readiness (issue 15 "Health and readiness endpoints say what is down"; src/protocol/service.ts):
 *   GET /api/health → 200 { status: 'ok', uptime_s }
 *   GET /api/ready  → 200 { ready: true, database, signalling } | 503 { ready: false, …, code: 'Not_ready', message }
 * Neither needs a sign-in nor counts against a rate limit; /api/ready never answers 500 when the database is down.
 */
import { NOT_READY, type ReadyAnswer, type serviceRoutes } from '../../protocol/service';
import type { ServerContext } from '../context';
import type { HandlersOf } from './register';

const processStart = Date.now();

/** Readiness when the server was built without a Readiness (never in `startServer`): database unknown. */
function readinessOf(ctx: ServerContext) {
  return ctx.readiness ?? null;
}

export const serviceHandlers: HandlersOf<typeof serviceRoutes> = (ctx) => ({
  'service.health': async () => ({
    status: 'ok' as const,
    uptime_s: Math.round((Date.now() - (readinessOf(ctx)?.startedAt ?? processStart)) / 1000),
  }),

  'service.ready': async (_input, _request, reply) => {
    const readiness = readinessOf(ctx);
    const database = readiness
      ? await readiness.database()
      : { up: false, reason: 'the server has no readiness check' };
    const signalling = readiness?.signalling() ?? false;
    const down = [
      ...(database.up ? [] : ['the database is unavailable']),
      ...(signalling ? [] : ['signalling is not running']),
    ];
    const answer: ReadyAnswer = {
      ready: down.length === 0,
      database: database.up ? { status: 'up' } : { status: 'down', reason: database.reason ?? 'no answer' },
      signalling: signalling ? { status: 'up' } : { status: 'down', reason: 'not running' },
    };
    if (down.length === 0) return answer;
    reply.code(503).header('retry-after', '2');
    return { ...answer, code: NOT_READY, message: `Not ready: ${down.join('; ')}.` };
  },
});
