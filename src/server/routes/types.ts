/** The Fastify instance type route modules register on (zod type provider: typed, validated handlers). */
import type {
  FastifyBaseLogger,
  FastifyInstance,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
} from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ApiError } from '../../protocol';

export type ZodApp = FastifyInstance<
  RawServerDefault,
  RawRequestDefaultExpression,
  RawReplyDefaultExpression,
  FastifyBaseLogger,
  ZodTypeProvider
>;

/** Error answers documented on authenticated routes. */
export const AUTH_ERRORS = { 400: ApiError, 401: ApiError } as const;
/** Error answers of routes that look up one of the caller's rows. */
export const OWNED_ERRORS = { 400: ApiError, 401: ApiError, 404: ApiError } as const;
