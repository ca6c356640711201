/**
 * The console's REST transport (ofetch) — spec §7 "Requests carry the header Authorization: Token {token}",
 * §4 "Token_expired: one retry after refreshing the access token", §9 "Token refresh retried once",
 * §8 texts ("Servers are unavailable.", "Authorization is missing. Can not connect to server").
 *
 * Transport only: one request and the token-refresh rule. The calls live in each feature's api.ts
 * (features/<feature>/api.ts). Every answer is parsed with a zod schema of src/protocol; an error answer
 * becomes an `ApiRequestError { code, message, status }`. A 401 `Token_expired` asks the session (an
 * `AuthBridge`, features/accounts/authBridge.ts) to refresh the access token (single flight) and retries
 * the request ONCE with the new token; if the retry is refused again the session is rejected.
 *
 * Bundle size (/login ≤ 150 KB gz): ofetch and the zod schemas (src/protocol/rest.ts, which pulls in zod)
 * are loaded with cached dynamic imports on the first request, so the entry chunk ships neither. A request
 * names its answer schema by its export name in rest.ts ('LoginResponse') or by a function receiving the
 * rest module; error answers are recognised with a structural `{ code, message }` check.
 */
import type { $Fetch, FetchError } from 'ofetch';
import type { z } from 'zod';
import { API_BASE } from '../../protocol/constants';
import { API_ERROR_CODES } from '../../protocol/errors';
import type * as RestModule from '../../protocol/rest';
import type { ApiError } from '../../protocol/rest';

/** The module src/protocol/rest.ts (its zod schemas), as the dynamic import resolves it. */
export type RestSchemas = typeof RestModule;
/** Export names of rest.ts that are zod schemas. */
export type RestSchemaKey = {
  [K in keyof RestSchemas]: RestSchemas[K] extends z.ZodType ? K : never;
}[keyof RestSchemas];
/**
 * How a request names the schema of its answer: an export name of rest.ts, a function picking a schema
 * from the loaded rest module, or (callers that already hold zod) a schema itself.
 */
export type SchemaRef = RestSchemaKey | ((rest: RestSchemas) => z.ZodType) | z.ZodType;
/** The zod schema a SchemaRef stands for. */
export type SchemaOf<R extends SchemaRef> = R extends RestSchemaKey
  ? RestSchemas[R]
  : R extends (rest: RestSchemas) => infer S
    ? Extract<S, z.ZodType>
    : Extract<R, z.ZodType>;
/** The parsed answer of a request with schema `R`. */
export type AnswerOf<R extends SchemaRef> = z.infer<Extract<SchemaOf<R>, z.ZodType>>;

let restModule: Promise<RestSchemas> | null = null;
/** rest.ts (and zod), imported once; a failed load is retried by the next request. */
function loadRest(): Promise<RestSchemas> {
  restModule ??= import('../../protocol/rest').catch((error: unknown) => {
    restModule = null;
    throw error;
  });
  return restModule;
}

interface OfetchModule {
  ofetch: $Fetch;
  createFetch: typeof import('ofetch').createFetch;
  FetchError: typeof FetchError;
}
let ofetchModule: Promise<OfetchModule> | null = null;
/** ofetch, imported once; a failed load is retried by the next request. */
function loadOfetch(): Promise<OfetchModule> {
  ofetchModule ??= import('ofetch').catch((error: unknown) => {
    ofetchModule = null;
    throw error;
  });
  return ofetchModule;
}

function resolveSchema(ref: SchemaRef, rest: RestSchemas): z.ZodType {
  if (typeof ref === 'string') return rest[ref];
  if (typeof ref === 'function') return ref(rest);
  return ref;
}

/** §8 network error text. */
export const SERVERS_UNAVAILABLE = 'Servers are unavailable.';
/** §8 "Authorization is missing. Can not connect to server (no token)". */
export const AUTHORIZATION_MISSING = 'Authorization is missing. Can not connect to server';

