/**
 * The applications routes on a real server (src/server/routes/applications.ts): the demo application seeded
 * from the demo detector (persons, ByteTrack, §9 threshold 0.3); §7 POST applications with pages -1 and
 * paged with page_info; create from a model version with defaults, classes checked against the model's,
 * trackers only for tasks with detections; edit, 409 on a taken name, delete; GET features; another user
 * sees none of it and cannot use the demo's model versions.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let demo: string;
let other: string;
let detectorVersion = '';
let llmVersion = '';

beforeAll(async () => {
  server = await startTestServer({ demoAccount: { email: 'demo@apps.test', password: 'demo-pass-1' } });
  await server.seed.ensureUser({ email: 'other@apps.test', password: 'other-pass-1' });
  demo = (await login(server, 'demo@apps.test', 'demo-pass-1')).token;
  other = (await login(server, 'other@apps.test', 'other-pass-1')).token;
  const models = (await api(server, 'GET', 'models', { token: demo })).body.data as Array<{
    name: string;
    latest: { id: string };
  }>;
  detectorVersion = models.find((m) => m.name === 'demo-people-detector')!.latest.id;
  llmVersion = models.find((m) => m.name === 'demo-tiny-llm')!.latest.id;
}, 60_000);
afterAll(() => server?.dispose());

describe('applications', () => {
  it('seeds the demo application and lists it with pages -1', async () => {
    const all = await api(server, 'POST', 'applications', { token: demo, body: { pages: -1 } });
    expect(all.status).toBe(200);
    expect(all.body.page_info).toEqual({ page: 1, per_page: 1, total_items: 1, pages: 1 });
    expect(all.body.app[0]).toMatchObject({
      name: 'Lobby people counter',
      model_name: 'demo-people-detector',
      model_version_id: detectorVersion,
      version: 1,
      threshold: 0.3,
      classes: ['person'],
      tracker: 'bytetrack',
      model_classes: ['person', 'bicycle', 'car'],
      input: { source: 'camera', width: null, height: null, fps: 25 },
    });
    const none = await api(server, 'POST', 'applications', { token: other, body: { pages: -1 } });
    expect(none.body.app).toEqual([]);
  });

  it('creates with defaults, checks classes and trackers, edits, pages, refuses a taken name, deletes', async () => {
    const created = await api(server, 'POST', 'applications/new', {
      token: demo,
      body: { name: 'Car watch', model_version_id: detectorVersion, classes: ['car', 'car'] },
    });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ threshold: 0.3, tracker: 'none', classes: ['car'] });
    const id = created.body.id as string;

    const badClass = await api(server, 'POST', 'applications/new', {
      token: demo,
      body: { name: 'X', model_version_id: detectorVersion, classes: ['dog'] },
    });
    expect(badClass.status).toBe(400);
    expect(badClass.body.message).toContain('dog');
    const badTracker = await api(server, 'POST', 'applications/new', {
      token: demo,
      body: { name: 'Chat', model_version_id: llmVersion, tracker: 'sort' },
    });
    expect(badTracker.status).toBe(400);
    const badThreshold = await api(server, 'POST', 'applications/new', {
      token: demo,
      body: { name: 'T', model_version_id: detectorVersion, threshold: 1.5 },
    });
    expect(badThreshold.status).toBe(400);
    const taken = await api(server, 'POST', 'applications/new', {
      token: demo,
      body: { name: 'Car watch', model_version_id: detectorVersion },
    });
    expect(taken.status).toBe(409);
    const foreign = await api(server, 'POST', 'applications/new', {
      token: other,
      body: { name: 'Mine', model_version_id: detectorVersion },
    });
    expect(foreign.status).toBe(404);

    const edited = await api(server, 'PUT', `applications/${id}`, {
      token: demo,
      body: {
        name: 'Car watch (gate)',
        model_version_id: detectorVersion,
        input: { source: 'rtsp', width: 1280, height: 720, fps: 15 },
        threshold: 0.55,
        classes: ['car', 'bicycle'],
        tracker: 'iou',
      },
    });
    expect(edited.status).toBe(200);
    expect(edited.body).toMatchObject({ name: 'Car watch (gate)', threshold: 0.55, tracker: 'iou' });
    expect((await api(server, 'GET', `applications/${id}`, { token: other })).status).toBe(404);
    expect((await api(server, 'GET', `applications/${id}`, { token: demo })).body.input.fps).toBe(15);

    const page = await api(server, 'POST', 'applications', { token: demo, body: { page: 1, per_page: 1 } });
    expect(page.body.page_info).toEqual({ page: 1, per_page: 1, total_items: 2, pages: 2 });
    expect(page.body.app[0].name).toBe('Car watch (gate)');
    const search = await api(server, 'POST', 'applications', {
      token: demo,
      body: { pages: -1, search: 'LOBBY' },
    });
    expect(search.body.app.map((a: { name: string }) => a.name)).toEqual(['Lobby people counter']);

    expect((await api(server, 'DELETE', `applications/${id}`, { token: other })).status).toBe(404);
    expect((await api(server, 'DELETE', `applications/${id}`, { token: demo })).body).toEqual({ ok: true });
    expect((await api(server, 'GET', `applications/${id}`, { token: demo })).status).toBe(404);
  });

  it('answers the features list: input kinds and trackers with their tasks', async () => {
    const res = await api(server, 'GET', 'features', { token: demo });
    expect(res.status).toBe(200);
    const keys = res.body.features.map((f: { kind: string; key: string }) => `${f.kind}:${f.key}`);
    expect(keys).toContain('input:camera');
    expect(keys).toContain('tracker:bytetrack');
    const sort = res.body.features.find((f: { key: string }) => f.key === 'sort');
    expect(sort.tasks).toContain('object-detection');
    expect(sort.tasks).not.toContain('llm');
    expect((await api(server, 'GET', 'features')).status).toBe(401);
  });
});
