/**
 * Registers every route of the REST route table (src/protocol/routes.ts) on the Fastify app, each with its
 * handler from the route list (./index.ts): schemas for validation, serialisation and the OpenAPI document,
 * authentication by the route's `auth` (for 'admin' routes before the input is read), and the text rule
 * (src/protocol/route.ts `findTextProblem`) applied to every request's params, query and body before
 * validation — a NUL, an unpaired surrogate or an oversized string is a 400 `{ code, message }`, never a
 * database error.
 */
import type { RateLimitOptions } from '@fastify/rate-limit';
import type {
  FastifyReply,
  FastifyRequest,
  onRequestAsyncHookHandler,
  preHandlerAsyncHookHandler,
} from 'fastify';
import type { z } from 'zod';
import { ApiError, findTextProblem, type RestRoute, type RouteInput } from '../../protocol';
import { restRoutes, type RestRoutes } from '../../protocol/routes';
import { authenticateDevice, authenticateUser, authenticateUserOrDevice, requireAdmin } from '../auth/guard';
import type { ServerContext } from '../context';
import { badRequest } from '../errors';
import type { ZodApp } from './types';

/** Answers one route: resolves with its 200 answer, or throws an HttpError. */
export type RouteHandler<R extends RestRoute> = (
  input: RouteInput<R>,
  request: FastifyRequest,
  reply: FastifyReply,
) => Promise<z.input<R['answer']>>;

/**
 * A handler, or a handler with per-route server options: a rate limit, and `throttle` (onRequest, before auth
 * and body: more counters, src/server/auth/throttle.ts).
 */
export type RouteHandlerEntry<R extends RestRoute> =
  | RouteHandler<R>
  | { handle: RouteHandler<R>; rateLimit?: RateLimitOptions; throttle?: onRequestAsyncHookHandler };

/** One handler for every route of `T` (a feature's routes): a missing one is a compile error. */
export type RouteHandlers<T extends Record<string, RestRoute>> = { [K in keyof T]: RouteHandlerEntry<T[K]> };

/** What a feature's route module exports: its handlers, given the server context and the app. */
export type HandlersOf<T extends Record<string, RestRoute>> = (
  ctx: ServerContext,
  app: ZodApp,
) => RouteHandlers<T>;

/** preValidation: the text rule on params, query and body. */
async function textRule(request: FastifyRequest): Promise<void> {
  const problem =
    findTextProblem(request.params, 'params') ??
    findTextProblem(request.query, 'querystring') ??
    findTextProblem(request.body, 'body');
  if (problem) throw badRequest(`${problem.path}: ${problem.message}`);
}

function authOf(route: RestRoute, ctx: ServerContext): preHandlerAsyncHookHandler[] {
  switch (route.auth) {
    case 'none':
      return [];
    case 'user':
      return [authenticateUser(ctx)];
    case 'admin':
      return [authenticateUser(ctx), requireAdmin];
    case 'device':
      return [authenticateDevice(ctx)];
    case 'userOrDevice':
      return [authenticateUserOrDevice(ctx)];
  }
}

/** Answers documented for a route: 200, 400 always, 401/403 by its auth, and its own `errors`. */
function responsesOf(route: RestRoute): Record<number, z.ZodType> {
  const responses: Record<number, z.ZodType> = { 200: route.answer, 400: ApiError };
  if (route.auth !== 'none') responses[401] = ApiError;
  if (route.auth === 'admin') responses[403] = ApiError;
  for (const status of route.errors ?? []) responses[status] = ApiError;
  return responses;
}

/** Registers every route of the table with its handler. */
export function registerRestRoutes(
  app: ZodApp,
  ctx: ServerContext,
  handlers: RouteHandlers<RestRoutes>,
): void {
  for (const [name, route] of Object.entries(restRoutes) as [keyof RestRoutes, RestRoute][]) {
    const entry = handlers[name] as RouteHandlerEntry<RestRoute>;
    const handle = typeof entry === 'function' ? entry : entry.handle;
    const rateLimit = typeof entry === 'function' ? undefined : entry.rateLimit;
    const throttle = typeof entry === 'function' ? undefined : entry.throttle;
    app.route({
      method: route.method,
      url: route.path,
      schema: {
        tags: [name.split('.')[0] ?? name],
        summary: route.summary,
        operationId: name,
        hide: route.hidden,
        ...(route.params ? { params: route.params } : {}),
        ...(route.query ? { querystring: route.query } : {}),
        ...(route.body ? { body: route.body } : {}),
        ...(route.headers ? { headers: route.headers } : {}),
        response: responsesOf(route),
      },
      ...(rateLimit ? { config: { rateLimit } } : {}),
      ...(throttle ? { onRequest: [throttle] } : {}),
      // Every route checks the caller before it reads the input: a request without valid credentials gets 401
      // (a non-admin on an admin route 403) whatever it sends, and learns nothing of the route's input from a 400
      // (issue 15 "Unauthenticated requests get 401 before any schema detail"; tests/unit/admin/adminRoutes.test.ts,
      // tests/unit/server/authFirst.test.ts).
      preValidation: [...authOf(route, ctx), textRule],
      handler: (request, reply) =>
        handle(
          {
            params: request.params,
            query: request.query,
            body: request.body,
            headers: request.headers,
          } as RouteInput<RestRoute>,
          request,
          reply,
        ),
    });
  }
}
