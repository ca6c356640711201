/**
 * The console's REST transport (ofetch) — spec §7 "Requests carry the header Authorization: Token {token}",
 * §4 "Token_expired: one retry after refreshing the access token", §9 "Token refresh retried once",
 * §8 texts ("Servers are unavailable.", "Authorization is missing. Can not connect to server").
 *
 * Transport only: `call(routeName, { params, query, body, headers })` looks the route up in the one REST
 * route table (src/protocol/routes.ts `restRoutes`: method, path, who may call, answer schema), so no path is
 * written in the console; each feature's api.ts names its routes. Every answer is parsed with the route's
 * answer schema; an error answer becomes an `ApiRequestError { code, message, status }`. A 401
 * `Token_expired` asks the session (an `AuthBridge`, features/accounts/authBridge.ts) to refresh the access
 * token (single flight) and retries the request ONCE with the new token; if the retry is refused again the
 * session is rejected.
 *
 * Bundle size (/login ≤ 150 KB gz): ofetch and the route table (src/protocol/rest.ts, which pulls in zod)
 * are loaded with cached dynamic imports on the first call, so the entry chunk ships neither. Error answers
 * are recognised with a structural `{ code, message }` check.
 */
import type { $Fetch, FetchError } from 'ofetch';
import { API_BASE } from '../../protocol/constants';
import { API_ERROR_CODES } from '../../protocol/errors';
import type * as RestModule from '../../protocol/rest';
import type { ApiError, RestRoute, RouteAnswer, RouteCall } from '../../protocol/route';
import type { RestRoutes, RouteName } from '../../protocol/routes';
import { serverErrorText } from './serverTexts';

/** The module src/protocol/rest.ts (the route table and its zod schemas), as the dynamic import resolves it. */
type RestModuleType = typeof RestModule;

