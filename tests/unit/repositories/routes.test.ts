/**
 * The repositories routes on a real server reading a real registry (tests/registry.ts): not configured →
 * configured false; the project's repositories only (§9 _prod suffix), tag counts; a repository's tags with
 * size, digest, created and pull command, newest first; 404 for a missing repository; the §4 push (admin
 * only, 409 when the target tag exists, 404 for a missing source tag); 502 when the registry is gone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pushTestImage } from '../../../src/server/registry/images';
import { RegistryClient } from '../../../src/server/registry/oci';
import { api, login, startTestServer, type TestServer } from '../server/helpers';
import { startTestRegistry, type TestRegistry } from '../../registry';

let server: TestServer;
let reg: TestRegistry;
let admin: string;
let user: string;
const saved = { ...process.env };

beforeAll(async () => {
  reg = await startTestRegistry();
  const client = new RegistryClient({ url: reg.url, username: null, password: null });
  await pushTestImage(client, 'vision_prod/detector', '1.0.0', [
    { architecture: 'amd64', created: '2026-01-01T00:00:00Z', file: 'a\n' },
  ]);
  await pushTestImage(client, 'vision_prod/detector', '1.1.0', [
    { architecture: 'amd64', created: '2026-03-01T00:00:00Z', file: 'b\n' },
    { architecture: 'arm64', created: '2026-03-01T00:00:00Z', file: 'c\n' },
  ]);
  await pushTestImage(client, 'other/hidden', 'x', [
    { architecture: 'amd64', created: '2026-01-01T00:00:00Z', file: 'd\n' },
  ]);
  server = await startTestServer();
  await server.seed.ensureUser({
    email: 'admin@repo.test',
    password: 'admin-pass-1',
    roles: ['admin', 'user'],
  });
  await server.seed.ensureUser({ email: 'user@repo.test', password: 'user-pass-1' });
  admin = (await login(server, 'admin@repo.test', 'admin-pass-1')).token;
  user = (await login(server, 'user@repo.test', 'user-pass-1')).token;
}, 60_000);
afterAll(async () => {
  process.env = saved;
  await server?.dispose();
  await reg?.dispose();
});

describe('repositories routes', () => {
  it('says when no registry is configured', async () => {
    delete process.env.REGISTRY_URL;
    const list = await api(server, 'GET', 'repositories', { token: user });
    expect(list).toEqual({
      status: 200,
      body: { configured: false, registry: null, project: null, repositories: [] },
    });
    const push = await api(server, 'POST', 'repositories/detector/push', {
      token: admin,
      body: { tag: '1.0.0', target_tag: 'stable' },
    });
    expect(push.status).toBe(409);
    expect(push.body.code).toBe('Registry_not_configured');
  });

  it('lists the project repositories and describes tags newest first', async () => {
    process.env.REGISTRY_URL = reg.url;
    process.env.REGISTRY_PROJECT = 'vision';
    const host = new URL(reg.url).host;
    const list = await api(server, 'GET', 'repositories', { token: user });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({
      configured: true,
      registry: host,
      project: 'vision_prod',
      repositories: [{ name: 'vision_prod/detector', alias: 'detector', tag_count: 2 }],
    });
    const tags = await api(server, 'GET', 'repositories/detector/tags', { token: user });
    expect(tags.status).toBe(200);
    expect(tags.body.tags.map((t: { tag: string }) => t.tag)).toEqual(['1.1.0', '1.0.0']);
    expect(tags.body.tags[0]).toMatchObject({
      digest: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      created: '2026-03-01T00:00:00.000Z',
      pull_command: `docker pull ${host}/vision_prod/detector:1.1.0`,
      error: null,
    });
    expect(tags.body.tags[0].platforms).toHaveLength(2);
    expect(tags.body.tags[1].size).toBeGreaterThan(0);
    expect((await api(server, 'GET', 'repositories/missing/tags', { token: user })).status).toBe(404);
    expect((await api(server, 'GET', 'repositories/Bad..Name/tags', { token: user })).status).toBe(400);
    expect((await api(server, 'GET', 'repositories')).status).toBe(401);
  });

  it('pushes a tag under a new tag (admin), refusing an existing target and a missing source', async () => {
    process.env.REGISTRY_URL = reg.url;
    process.env.REGISTRY_PROJECT = 'vision_prod';
    const body = { tag: '1.1.0', target_tag: 'stable' };
    expect((await api(server, 'POST', 'repositories/detector/push', { token: user, body })).status).toBe(403);
    const pushed = await api(server, 'POST', 'repositories/detector/push', { token: admin, body });
    expect(pushed.status).toBe(200);
    const tags = await api(server, 'GET', 'repositories/detector/tags', { token: user });
    const stable = tags.body.tags.find((t: { tag: string }) => t.tag === 'stable');
    const source = tags.body.tags.find((t: { tag: string }) => t.tag === '1.1.0');
    expect(stable.digest).toBe(source.digest);
    expect(pushed.body.digest).toBe(source.digest);
    const again = await api(server, 'POST', 'repositories/detector/push', { token: admin, body });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('Tag_exists');
    const other = await api(server, 'POST', 'repositories/detector/push', {
      token: admin,
      body: { tag: '1.0.0', target_repository: 'released/detector', target_tag: '1.0.0' },
    });
    expect(other.status).toBe(200);
    expect(other.body.repository).toBe('vision_prod/released/detector');
    const nested = await api(server, 'GET', `repositories/${encodeURIComponent('released/detector')}/tags`, {
      token: user,
    });
    expect(nested.body.tags.map((t: { tag: string }) => t.tag)).toEqual(['1.0.0']);
    const missing = await api(server, 'POST', 'repositories/detector/push', {
      token: admin,
      body: { tag: '9.9.9', target_tag: 'x' },
    });
    expect(missing.status).toBe(404);
  });

  it('answers 502 when the registry cannot be reached', async () => {
    process.env.REGISTRY_URL = 'http://127.0.0.1:1';
    const list = await api(server, 'GET', 'repositories', { token: user });
    expect(list.status).toBe(502);
    expect(list.body.code).toBe('Registry_unavailable');
  });
});
