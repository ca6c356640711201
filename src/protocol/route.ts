/**
 * The shape of one REST route (spec §7 server calls) and the one rule every request's text obeys.
 *
 * A feature's protocol module (src/protocol/<feature>.ts) declares its routes with `defineRoutes`; the route
 * list (routes.ts) merges them into `restRoutes`. The server registers every route from that table
 * (src/server/routes/register.ts), the console's calls are typed by it, and the fuzz harness (tests/fuzz/)
 * sends hostile input to each — so a path is written once, here.
 */
import { z } from 'zod';

/** Error answer of every route: `{ code, message }`; message is a §8 text where the spec gives one. */
export const ApiError = z.object({ code: z.string(), message: z.string() });
export type ApiError = z.infer<typeof ApiError>;

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * Who may call a route (spec §6 roles, §7 `Authorization: Token {token}`):
 * 'none' = anyone; 'user' = an access token; 'admin' = an access token of a user with role admin;
 * 'device' = a device token (agent-facing calls); 'userOrDevice' = either.
 */
export type RouteAuth = 'none' | 'user' | 'admin' | 'device' | 'userOrDevice';

/** One REST route. Paths are absolute, under API_BASE ('/api/'), with `:name` parameters. */
export interface RestRoute {
  readonly method: HttpMethod;
  readonly path: `/api/${string}`;
  readonly auth: RouteAuth;
  /** One line for the OpenAPI document. */
  readonly summary: string;
  readonly params?: z.ZodObject;
  readonly query?: z.ZodObject;
  readonly body?: z.ZodType;
  /** Request headers the route reads besides Authorization (lower-case names). */
  readonly headers?: z.ZodObject;
  /** The 200 answer. */
  readonly answer: z.ZodType;
  /**
   * Error statuses this route answers besides those every route has (400, and 401 when `auth` is not
   * 'none', 403 for 'admin'): e.g. 404 for a row that is not the caller's, 429 when rate-limited.
   */
  readonly errors?: readonly (401 | 404 | 409 | 413 | 429)[];
  /** Left out of the OpenAPI document. */
  readonly hidden?: boolean;
}

/** Declares a feature's routes, keyed `<feature>.<name>`; keeps their literal types for the route table. */
export const defineRoutes = <const T extends Record<string, RestRoute>>(routes: T): T => routes;

/** Input of a route after validation (defaults applied): what a server handler receives. */
export interface RouteInput<R extends RestRoute> {
  params: R['params'] extends z.ZodType ? z.output<R['params']> : Record<string, never>;
  query: R['query'] extends z.ZodType ? z.output<R['query']> : Record<string, never>;
  body: R['body'] extends z.ZodType ? z.output<R['body']> : undefined;
  headers: R['headers'] extends z.ZodType ? z.output<R['headers']> : Record<string, never>;
}
/** Input of a route as a caller writes it (before defaults): what the console passes. */
export interface RouteCall<R extends RestRoute> {
  params: R['params'] extends z.ZodType ? z.input<R['params']> : undefined;
  query: R['query'] extends z.ZodType ? z.input<R['query']> : undefined;
  body: R['body'] extends z.ZodType ? z.input<R['body']> : undefined;
  headers: R['headers'] extends z.ZodType ? z.input<R['headers']> : undefined;
}
/** The parsed 200 answer of a route. */
export type RouteAnswer<R extends RestRoute> = z.output<R['answer']>;

/**
 * The URL path of a call to `route`, starting with '/api/': `:name` segments filled from `params`
 * (URI-encoded), `query` appended (undefined and null values left out; arrays repeat the key).
 * @throws Error when a path parameter is missing.
 */
export function routeUrl(
  route: Pick<RestRoute, 'path'>,
  params?: Readonly<Record<string, string | number>>,
  query?: Readonly<Record<string, unknown>>,
): string {
  const path = route.path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_m, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`${route.path}: path parameter '${name}' is missing`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    for (const v of Array.isArray(value) ? value : [value]) {
      if (v !== undefined && v !== null) search.append(key, String(v));
    }
  }
  const qs = search.toString();
  return qs ? `${path}?${qs}` : path;
}

// ---------------------------------------------------------------------------------------------------------
// The text rule: one check for every string that crosses a boundary (REST input, device command payloads).

/**
 * Longest string (UTF-16 code units) any REST input may carry unless its schema is stricter. No REST input of
 * the spec needs more (tokens travel in headers); PostgreSQL cannot index much more (a B-tree row is ≤ 2,704
 * bytes, so identifiers are capped at `ID_MAX_CHARS` by their schemas).
 */
export const REST_TEXT_MAX_CHARS = 4096;
/** Longest identifier (device_id, camera_id, row ids, keys). */
export const ID_MAX_CHARS = 200;
/** Deepest nesting of objects and arrays any input may have. */
export const INPUT_MAX_DEPTH = 16;

/** Why a value was refused, with the path of the offending part ("body.streams.0.key"). */
export interface TextProblem {
  path: string;
  message: string;
}

// A NUL character, or a UTF-16 surrogate that is not part of a pair (PostgreSQL refuses both).
// eslint-disable-next-line no-control-regex
const UNSAFE_TEXT = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

function stringProblem(s: string, maxChars: number): string | null {
  if (s.length > maxChars) return `text longer than ${maxChars} characters`;
  if (UNSAFE_TEXT.test(s)) return 'text holds a NUL character or an unpaired UTF-16 surrogate';
  return null;
}

/**
 * The first problem in `value`'s strings (values and object keys) or nesting, or null when it is clean:
 * a NUL character, an unpaired surrogate, a string longer than `maxChars`, nesting deeper than
 * INPUT_MAX_DEPTH. Numbers, booleans and null pass (their own schemas judge them).
 */
export function findTextProblem(
  value: unknown,
  where: string,
  maxChars = REST_TEXT_MAX_CHARS,
): TextProblem | null {
  const visit = (v: unknown, path: string, depth: number): TextProblem | null => {
    if (typeof v === 'string') {
      const message = stringProblem(v, maxChars);
      return message ? { path, message } : null;
    }
    if (v === null || typeof v !== 'object') return null;
    if (depth >= INPUT_MAX_DEPTH) return { path, message: `nested deeper than ${INPUT_MAX_DEPTH} levels` };
    if (Array.isArray(v)) {
      for (let i = 0; i < v.length; i++) {
        const p = visit(v[i], `${path}.${i}`, depth + 1);
        if (p) return p;
      }
      return null;
    }
    for (const key of Object.keys(v)) {
      const keyMessage = stringProblem(key, ID_MAX_CHARS);
      if (keyMessage) return { path: `${path}.${key.slice(0, 40)}`, message: `key: ${keyMessage}` };
      const p = visit((v as Record<string, unknown>)[key], `${path}.${key}`, depth + 1);
      if (p) return p;
    }
    return null;
  };
  return visit(value, where, 0);
}

/** An identifier (device_id, camera_id, row id, key): 1–200 characters. */
export const Id = z.string().min(1).max(ID_MAX_CHARS);
