import { describe, expect, it } from 'vitest';
import { createHttp } from '../../../../src/console/platform/http';

/** A fake server recording each request's method, path and query; answers with `answer`. */
function fakeServer(answer: { status: number; body: unknown }) {
  const seen: Array<{ method: string; path: string; query: string; auth: string | null }> = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(
      typeof input === 'string' ? input : input instanceof URL ? input.href : input.url,
      'http://x',
    );
    seen.push({
      method: init?.method ?? 'GET',
      path: url.pathname,
      query: url.search,
      auth: new Headers(init?.headers).get('authorization'),
    });
    return new Response(JSON.stringify(answer.body), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  }) as typeof globalThis.fetch;
  return { fetch, seen };
}

const bridge = { getToken: () => 'tok', refreshToken: async () => 'tok', rejectSession: () => undefined };

describe('REST transport typed by the route table (src/protocol/routes.ts)', () => {
  it('takes method and path from the route and fills its parameters, encoded', async () => {
    const server = fakeServer({ status: 200, body: { exist: true } });
    const http = createHttp({ bridge, fetch: server.fetch });
    await expect(http.call('signalling.exist', { params: { device_id: 'dev/1' } })).resolves.toEqual({
      exist: true,
    });
    expect(server.seen).toEqual([
      { method: 'GET', path: '/api/check/peerjs/dev%2F1', query: '', auth: 'Token tok' },
    ]);
  });

  it('sends the query and no token to a route anyone may call', async () => {
    const server = fakeServer({ status: 200, body: { is_quota_available: true } });
    const http = createHttp({ bridge, fetch: server.fetch });
    await http.call('usage.checkStreamLimit', { query: { deviceId: 'd', numOfCameras: 2 } });
    expect(server.seen[0]).toMatchObject({
      path: '/api/usage/check_stream_limit',
      query: '?deviceId=d&numOfCameras=2',
    });

    const login = fakeServer({ status: 200, body: { status: 1, message: 'confirm' } });
    await createHttp({ bridge, fetch: login.fetch })
      .call('accounts.login', { body: { email: 'a@b.co', password: 'secret1' } })
      .catch(() => undefined);
    expect(login.seen[0]).toMatchObject({ method: 'POST', path: '/api/login', auth: null });
  });
});