/** An error answer of the server (or the network): `code` is machine-readable, `message` a user text. */
export class ApiRequestError extends Error {
  constructor(
    message: string,
    readonly code: string,
    /** HTTP status; 0 when the server could not be reached. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'ApiRequestError';
  }
}

/** How the transport reaches the session (features/accounts/authBridge.ts implements it over the auth actor). */
export interface AuthBridge {
  /** The current access token, or null when signed out. */
  getToken(): string | null;
  /**
   * The access token `expiredToken` was refused with Token_expired: refresh it (once, shared by concurrent
   * callers) and resolve with the new token. Rejects when the session ended instead.
   */
  refreshToken(expiredToken: string): Promise<string>;
  /** The session cannot be used any more (retry refused, invalid token): sign out with the §8 notice. */
  rejectSession(): void;
}

export interface HttpOptions {
  bridge: AuthBridge;
  /** Base URL of the REST API; default '/api/'. */
  baseURL?: string;
  /** A fetch implementation (tests); default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** One request; `schema` names the zod schema its 2xx answer must match (see SchemaRef). */
export interface RequestOptions<R extends SchemaRef = SchemaRef> {
  schema: R;
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  headers?: Record<string, string>;
  /** Send the access token (default true). */
  authenticated?: boolean;
  signal?: AbortSignal;
}

interface RawAnswer {
  status: number;
  data: unknown;
}

const UNAUTHORIZED_CODES: string[] = [
  API_ERROR_CODES.invalidToken,
  API_ERROR_CODES.invalidRefreshToken,
  API_ERROR_CODES.expiredRefreshToken,
];

/** The `{ code, message }` of an error answer (rest.ts ApiError, checked structurally), else null. */
const errorOf = (answer: RawAnswer): ApiError | null => {
  const data = answer.data as { code?: unknown; message?: unknown } | null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { code, message } = data;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
};
const isTokenExpired = (answer: RawAnswer) =>
  answer.status === 401 && errorOf(answer)?.code === API_ERROR_CODES.tokenExpired;
const isTokenRefused = (answer: RawAnswer) => answer.status === 401;

/**
 * Creates the REST transport: `request` resolves with the parsed answer or rejects with ApiRequestError
 * (network failure: code 'network', message 'Servers are unavailable.').
 */
export function createHttp(options: HttpOptions) {
  const { bridge } = options;
  const baseURL = options.baseURL ?? API_BASE;
  let fetcher: $Fetch | null = null;

  async function send(
    path: string,
    opts: Omit<RequestOptions, 'schema'>,
    token: string | null,
  ): Promise<RawAnswer> {
    const headers: Record<string, string> = { ...opts.headers };
    if (token) headers.Authorization = `Token ${token}`;
    try {
      if (!fetcher) {
        const mod = await loadOfetch();
        fetcher ??= options.fetch ? mod.createFetch({ fetch: options.fetch }) : mod.ofetch;
      }
      const res = await fetcher.raw(path, {
        baseURL,
        method: opts.method ?? 'GET',
        query: opts.query,
        body: opts.body as Record<string, unknown> | undefined,
        headers,
        signal: opts.signal,
        retry: 0,
        ignoreResponseError: true,
      });
      return { status: res.status, data: res._data };
    } catch (error) {
      if (opts.signal?.aborted) throw error;
      // FetchError, TypeError (fetch failed) or a failed load of ofetch: the server is out of reach.
      throw new ApiRequestError(SERVERS_UNAVAILABLE, 'network', 0);
    }
  }

  /** rest.ts for parsing an answer; a failed load counts as the servers being out of reach. */
  async function schemas(): Promise<RestSchemas> {
    try {
      return await loadRest();
    } catch {
      throw new ApiRequestError(SERVERS_UNAVAILABLE, 'network', 0);
    }
  }

  /** One request with the one-retry-after-refresh rule (§4, §9). */
  async function request<R extends SchemaRef>(path: string, opts: RequestOptions<R>): Promise<AnswerOf<R>> {
    const authenticated = opts.authenticated ?? true;
    let token: string | null = null;
    if (authenticated) {
      token = bridge.getToken();
      if (!token) throw new ApiRequestError(AUTHORIZATION_MISSING, API_ERROR_CODES.unauthorized, 401);
    }
    // Start loading the schemas alongside the request (only awaited for a 2xx answer).
    const rest = schemas();
    rest.catch(() => undefined);
    let answer = await send(path, opts, token);
    if (authenticated && token && isTokenExpired(answer)) {
      const fresh = await bridge.refreshToken(token);
      answer = await send(path, opts, fresh);
      if (isTokenRefused(answer)) {
        bridge.rejectSession();
        throw toError(answer);
      }
    } else if (
      authenticated &&
      answer.status === 401 &&
      UNAUTHORIZED_CODES.includes(errorOf(answer)?.code ?? '')
    ) {
      bridge.rejectSession();
      throw toError(answer);
    }
    if (answer.status < 200 || answer.status >= 300) throw toError(answer);
    const parsed = resolveSchema(opts.schema, await rest).safeParse(answer.data);
    if (!parsed.success) {
      throw new ApiRequestError('Unexpected answer from the server.', 'invalid_response', answer.status);
    }
    return parsed.data as AnswerOf<R>;
  }

  function toError(answer: RawAnswer): ApiRequestError {
    const err = errorOf(answer);
    if (err) return new ApiRequestError(err.message || err.code, err.code, answer.status);
    return new ApiRequestError(`Request failed (${answer.status}).`, 'http_error', answer.status);
  }

  return {
    request,
    /**
     * One request with an explicit token and no refresh rule (logout; reading the user while a stored
     * session is restored, before auth holds the token). Resolves with the raw status and data.
     */
    send,
    /** The zod schemas of src/protocol/rest.ts (loaded once). */
    schemas,
    /** The ApiRequestError of a raw non-2xx answer. */
    toError,
  };
}

/** The REST transport created by `createHttp`. */
export type Http = ReturnType<typeof createHttp>;
