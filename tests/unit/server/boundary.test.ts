/**
 * The text rule at the REST boundary (issue 7: NUL bytes, lone surrogates and oversized strings reached
 * PostgreSQL and answered 500): every route refuses them with 400 `{ code, message }` before its handler,
 * and the server keeps answering. Also: the route table and the registered routes are the same set.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findTextProblem, REST_TEXT_MAX_CHARS } from '../../../src/protocol';
import { restRoutes } from '../../../src/protocol/routes';
import { api, login, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let token: string;
let deviceToken: string;

beforeAll(async () => {
  server = await startTestServer();
  const user = await server.seed.ensureUser({ email: 'edge@example.com', password: 'edge-pw-1' });
  const device = await server.seed.ensureDevice({ ownerId: user.id, label: 'Gate', chipsetId: '0' });
  deviceToken = await server.seed.issueDeviceToken(device.id);
  token = (await login(server, 'edge@example.com', 'edge-pw-1')).token;
});
afterAll(async () => {
  await server?.dispose();
});

const expectRefused = (res: { status: number; body: unknown }, path: RegExp) => {
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ code: 'Validation_error', message: expect.stringMatching(path) });
};

describe('the text rule', () => {
  it('finds a NUL, an unpaired surrogate, an oversized string, a bad key and deep nesting, and passes clean text', () => {
    expect(findTextProblem({ a: ['ok', 'é', '😀'] }, 'body')).toBeNull();
    expect(findTextProblem({ a: ['ok', 'x\u0000y'] }, 'body')?.path).toBe('body.a.1');
    expect(findTextProblem({ k: '\ud800' }, 'body')?.path).toBe('body.k');
    expect(findTextProblem({ k: 'a\udc00' }, 'body')?.path).toBe('body.k');
    expect(findTextProblem({ ['\ud800']: 1 }, 'body')?.message).toMatch(/^key:/);
    expect(findTextProblem('x'.repeat(REST_TEXT_MAX_CHARS + 1), 'query')?.message).toMatch(/longer than/);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 40; i++) deep = [deep];
    expect(findTextProblem(deep, 'body')?.message).toMatch(/nested deeper/);
  });
});

describe('REST routes refuse unsafe text with 400 { code, message }', () => {
  it('refuses a NUL in a query string (get_devices/?search=%00)', async () => {
    expectRefused(await api(server, 'GET', 'get_devices/?search=%00', { token }), /^querystring\.search:/);
  });

  it('refuses a NUL in a path parameter (peerjs/peerjs/%00)', async () => {
    expectRefused(await api(server, 'GET', 'peerjs/peerjs/%00', { token }), /^params\.device_id:/);
  });

  it('refuses a NUL inside a body array (DELETE device)', async () => {
    expectRefused(
      await api(server, 'DELETE', 'device', { token, body: { ids: ['\u0000'] } }),
      /^body\.ids\.0:/,
    );
  });

  it('refuses an unpaired surrogate in the saved camera page', async () => {
    const rawBody =
      '{"streams":[{"key":"\\ud800","deviceId":"d","cameraId":"c","page":0,"cell":{"i":"a","x":0,"y":0,"w":1,"h":1}}]}';
    expectRefused(await api(server, 'PUT', 'camera-layout', { token, rawBody }), /^body\.streams\.0\.key:/);
  });

  it('refuses a 10,000-character camera_id from an agent', async () => {
    const res = await api(server, 'POST', 'device/register-cameras', {
      token: deviceToken,
      body: { cameras: [{ camera_id: 'c'.repeat(10_000), name: 'cam', unique_id: 'u' }] },
    });
    expectRefused(res, /^body\.cameras\.0\.camera_id:/);
  });

  it('refuses a 1 MB string quickly and keeps answering afterwards', async () => {
    const res = await api(server, 'POST', 'login', { body: { email: 'x'.repeat(1_000_000), password: 'p' } });
    expectRefused(res, /^body\.email:/);
    expect((await api(server, 'GET', 'user-info', { token })).status).toBe(200);
  });
});

describe('requests Node refuses before routing', () => {
  it('answers a URL over 16 KB with 431 { code, message }', async () => {
    const res = await api(server, 'GET', `groups?group_type=${'%'.repeat(20_000)}`, { token });
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ code: 'Request_header_fields_too_large', message: expect.any(String) });
    expect((await api(server, 'GET', 'user-info', { token })).status).toBe(200);
  });
});

describe('the route table', () => {
  it('is what the server serves: every route answers something other than the unknown-route 404', async () => {
    const doc = (await api(server, 'GET', 'openapi.json')).body as {
      paths: Record<string, Record<string, unknown>>;
    };
    const served = new Set(
      Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)),
    );
    for (const [name, route] of Object.entries(restRoutes)) {
      if ('hidden' in route && route.hidden) continue;
      const openApiPath = route.path.replace(/:([A-Za-z_]+)/g, '{$1}');
      expect(served.has(`${route.method} ${openApiPath}`), name).toBe(true);
    }
  });
});