let restModule: Promise<RestModuleType> | null = null;
/** rest.ts (and zod), imported once; a failed load is retried by the next call. */
function loadRest(): Promise<RestModuleType> {
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
/** ofetch, imported once; a failed load is retried by the next call. */
function loadOfetch(): Promise<OfetchModule> {
  ofetchModule ??= import('ofetch').catch((error: unknown) => {
    ofetchModule = null;
    throw error;
  });
  return ofetchModule;
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
  /** Base URL of the REST API; default '/api/' (the route table's paths are under it). */
  baseURL?: string;
  /** A fetch implementation (tests); default the global fetch. */
  fetch?: typeof globalThis.fetch;
}

/** The parts of a route's input that it has (params, query, body, headers), required as its schemas say. */
type RouteInputs<R extends RestRoute> = {
  [K in keyof RouteCall<R> as RouteCall<R>[K] extends undefined ? never : K]: RouteCall<R>[K];
};

/** What a call passes: the route's inputs, and how to send it. */
export type CallOptions<N extends RouteName> = RouteInputs<RestRoutes[N]> & {
  signal?: AbortSignal;
  /**
   * Send with this token as it is, without the refresh rule (logout; reading the user while a stored
   * session is restored, before auth holds the token). Default: the session's token when the route needs one.
   */
  token?: string;
};

/** The parsed answer of route `N`. */
export type AnswerOf<N extends RouteName> = RouteAnswer<RestRoutes[N]>;

interface Request {
  method: string;
  path: string;
  query?: Record<string, unknown>;
  body?: unknown;
  headers?: Record<string, string>;
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

/** The `{ code, message }` of an error answer (route.ts ApiError, checked structurally), else null. */
const errorOf = (answer: RawAnswer): ApiError | null => {
  const data = answer.data as { code?: unknown; message?: unknown } | null;
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return null;
  const { code, message } = data;
  return typeof code === 'string' && typeof message === 'string' ? { code, message } : null;
};
const isTokenExpired = (answer: RawAnswer) =>
  answer.status === 401 && errorOf(answer)?.code === API_ERROR_CODES.tokenExpired;
const isTokenRefused = (answer: RawAnswer) => answer.status === 401;

/** A route's path with its `:name` parameters filled in, relative to the API base. */
function pathOf(route: RestRoute, params: Record<string, unknown> | undefined): string {
  const path = route.path.replace(/:([A-Za-z0-9_]+)/g, (_, name: string) =>
    encodeURIComponent(String(params?.[name] ?? '')),
  );
  return path.startsWith(API_BASE) ? path.slice(API_BASE.length) : path;
}

/**
 * Creates the REST transport. `call` resolves with the parsed answer or rejects with ApiRequestError
 * (network failure: code 'network', message 'Servers are unavailable.').
 */
export function createHttp(options: HttpOptions) {
  const { bridge } = options;
  const baseURL = options.baseURL ?? API_BASE;
  let fetcher: $Fetch | null = null;

  async function send(request: Request, token: string | null): Promise<RawAnswer> {
    const headers: Record<string, string> = { ...request.headers };
    if (token) headers.Authorization = `Token ${token}`;
    try {
      if (!fetcher) {
        const mod = await loadOfetch();
        fetcher ??= options.fetch ? mod.createFetch({ fetch: options.fetch }) : mod.ofetch;
      }
      const res = await fetcher.raw(request.path, {
        baseURL,
        method: request.method,
        query: request.query,
        body: request.body as Record<string, unknown> | undefined,
        headers,
        signal: request.signal,
        retry: 0,
        ignoreResponseError: true,
      });
      return { status: res.status, data: res._data };
    } catch (error) {
      if (request.signal?.aborted) throw error;
      // FetchError, TypeError (fetch failed) or a failed load of ofetch: the server is out of reach.
      throw new ApiRequestError(SERVERS_UNAVAILABLE, 'network', 0);
    }
  }

  /** The route table; a failed load counts as the servers being out of reach. */
  async function routes(): Promise<RestModuleType['restRoutes']> {
    try {
      return (await loadRest()).restRoutes;
    } catch {
      throw new ApiRequestError(SERVERS_UNAVAILABLE, 'network', 0);
    }
  }

  function toError(answer: RawAnswer): ApiRequestError {
    const err = errorOf(answer);
    if (err)
      return new ApiRequestError(
        serverErrorText(err.code) ?? (err.message || err.code),
        err.code,
        answer.status,
      );
    return new ApiRequestError(`Request failed (${answer.status}).`, 'http_error', answer.status);
  }

  /** One call of route `name` with the one-retry-after-refresh rule (§4, §9). */
  async function call<N extends RouteName>(name: N, opts: CallOptions<N>): Promise<AnswerOf<N>> {
    const route: RestRoute = (await routes())[name];
    const input = opts as {
      params?: Record<string, unknown>;
      query?: Record<string, unknown>;
      body?: unknown;
      headers?: Record<string, string>;
    };
    const request: Request = {
      method: route.method,
      path: pathOf(route, input.params),
      query: input.query,
      body: input.body,
      headers: input.headers,
      signal: opts.signal,
    };
    let answer: RawAnswer;
    if (opts.token !== undefined) {
      answer = await send(request, opts.token);
    } else if (route.auth === 'none') {
      answer = await send(request, null);
    } else {
      const token = bridge.getToken();
      if (!token) throw new ApiRequestError(AUTHORIZATION_MISSING, API_ERROR_CODES.unauthorized, 401);
      answer = await send(request, token);
      if (isTokenExpired(answer)) {
        const fresh = await bridge.refreshToken(token);
        answer = await send(request, fresh);
        if (isTokenRefused(answer)) {
          bridge.rejectSession();
          throw toError(answer);
        }
      } else if (answer.status === 401 && UNAUTHORIZED_CODES.includes(errorOf(answer)?.code ?? '')) {
        bridge.rejectSession();
        throw toError(answer);
      }
    }
    if (answer.status < 200 || answer.status >= 300) throw toError(answer);
    const parsed = route.answer.safeParse(answer.data);
    if (!parsed.success) {
      throw new ApiRequestError('Unexpected answer from the server.', 'invalid_response', answer.status);
    }
    return parsed.data as AnswerOf<N>;
  }

  return { call };
}

/** The REST transport created by `createHttp`. */
export type Http = ReturnType<typeof createHttp>;
