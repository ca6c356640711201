/**
 * Liveness and readiness of the server (issue 15 "Health and readiness endpoints say what is down"), for a load
 * balancer, a container orchestrator or an operator; no sign-in.
 *   GET /api/health → 200 { status: 'ok', uptime_s }: the process is up and answers HTTP (liveness).
 *   GET /api/ready  → 200 ReadyAnswer when the database answers and signalling runs; otherwise 503 with the same
 *                     shape plus `code: 'Not_ready'` and a `message` naming what is down (readiness).
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** Liveness: seconds since the server process started. */
export const HealthAnswer = z.object({
  status: z.literal('ok'),
  uptime_s: z.number().min(0),
});

/** State of one part the server needs: 'up' or 'down', with why when down. */
export const PartState = z.object({
  status: z.enum(['up', 'down']),
  /** Why it is down (e.g. "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:5432"); absent when up. */
  reason: z.string().optional(),
});

/** Readiness: each part, and whether all are up (answered 200) or not (answered 503). */
export const ReadyAnswer = z.object({
  ready: z.boolean(),
  database: PartState,
  signalling: PartState,
  /** 'Not_ready' with a 503. */
  code: z.string().optional(),
  /** What is down, in one sentence, with a 503. */
  message: z.string().optional(),
});
export type ReadyAnswer = z.infer<typeof ReadyAnswer>;

/** The 503 readiness code. */
export const NOT_READY = 'Not_ready';

export const serviceRoutes = defineRoutes({
  'service.health': {
    method: 'GET',
    path: '/api/health',
    auth: 'none',
    summary: 'Liveness: the server process is up',
    answer: HealthAnswer,
  },
  'service.ready': {
    method: 'GET',
    path: '/api/ready',
    auth: 'none',
    summary: 'Readiness: database reachable and signalling running (503 Not_ready names what is down)',
    answer: ReadyAnswer,
  },
});
