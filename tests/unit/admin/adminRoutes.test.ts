/**
 * Admin checks are enforced by the server (issue 13 "Admin checks are enforced by the server, not only by the
 * route guard"; §6 "Role admin is required for /admin-panel and its children"). Walks the whole REST route
 * table (src/protocol/routes.ts): every route marked `auth: 'admin'` answers 403 Forbidden to a signed-in
 * non-admin (whatever the input) and 401 without a token, while an admin gets past the check; and every route
 * under /api/admin/ is marked admin — so a future admin route without the check fails here.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RestRoute } from '../../../src/protocol/route';
import { restRoutes } from '../../../src/protocol/routes';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let userToken = '';
let adminToken = '';
const PASSWORD = 'correct horse battery';
const SOME_ID = '2b0c8f0e-6f1e-4c43-9c77-0d7b0a3b1c11';

const routes = Object.entries(restRoutes as Record<string, RestRoute>);
const adminRoutes = routes.filter(([, r]) => r.auth === 'admin');

/** The route's path under /api/ with every `:param` filled by a uuid. */
const pathOf = (route: RestRoute) => route.path.replace(/^\/api\//, '').replace(/:[A-Za-z_]\w*/g, SOME_ID);

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'plain@example.com', password: PASSWORD });
  await server.seed.ensureUser({ email: 'boss@example.com', password: PASSWORD, roles: ['admin', 'user'] });
  userToken = (await login(server, 'plain@example.com', PASSWORD)).token;
  adminToken = (await login(server, 'boss@example.com', PASSWORD)).token;
});
afterAll(async () => {
  await server?.dispose();
});

describe('the route table', () => {
  it('marks every route under /api/admin/ as admin, and has admin routes of several features', () => {
    const unmarked = routes.filter(([, r]) => r.path.startsWith('/api/admin/') && r.auth !== 'admin');
    expect(unmarked.map(([name]) => name)).toEqual([]);
    const features = new Set(adminRoutes.map(([name]) => name.split('.')[0]));
    expect(features.has('admin')).toBe(true);
    expect(adminRoutes.length).toBeGreaterThanOrEqual(11);
  });
});

describe('every admin route', () => {
  it.each(adminRoutes.map(([name, route]) => [name, route] as const))(
    '%s answers 403 to a non-admin, 401 without a token, and lets an admin past the check',
    async (_name, route) => {
      const body = route.method === 'GET' ? undefined : {};
      const asUser = await api(server, route.method, pathOf(route), { token: userToken, body });
      expect(asUser).toEqual({ status: 403, body: { code: 'Forbidden', message: expect.any(String) } });
      const anonymous = await api(server, route.method, pathOf(route), { body });
      expect(anonymous.status).toBe(401);
      const asAdmin = await api(server, route.method, pathOf(route), { token: adminToken, body });
      expect([401, 403]).not.toContain(asAdmin.status);
    },
  );
});
