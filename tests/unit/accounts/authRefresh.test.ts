import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import {
  AUTH_ERRORS,
  authMachine,
  INVALID_TOKEN_NOTICE,
  type StoredSession,
} from '../../../machines/accounts/auth.machine';
import type { NoticeEmitted } from '../../../machines/notifications/emitted';
import { accountsApi } from '../../../src/console/features/accounts/api';
import { createAuthBridge } from '../../../src/console/features/accounts/authBridge';
import { camerasApi } from '../../../src/console/features/cameras/api';
import { devicesApi } from '../../../src/console/features/devices/api';
import { ApiRequestError, createHttp, type HttpOptions } from '../../../src/console/platform/http';
import { createSessionStore } from '../../../src/console/platform/storage';
import { STORAGE_KEYS } from '../../../src/protocol/constants';
import { flush, user } from '../machines/fixtures';

/** The transport with the calls of the features these tests use. */
function createApiClient(options: HttpOptions) {
  const http = createHttp(options);
  return { ...accountsApi(http), ...devicesApi(http), ...camerasApi(http) };
}

type Handler = (req: { path: string; method: string; headers: Headers }) => { status: number; body: unknown };

/** A fake server: routes by path; records every request's path and Authorization header. */
function fakeServer(handler: Handler) {
  const seen: Array<{ path: string; auth: string | null; refresh: string | null }> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://x',
    );
    const headers = new Headers(init?.headers);
    const path = url.pathname.replace(/^\/api\//, '');
    seen.push({ path, auth: headers.get('authorization'), refresh: headers.get('refresh-token') });
    const { status, body } = handler({ path, method: init?.method ?? 'GET', headers });
    return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const memoryStorage = () => {
  const map = new Map<string, string>();
  return {
    map,
    getItem: (k: string) => map.get(k) ?? null,
    setItem: (k: string, v: string) => void map.set(k, v),
    removeItem: (k: string) => void map.delete(k),
  };
};

const devicesPage = { res: [], total_items: 0, active_devices_count: 0 };
const expired = { status: 401, body: { code: 'Token_expired', message: 'Token expired' } };

/** A signed-in auth actor (token 'access-1') wired to an API client over the fake server. */
async function signedIn(handler: Handler, refresh: 'ok' | 'refused' = 'ok') {
  const server = fakeServer(handler);
  const storage = memoryStorage();
  const session = createSessionStore(storage);
  let refreshes = 0;
  const auth = createActor(
    authMachine.provide({
      actors: {
        restoreSession: fromPromise<StoredSession | null>(async () => ({
          token: 'access-1',
          refreshToken: 'refresh-1',
          user,
        })),
        refreshToken: fromPromise(async ({ input }) => {
          refreshes++;
          if (refresh === 'refused') throw new Error('Invalid_refresh_token');
          return { token: `access-${refreshes + 1}`, refreshToken: `${input.refreshToken}-rotated` };
        }),
      },
      actions: {
        persistSession: (_, params) => session.write(params),
        clearSession: () => session.clear(),
      },
    }),
  );
  const api = createApiClient({ bridge: createAuthBridge(() => auth), fetch: server.fetch });
  const notices: NoticeEmitted[] = [];
  auth.on('notice', (n) => notices.push(n));
  auth.start();
  await flush();
  storage.setItem(STORAGE_KEYS.idToken, 'access-1');
  return { api, auth, server, notices, storage, refreshes: () => refreshes };
}

describe('token refresh (§4 "Token_expired: one retry after refreshing the access token")', () => {
  it('sends Authorization: Token {token}', async () => {
    const { api, server } = await signedIn(() => ({ status: 200, body: devicesPage }));
    await api.getDevices({ page: 1 });
    expect(server.seen[0]).toMatchObject({ path: 'get_devices/', auth: 'Token access-1' });
  });

  it('refreshes once and retries the request with the new token', async () => {
    const { api, auth, server, refreshes } = await signedIn(({ headers }) =>
      headers.get('authorization') === 'Token access-1' ? expired : { status: 200, body: devicesPage },
    );
    await expect(api.getDevices({ page: 1 })).resolves.toEqual(devicesPage);
    expect(refreshes()).toBe(1);
    expect(server.seen.map((s) => s.auth)).toEqual(['Token access-1', 'Token access-2']);
    expect(auth.getSnapshot().matches({ signedIn: 'active' })).toBe(true);
    expect(auth.getSnapshot().context.refreshToken).toBe('refresh-1-rotated');
  });

  it('shares one refresh between requests that expire together', async () => {
    const { api, refreshes } = await signedIn(({ headers }) =>
      headers.get('authorization') === 'Token access-1' ? expired : { status: 200, body: devicesPage },
    );
    await Promise.all([
      api.getDevices({ page: 1 }),
      api.getDevices({ page: 2 }),
      api.checkStreamLimit('d', 1).catch(() => null),
    ]);
    expect(refreshes()).toBe(1);
  });

  it('signs out with the §8 notice when the retried request is refused again', async () => {
    const { api, auth, notices, storage, refreshes } = await signedIn(() => expired);
    await expect(api.getDevices({ page: 1 })).rejects.toBeInstanceOf(ApiRequestError);
    expect(refreshes()).toBe(1);
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(auth.getSnapshot().context.token).toBeNull();
    expect(storage.getItem(STORAGE_KEYS.idToken)).toBeNull();
    expect(notices).toEqual([
      {
        type: 'notice',
        title: INVALID_TOKEN_NOTICE.title,
        message: INVALID_TOKEN_NOTICE.message,
        variant: 'warning',
      },
    ]);
  });

  it('signs out with the §8 notice when the refresh token is refused', async () => {
    const { api, auth, notices } = await signedIn(() => expired, 'refused');
    await expect(api.getDevices({ page: 1 })).rejects.toThrow();
    expect(auth.getSnapshot().matches('signedOut')).toBe(true);
    expect(notices.map((n) => n.title)).toEqual([INVALID_TOKEN_NOTICE.title]);
  });
});

describe('REST client errors', () => {
  it('maps a network failure to "Servers are unavailable."', async () => {
    const failing = (async () => {
      throw new TypeError('fetch failed');
    }) as typeof globalThis.fetch;
    const api = createApiClient({
      bridge: { getToken: () => 't', refreshToken: async () => 't', rejectSession: () => undefined },
      fetch: failing,
    });
    await expect(api.getDevices({ page: 1 })).rejects.toMatchObject({
      message: AUTH_ERRORS.unavailable,
      code: 'network',
    });
  });

  it('turns refused credentials into "The login detail is incorrect"', async () => {
    const server = fakeServer(() => ({
      status: 401,
      body: { code: 'Login_failed', message: 'Invalid credentials' },
    }));
    const api = createApiClient({
      bridge: { getToken: () => null, refreshToken: async () => '', rejectSession: () => undefined },
      fetch: server.fetch,
    });
    await expect(api.login({ email: 'a@b.co', password: 'x' })).rejects.toMatchObject({
      message: AUTH_ERRORS.incorrect,
    });
    expect(server.seen[0]!.auth).toBeNull();
  });

  it('rejects an answer that does not match the protocol schema', async () => {
    const server = fakeServer(() => ({ status: 200, body: { res: 'nope' } }));
    const api = createApiClient({
      bridge: { getToken: () => 't', refreshToken: async () => 't', rejectSession: () => undefined },
      fetch: server.fetch,
    });
    await expect(api.getDevices({ page: 1 })).rejects.toMatchObject({ code: 'invalid_response' });
  });
});
