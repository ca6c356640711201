/**
 * The console's REST client (ofetch) — spec §7 "Requests carry the header Authorization: Token {token}",
 * §4 "Token_expired: one retry after refreshing the access token", §9 "Token refresh retried once",
 * §8 texts ("Servers are unavailable.", "Login failed. Please try again.", "The login detail is incorrect",
 * "Authorization is missing. Can not connect to server").
 *
 * Every answer is parsed with the zod schema of src/protocol/rest.ts; an error answer becomes an
 * `ApiRequestError { code, message, status }`. A 401 `Token_expired` asks the auth actor to refresh the
 * access token (single flight: concurrent requests share one refresh) and retries the request ONCE with the
 * new token; if the retry is refused again the session is rejected (auth signs out with the §8 notice).
 * Only views' machines call this, through actors provided in system.ts — views never call REST.
 *
 * Bundle size (/login ≤ 150 KB gz): ofetch and the zod schemas (src/protocol/rest.ts, which pulls in zod)
 * are loaded with cached dynamic imports on the first request, so the entry chunk ships neither. A request
 * names its answer schema by its export name in rest.ts ('LoginResponse') or by a function receiving the
 * rest module; error answers are recognised with a structural `{ code, message }` check.
 */
import type { $Fetch, FetchError } from 'ofetch';
import { waitFor, type ActorRefFrom } from 'xstate';
import type { z } from 'zod';
import type { authMachine, RefreshedTokens } from '../../../machines/accounts/auth.machine';
import { AUTH_ERRORS } from '../../../machines/accounts/auth.machine';
import { API_BASE } from '../../protocol/constants';
import { API_ERROR_CODES } from '../../protocol/errors';
import type * as RestModule from '../../protocol/rest';
import type {
  ApiError,
  BrowserTokenResponse,
  Device,
  IpCamera,
  SavedStream,
  DeviceGrantResponse,
  GetDevicesQuery,
  GetDevicesResponse,
  IceServersResponse,
  LoginRequest,
  LoginResponse,
  UserInfo,
} from '../../protocol/rest';

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
export const SERVERS_UNAVAILABLE = AUTH_ERRORS.unavailable;
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

/** How the client reaches the auth actor (see `createAuthBridge`). */
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

/** What the client needs from the auth actor. */
export type AuthActorLike = ActorRefFrom<typeof authMachine>;

/**
 * An AuthBridge over the auth actor. `refreshToken` sends `auth.tokenExpired` and waits until auth is
 * `signedIn.active` with a different token (resolves with it) or signed out (rejects). A token that was
 * already replaced resolves at once with the current one, so a request that lost a race does not refresh
 * twice.
 */
export function createAuthBridge(getAuth: () => AuthActorLike): AuthBridge {
  let inFlight: Promise<string> | null = null;
  const sessionEnded = () => new ApiRequestError('Please login again', API_ERROR_CODES.invalidToken, 401);
  return {
    getToken: () => getAuth().getSnapshot().context.token,
    refreshToken(expiredToken) {
      const auth = getAuth();
      const now = auth.getSnapshot();
      if (!now.matches('signedIn')) return Promise.reject(sessionEnded());
      if (now.matches({ signedIn: 'active' }) && now.context.token && now.context.token !== expiredToken) {
        return Promise.resolve(now.context.token);
      }
      if (!inFlight) {
        inFlight = (async () => {
          try {
            auth.send({ type: 'auth.tokenExpired' });
            const settled = await waitFor(
              auth,
              (s) =>
                !s.matches('signedIn') ||
                (s.matches({ signedIn: 'active' }) && s.context.token !== expiredToken),
            );
            if (!settled.matches('signedIn') || !settled.context.token) throw sessionEnded();
            return settled.context.token;
          } finally {
            inFlight = null;
          }
        })();
      }
      return inFlight;
    },
    rejectSession() {
      getAuth().send({ type: 'auth.tokenRejected' });
    },
  };
}

