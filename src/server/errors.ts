/**
 * Error answers: every error is `{ code, message }` (ApiError, spec §7/§8). Route code throws `HttpError`;
 * `installErrorHandling` turns validation errors, Fastify's own errors and crashes into that shape.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { API_ERROR_CODES, type ApiError } from '../protocol';
import {
  DATABASE_RETRY_AFTER_S,
  DATABASE_UNAVAILABLE,
  isDatabaseUnavailable,
  type DatabaseStatus,
} from './db/availability';

/** An error with an HTTP status and an ApiError body. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'HttpError';
  }
  toBody(): ApiError {
    return { code: this.code, message: this.message };
  }
}

/** 404 Not_found — also used when a row exists but belongs to another user (never reveal it). */
export const notFound = (what = 'Resource') =>
  new HttpError(404, API_ERROR_CODES.notFound, `${what} not found.`);
/** 401 with the given code (Unauthorized, Token_expired, invalid_token, …). */
export const unauthorized = (code: string, message: string) => new HttpError(401, code, message);
/** 403 Forbidden (e.g. a non-admin on an admin route, spec §6). */
export const forbidden = (message = 'You are not allowed to do this.') =>
  new HttpError(403, API_ERROR_CODES.forbidden, message);
/** 400 Validation_error with a readable message. */
export const badRequest = (message: string) => new HttpError(400, API_ERROR_CODES.validation, message);

/** Longest text (characters) a log line quotes from a message, stack or URL. */
export const LOG_TEXT_MAX_CHARS = 1000;
const clip = (s: unknown): string | undefined => {
  if (typeof s !== 'string') return undefined;
  return s.length > LOG_TEXT_MAX_CHARS ? `${s.slice(0, LOG_TEXT_MAX_CHARS)}… (${s.length} characters)` : s;
};

/** Query parameters whose value is a credential (`token`, `access_token`, `grant`, `password`…). */
const SECRET_QUERY_PARAM =
  /([?&])([^=&#]*(?:token|grant|secret|password|passwd|credential|signature|api[_-]?key)[^=&#]*)=([^&#]*)/gi;

/**
 * A request URL fit for a log line (issue 15 "tokens never in URLs or logs"): the value of every credential
 * query parameter replaced by `[redacted]`, e.g. `/peerjs/peerjs?id=web-1&token=[redacted]`.
 */
export function redactUrl(url: string): string {
  return url.includes('?') ? url.replace(SECRET_QUERY_PARAM, '$1$2=[redacted]') : url;
}

/** Pino serializers of the server's logger: small lines, no request bodies or headers, no credentials. */
export const LOG_SERIALIZERS = {
  err: (err: unknown) => {
    const e = err as {
      name?: unknown;
      code?: unknown;
      message?: unknown;
      stack?: unknown;
      statusCode?: unknown;
    };
    return {
      type: typeof e?.name === 'string' ? e.name : typeof err,
      code: typeof e?.code === 'string' ? e.code.slice(0, 100) : undefined,
      statusCode: typeof e?.statusCode === 'number' ? e.statusCode : undefined,
      message: clip(e?.message) ?? clip(String(err)) ?? '',
      stack: clip(e?.stack) ?? '',
    };
  },
  req: (req: { method?: string; url?: string; ip?: string; id?: string }) => ({
    id: req.id,
    method: req.method,
    url: clip(typeof req.url === 'string' ? redactUrl(req.url) : req.url),
    remoteAddress: req.ip,
  }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};

const STATUS_CODES: Record<number, string> = {
  400: API_ERROR_CODES.validation,
  401: API_ERROR_CODES.unauthorized,
  403: API_ERROR_CODES.forbidden,
  404: API_ERROR_CODES.notFound,
  405: 'Method_not_allowed',
  406: 'Not_acceptable',
  413: 'Payload_too_large',
  415: 'Unsupported_media_type',
  429: API_ERROR_CODES.rateLimited,
};

/** Turns zod issues (as Fastify reports them) into one line: "body.email: Invalid email address". */
function validationMessage(error: FastifyError): string {
  const context = error.validationContext ?? 'request';
  const parts = (error.validation ?? []).slice(0, 5).map((issue) => {
    const raw = issue as {
      instancePath?: string;
      message?: string;
      params?: { issue?: { path?: unknown[] } };
    };
    const p =
      raw.params?.issue?.path?.map(String).join('.') ??
      raw.instancePath?.replace(/^\//, '').replace(/\//g, '.');
    return `${context}${p ? '.' + p : ''}: ${raw.message ?? 'invalid'}`;
  });
  return parts.length > 0 ? parts.join('; ') : error.message;
}

/**
 * Requests answered 503 Database_unavailable (issue 15): the rate limiter gives their attempt back
 * (./rateLimitStore.ts), so an outage never locks anyone out of signing in.
 */
export const databaseUnavailableRequests = new WeakSet<FastifyRequest>();

/**
 * Installs the error handler and the /api 404 handler. Never lets a malformed request crash the server.
 * An error meaning the database cannot be reached (./db/availability.ts) is a 503
 * `{ code: 'Database_unavailable', message }` with `Retry-After: 2`; `database` records the outage and logs it
 * once, so an outage is not a stack trace per request.
 */
export function installErrorHandling(app: FastifyInstance, database?: DatabaseStatus): void {
  app.setErrorHandler((err, request, reply) => {
    const error = err as FastifyError;
    if (err instanceof HttpError) return reply.code(err.statusCode).send(err.toBody());
    if (isDatabaseUnavailable(err)) {
      database?.markDown(err);
      databaseUnavailableRequests.add(request);
      return reply
        .code(503)
        .header('retry-after', String(DATABASE_RETRY_AFTER_S))
        .send({ ...DATABASE_UNAVAILABLE });
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      return reply.code(400).send({ code: API_ERROR_CODES.validation, message: validationMessage(error) });
    }
    if (isResponseSerializationError(error)) {
      request.log.error(
        {
          err: error,
          issues: error.cause.issues.slice(0, 5).map((i) => `${i.path.join('.')}: ${clip(i.message)}`),
        },
        'response does not match its schema',
      );
      return reply.code(500).send({ code: 'Internal_error', message: 'Something went wrong on our side.' });
    }
    const status = typeof error.statusCode === 'number' && error.statusCode >= 400 ? error.statusCode : 500;
    if (status >= 500) {
      request.log.error({ err: error }, 'request failed');
      return reply
        .code(status)
        .send({ code: 'Internal_error', message: 'Something went wrong on our side.' });
    }
    return reply.code(status).send({ code: STATUS_CODES[status] ?? 'Bad_request', message: error.message });
  });
}

/**
 * Answers a request Node refuses before Fastify sees it (a URL or headers over 16 KB, a malformed request
 * line, a client time-out) with the same `{ code, message }` shape as every other error, then closes.
 */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: import('node:stream').Duplex): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, code, message] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? [431, 'Request_header_fields_too_large', 'The request line or headers are larger than 16 KB.']
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'Request_timeout', 'The request took too long to arrive.']
        : [400, API_ERROR_CODES.validation, 'The request is not valid HTTP.'];
  const body = JSON.stringify({ code, message });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_TEXT[status]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(err);
}
const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};
