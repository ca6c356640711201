/**
 * Throttles on the auth routes (issue 15 "Throttling per IP and globally as well as per e-mail"; OWASP ASVS
 * 2.2.1): several counters on one route, each checked in `onRequest` — before the body is parsed, the caller
 * authenticated or a password hashed — so a flood is refused cheaply. Counters live in @fastify/rate-limit's
 * store (`app.createRateLimit`; ../rateLimitStore.ts: in PostgreSQL, shared by every server instance); the
 * plugin's own per-route `config.rateLimit` runs only one counter per request, so the (address, e-mail) counter
 * stays there and these are added next to it.
 *
 * A refused request answers 429 `{ code: 'Rate_limited', message }` with `Retry-After` (seconds).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import { API_ERROR_CODES } from '../../protocol';
import { HttpError } from '../errors';

/** One counter: at most `max` requests per `windowMs` for each key. */
export interface Throttle {
  /** Names the counter in the store's keys (two throttles never share a count). */
  name: string;
  max: number;
  windowMs: number;
  /** The counted key: the client address, or one constant for a global counter. */
  key: (request: FastifyRequest) => string;
}

/** Counts per client address (`request.ip`; behind a proxy, the proxy's address unless trustProxy is set). */
export const byAddress = (request: FastifyRequest): string => request.ip;
/** One count for the whole server. */
export const globally = (): string => '*';

/** The 429 answer: `Too many attempts. Try again in N seconds.` */
export function tooManyAttempts(retryAfterS: number): HttpError {
  const s = Math.max(1, retryAfterS);
  return new HttpError(
    429,
    API_ERROR_CODES.rateLimited,
    `Too many attempts. Try again in ${s} second${s === 1 ? '' : 's'}.`,
  );
}

/**
 * An onRequest hook that counts the request in every throttle and refuses it (429, Retry-After) when any
 * count is over its maximum. Every counter is incremented, so a refused request still counts globally.
 */
export function throttleHook(app: FastifyInstance, throttles: Throttle[]): onRequestAsyncHookHandler {
  const limiters = throttles.map((t) => ({
    t,
    check: app.createRateLimit({
      max: t.max,
      timeWindow: t.windowMs,
      keyGenerator: (request) => `throttle:${t.name}:${t.key(request)}`,
    }),
  }));
  return async (request: FastifyRequest, reply: FastifyReply) => {
    // The counters are counted together: each is one statement in PostgreSQL (../rateLimitStore.ts), so the
    // hook waits one round trip, not one per counter.
    const results = await Promise.all(limiters.map(({ check }) => check(request)));
    let retryAfterS = 0;
    for (const result of results) {
      if (!result.isAllowed && result.isExceeded) retryAfterS = Math.max(retryAfterS, result.ttlInSeconds);
    }
    if (retryAfterS > 0) {
      void reply.header('retry-after', String(retryAfterS));
      throw tooManyAttempts(retryAfterS);
    }
  };
}