export interface ApiClientOptions {
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
 * Creates the REST client. Every method resolves with the parsed answer or rejects with ApiRequestError
 * (network failure: code 'network', message 'Servers are unavailable.').
 */
export function createApiClient(options: ApiClientOptions) {
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
     * POST login. Resolves with status 1 (confirm mail) or 2 (tokens and user). Rejects with an Error whose
     * message is 'The login detail is incorrect' (refused credentials), 'Servers are unavailable.' (network)
     * or 'Login failed. Please try again.' (anything else), §5 §8.
     */
    async login(credentials: LoginRequest): Promise<LoginResponse> {
      try {
        return await request('login', {
          method: 'POST',
          body: credentials,
          schema: 'LoginResponse',
          authenticated: false,
        });
      } catch (error) {
        if (!(error instanceof ApiRequestError)) throw error;
        if (error.code === 'network') throw error;
        if (error.status === 400 || error.status === 401 || error.code === API_ERROR_CODES.loginFailed) {
          throw new ApiRequestError(AUTH_ERRORS.incorrect, error.code, error.status);
        }
        throw new ApiRequestError(AUTH_ERRORS.failed, error.code, error.status);
      }
    },

    /** POST logout with the given token (best effort; the caller ignores failures). */
    async logout(token: string | null): Promise<void> {
      if (!token) return;
      await send('logout', { method: 'POST' }, token);
    },

    /** POST new_access_token with `Refresh-Token` → the new access token and the rotated refresh token. */
    async refreshAccessToken(refreshToken: string | null): Promise<RefreshedTokens> {
      if (!refreshToken)
        throw new ApiRequestError('Please login again', API_ERROR_CODES.invalidRefreshToken, 401);
      const answer = await request('new_access_token', {
        method: 'POST',
        headers: { 'Refresh-Token': refreshToken },
        schema: 'NewAccessTokenResponse',
        authenticated: false,
      });
      return { token: answer.data.token, refreshToken: answer.data.refresh_token };
    },

    /** GET user-info with an explicit token (used while restoring, before auth holds it). */
    async userInfo(token: string): Promise<UserInfo> {
      const answer = await send('user-info', {}, token);
      if (answer.status !== 200) throw toError(answer);
      return (await schemas()).UserInfoResponse.parse(answer.data).user_info;
    },

    /** GET get_devices/ — one page of the devices table (§7, §9 defaults). */
    getDevices(query: GetDevicesQuery, signal?: AbortSignal): Promise<GetDevicesResponse> {
      return request('get_devices/', {
        query: query as Record<string, string | number | undefined>,
        schema: 'GetDevicesResponse',
        signal,
      });
    },

    /** POST get_browser_token { browser_id } → signalling token and ICE servers. */
    getBrowserToken(browserId: string): Promise<z.infer<typeof BrowserTokenResponse>> {
      return request('get_browser_token', {
        method: 'POST',
        body: { browser_id: browserId },
        schema: 'BrowserTokenResponse',
      });
    },

    /** GET ice-servers?deviceId → servers. */
    async iceServers(deviceId?: string): Promise<z.infer<typeof IceServersResponse>['servers']> {
      const answer = await request('ice-servers', { query: { deviceId }, schema: 'IceServersResponse' });
      return answer.servers;
    },

    /** POST device-grant { device_id, browser_id } → a 60 s grant for the device link's hello. */
    deviceGrant(
      deviceId: string,
      browserId: string,
      signal?: AbortSignal,
    ): Promise<z.infer<typeof DeviceGrantResponse>> {
      return request('device-grant', {
        method: 'POST',
        body: { device_id: deviceId, browser_id: browserId },
        schema: 'DeviceGrantResponse',
        signal,
      });
    },

    /** GET usage/check_stream_limit?deviceId&numOfCameras → is_quota_available. */
    async checkStreamLimit(deviceId: string, numOfCameras: number, signal?: AbortSignal): Promise<boolean> {
      const answer = await request('usage/check_stream_limit', {
        query: { deviceId, numOfCameras },
        schema: 'CheckStreamLimitResponse',
        signal,
      });
      return answer.is_quota_available;
    },

    /** GET check/peerjs/{device_id} → exist (is the device registered with signalling?). */
    async checkDeviceExists(deviceId: string, signal?: AbortSignal): Promise<boolean> {
      const answer = await request(`check/peerjs/${encodeURIComponent(deviceId)}`, {
        schema: 'ExistResponse',
        signal,
      });
      return answer.exist;
    },

    /**
     * GET camera-layout → the signed-in user's saved camera page (streams with page and cell), or an empty
     * layout. Answer parsed with rest.ts CameraLayoutResponse.
     */
    getCameraLayout(signal?: AbortSignal): Promise<{ streams: SavedStream[]; updated_at: string | null }> {
      return request('camera-layout', { schema: 'CameraLayoutResponse', signal });
    },

    /** PUT camera-layout { streams } → the stored layout (at most 12 streams per page, rest.ts CameraLayout). */
    async putCameraLayout(streams: SavedStream[], signal?: AbortSignal): Promise<void> {
      await request('camera-layout', {
        method: 'PUT',
        body: { streams },
        schema: 'CameraLayoutResponse',
        signal,
      });
    },

    /** GET ip-cameras → data.data (§7; IP cameras listed from the server, each with the device reaching it). */
    async getIpCameras(signal?: AbortSignal): Promise<IpCamera[]> {
      const answer = await request('ip-cameras', { schema: 'IpCamerasResponse', signal });
      return answer.data.data;
    },

    /**
     * The devices with these device_ids that the user still owns: GET get_devices/ page by page (100 per
     * page) until all are found or the list ends. Ids not found are left out.
     */
    async getDevicesByIds(deviceIds: readonly string[], signal?: AbortSignal): Promise<Device[]> {
      const wanted = new Set(deviceIds);
      const found: Device[] = [];
      for (let page = 1; wanted.size > 0 && page <= 50; page++) {
        const answer = await request('get_devices/', {
          query: { per_page: 100, page, order_by: 'created_at', order_as: 'asc' },
          schema: 'GetDevicesResponse',
          signal,
        });
        for (const d of answer.res) {
          if (wanted.delete(d.device_id)) found.push(d);
        }
        if (answer.res.length < 100) break;
      }
      return found;
    },

    /** GET peerjs/peerjs/{device_id} → isOnline. */
    async isDeviceOnline(deviceId: string, signal?: AbortSignal): Promise<boolean> {
      const answer = await request(`peerjs/peerjs/${encodeURIComponent(deviceId)}`, {
        schema: 'PresenceResponse',
        signal,
      });
      return answer.isOnline;
    },
  };
}

/** The REST client created by `createApiClient`. */
export type ApiClient = ReturnType<typeof createApiClient>;
