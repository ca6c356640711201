/**
 * Credentials before input (issue 15 "Unauthenticated requests get 401 before any schema detail"; OWASP ASVS
 * 4.1): every REST route of the table (src/protocol/routes.ts) that needs a user or a device answers 401 to a
 * request without credentials, or with a forged token, even when its path, query and body are malformed — no
 * 400 naming a field reaches a caller the route does not know. Routes with `auth: 'none'` are left out.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRoute } from '../../../src/protocol/route';
import { restRoutes } from '../../../src/protocol/routes';
import { api, startTestServer, type TestServer } from './helpers';

let server: TestServer;
const guarded = Object.entries(restRoutes as Record<string, RestRoute>).filter(([, r]) => r.auth !== 'none');
/** A forged token: a JWT's shape with a signature the server never made. */
const FORGED = 'eyJhbGciOiJFZERTQSJ9.eyJ0eXAiOiJhY2Nlc3MiLCJzdWIiOiJ4In0.c2lnbmF0dXJl';

/** The route's path under /api/ with every `:param` filled by text no schema accepts as an id. */
const badPathOf = (route: RestRoute) =>
  route.path.replace(/^\/api\//, '').replace(/:[A-Za-z_]\w*/g, '%00not-an-id%00');

beforeAll(async () => {
  server = await startTestServer();
});
afterAll(async () => {
  await server?.dispose();
});

describe('every guarded route', () => {
  it('the table has guarded routes of user, admin and device kinds', () => {
    const kinds = new Set(guarded.map(([, r]) => r.auth));
    expect([...kinds].sort()).toEqual(expect.arrayContaining(['admin', 'device', 'user']));
  });

  it.each(guarded.map(([name, route]) => [name, route] as const))(
    '%s answers 401 without credentials or with a forged token, whatever the input',
    async (_name, route) => {
      const path = `${badPathOf(route)}?per_page=-1&${'x'.repeat(20)}=%ff`;
      const body = route.method === 'GET' ? undefined : { unexpected: [1, { deep: null }], email: 7 };
      for (const token of [undefined, FORGED]) {
        const res = await api(server, route.method, path, { token, body });
        expect(res.status, `${route.method} ${route.path} token=${token ? 'forged' : 'none'}`).toBe(401);
      }
    },
  );
});
