import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_ENVIRONMENTS } from '../../../src/server/seed';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

/**
 * The environment catalogue routes (src/server/routes/containers.ts; spec §2 /containers, environment-detail,
 * /admin-panel/dockers): who may read and edit it, what a signed-out visitor sees, and refusals.
 */
let server: TestServer;
let admin: string;
let user: string;

const pythonLab = {
  alias: 'python-lab',
  name: 'Python lab',
  image: 'edge/python',
  tags: [{ tag: '3.11', platform: 'any', size_mb: 150 }],
  jupyter: true,
};

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({
    email: 'admin@cat.test',
    password: 'admin-pass-1',
    roles: ['admin', 'user'],
  });
  await server.seed.ensureUser({ email: 'user@cat.test', password: 'user-pass-1' });
  expect(await server.seed.ensureEnvironments()).toBe(DEFAULT_ENVIRONMENTS.length);
  expect(await server.seed.ensureEnvironments()).toBe(0); // never twice
  admin = (await login(server, 'admin@cat.test', 'admin-pass-1')).token;
  user = (await login(server, 'user@cat.test', 'user-pass-1')).token;
}, 60_000);
afterAll(() => server?.dispose());

describe('environment catalogue', () => {
  it('lists the catalogue to a signed-in user, ordered by name, with defaults applied', async () => {
    const res = await api(server, 'GET', 'environments', { token: user });
    expect(res.status).toBe(200);
    const names = res.body.environments.map((e: { name: string }) => e.name);
    expect(names).toEqual([...names].sort());
    const pytorch = res.body.environments.find((e: { alias: string }) => e.alias === 'pytorch-jupyter');
    expect(pytorch).toMatchObject({
      image: 'edge/jupyter-pytorch',
      jupyter: true,
      jupyter_port: 8888,
      public: true,
    });
    expect(pytorch.tags).toHaveLength(2);
    expect(Date.parse(pytorch.created_at)).not.toBeNaN();
    expect((await api(server, 'GET', 'environments')).status).toBe(401);
  });

  it('answers one environment by alias, and 404 for an unknown one', async () => {
    const res = await api(server, 'GET', 'environments/python', { token: user });
    expect(res.status).toBe(200);
    expect(res.body.environment).toMatchObject({ alias: 'python', image: 'edge/python' });
    const missing = await api(server, 'GET', 'environments/nope', { token: user });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ code: 'Not_found' });
    expect((await api(server, 'GET', 'environments/Not%20An%20Alias', { token: user })).status).toBe(400);
  });

  it('shows a public environment signed out with catalogue facts only', async () => {
    const res = await api(server, 'GET', 'public/environments/pytorch-jupyter');
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.environment).sort()).toEqual(
      ['alias', 'description', 'gpu', 'image', 'jupyter', 'name', 'tags'].sort(),
    );
  });

  it('lets an admin create, update and delete; a user may not', async () => {
    expect((await api(server, 'POST', 'admin/environments', { token: user, body: pythonLab })).status).toBe(
      403,
    );
    const created = await api(server, 'POST', 'admin/environments', { token: admin, body: pythonLab });
    expect(created.status).toBe(200);
    const id = created.body.environment.id as string;
    expect(created.body.environment).toMatchObject({
      alias: 'python-lab',
      gpu: true,
      public: true,
      description: '',
    });

    const again = await api(server, 'POST', 'admin/environments', { token: admin, body: pythonLab });
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('python-lab');

    const hidden = { ...pythonLab, name: 'Python lab (private)', public: false };
    const updated = await api(server, 'PUT', `admin/environments/${id}`, { token: admin, body: hidden });
    expect(updated.status).toBe(200);
    expect(updated.body.environment.name).toBe('Python lab (private)');
    expect(Date.parse(updated.body.environment.updated_at)).toBeGreaterThanOrEqual(
      Date.parse(created.body.environment.updated_at),
    );
    // Not public any more: signed-out visitors no longer see it.
    expect((await api(server, 'GET', 'public/environments/python-lab')).status).toBe(404);

    const taken = await api(server, 'PUT', `admin/environments/${id}`, {
      token: admin,
      body: { ...hidden, alias: 'python' },
    });
    expect(taken.status).toBe(409);

    expect((await api(server, 'DELETE', `admin/environments/${id}`, { token: user })).status).toBe(403);
    expect((await api(server, 'DELETE', `admin/environments/${id}`, { token: admin })).body).toEqual({
      deleted: true,
    });
    expect((await api(server, 'DELETE', `admin/environments/${id}`, { token: admin })).status).toBe(404);
  });

  it('refuses malformed environments with a readable 400 and unknown ids with 404', async () => {
    const bad = [
      { ...pythonLab, alias: 'Has Spaces' },
      { ...pythonLab, image: 'UPPER/case' },
      { ...pythonLab, tags: [] },
      { ...pythonLab, tags: [{ tag: '-bad', platform: 'any', size_mb: 1 }] },
      { ...pythonLab, tags: [{ tag: 'ok', platform: 'mac', size_mb: 1 }] },
      { ...pythonLab, jupyter_port: 70_000 },
      { ...pythonLab, name: '   ' },
    ];
    for (const body of bad) {
      const res = await api(server, 'POST', 'admin/environments', { token: admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toMatchObject({ code: 'Validation_error' });
      expect(typeof res.body.message).toBe('string');
    }
    for (const id of ['not-a-uuid', '00000000-0000-4000-8000-000000000000']) {
      const put = await api(server, 'PUT', `admin/environments/${id}`, { token: admin, body: pythonLab });
      expect(put.status).toBe(404);
      expect((await api(server, 'DELETE', `admin/environments/${id}`, { token: admin })).status).toBe(404);
    }
  });
});
