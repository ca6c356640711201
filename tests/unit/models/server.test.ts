/**
 * The model repository on a real server (src/server/routes/models.ts, src/server/models/): the demo models
 * seeded with §5 ids, list search/sort/pages/kind, detail, Range downloads, the 'model' tus purpose (refused
 * before any byte for a wrong extension or another user's model; a new version recorded), deploy to a device and
 * a real device part downloading, verifying and installing it with its device token while reporting progress,
 * and deletes. Other users never see a model.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import { createDeviceModels } from '../../../src/agent/models';
import { DEPLOY_STALE_MS, type ModelDownload } from '../../../src/protocol/models';
import { shownState } from '../../../src/server/models/store';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let demo: string;
let other: string;

beforeAll(async () => {
  server = await startTestServer({ demoAccount: { email: 'demo@models.test', password: 'demo-pass-1' } });
  await server.seed.ensureUser({ email: 'other@models.test', password: 'other-pass-1' });
  demo = (await login(server, 'demo@models.test', 'demo-pass-1')).token;
  other = (await login(server, 'other@models.test', 'other-pass-1')).token;
}, 60_000);
afterAll(() => server?.dispose());

const b64 = (s: string) => Buffer.from(s).toString('base64');

/** A raw tus creation (no bytes). */
async function createUpload(token: string, data: Buffer, meta: Record<string, string>) {
  const sha256 = createHash('sha256').update(data).digest('hex');
  const all = { purpose: 'model', sha256, ...meta };
  return fetch(`${server.url}/api/uploads`, {
    method: 'POST',
    headers: {
      authorization: `Token ${token}`,
      'tus-resumable': '1.0.0',
      'upload-length': String(data.length),
      'upload-metadata': Object.entries(all)
        .map(([k, v]) => `${k} ${b64(v)}`)
        .join(','),
    },
  });
}

describe('model repository', () => {
  it('seeds the demo models with §5 ids: M with classes, P without', async () => {
    const list = await api(server, 'GET', 'models?sort=name&order=asc', { token: demo });
    expect(list.status).toBe(200);
    expect(list.body.page_info).toEqual({ page: 1, per_page: 10, total_items: 2 });
    const [detector, llm] = list.body.data;
    expect(detector).toMatchObject({ name: 'demo-people-detector', format: 'onnx', versions: 1 });
    expect(detector.id).toMatch(/^M[0-9A-Z]{11}$/);
    expect(llm).toMatchObject({ name: 'demo-tiny-llm', task: 'llm', classes: [] });
    expect(llm.id).toMatch(/^P[0-9A-Z]{11}$/);
    expect(detector.latest.uploaded_by).toBe('demo');
  });

  it('searches, pages, sorts by size and lists only language models for kind=llm', async () => {
    const found = await api(server, 'GET', 'models?search=PEOPLE', { token: demo });
    expect(found.body.data.map((m: { name: string }) => m.name)).toEqual(['demo-people-detector']);
    const page2 = await api(server, 'GET', 'models?per_page=1&page=2&sort=size&order=desc', { token: demo });
    expect(page2.body.data.map((m: { name: string }) => m.name)).toEqual(['demo-tiny-llm']);
    const llm = await api(server, 'GET', 'models?kind=llm', { token: demo });
    expect(llm.body.data.map((m: { name: string }) => m.name)).toEqual(['demo-tiny-llm']);
    const none = await api(server, 'GET', 'models', { token: other });
    expect(none.body.data).toEqual([]);
  });

  it('answers a byte range of a version file, and 404 to another user', async () => {
    const list = await api(server, 'GET', 'models?search=people', { token: demo });
    const id = list.body.data[0].id as string;
    const res = await fetch(`${server.url}/api/models/${id}/versions/1/file`, {
      headers: { authorization: `Token ${demo}`, range: 'bytes=10-19' },
    });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toMatch(/^bytes 10-19\/\d+$/);
    expect((await res.arrayBuffer()).byteLength).toBe(10);
    expect((await api(server, 'GET', `models/${id}`, { token: other })).status).toBe(404);
  });

  it('refuses a model upload before any byte when the extension does not match the format', async () => {
    const res = await createUpload(demo, Buffer.from('x'), {
      filename: 'detector.pt',
      name: 'wrong',
      task: 'classification',
      format: 'onnx',
    });
    expect(res.status).toBe(415);
    const mine = await api(server, 'GET', 'models?search=people', { token: demo });
    const theirs = await createUpload(other, Buffer.from('x'), {
      filename: 'v2.onnx',
      modelId: mine.body.data[0].id,
    });
    expect(theirs.status).toBe(404);
  });

  it('records an uploaded new version of a model', async () => {
    const mine = await api(server, 'GET', 'models?search=people', { token: demo });
    const id = mine.body.data[0].id as string;
    const data = Buffer.from('a second onnx version');
    const created = await createUpload(demo, data, { filename: 'people-v2.onnx', modelId: id, notes: 'v2' });
    expect(created.status).toBe(201);
    const location = new URL(created.headers.get('location')!, server.url);
    const patch = await fetch(location, {
      method: 'PATCH',
      headers: {
        authorization: `Token ${demo}`,
        'tus-resumable': '1.0.0',
        'upload-offset': '0',
        'content-type': 'application/offset+octet-stream',
      },
      body: new Uint8Array(data),
    });
    expect(patch.status).toBeLessThan(300);
    const detail = await api(server, 'GET', `models/${id}`, { token: demo });
    expect(detail.body.version_list.map((v: { version: number }) => v.version)).toEqual([2, 1]);
    expect(detail.body.version_list[0]).toMatchObject({
      file_name: 'people-v2.onnx',
      notes: 'v2',
      size: data.length,
    });
    expect((await api(server, 'DELETE', `models/${id}/versions/2`, { token: demo })).status).toBe(200);
  });

  it('deploys a version: the device downloads, verifies and installs it and the server follows', async () => {
    const { id: ownerId } = await server.seed.ensureUser({
      email: 'demo@models.test',
      password: 'demo-pass-1',
    });
    const device = await server.seed.ensureDevice({ ownerId, label: 'Models box', chipsetId: '0' });
    const token = await server.seed.issueDeviceToken(device.id);
    const mine = await api(server, 'GET', 'models?search=people', { token: demo });
    const model = mine.body.data[0];
    const deploy = await api(server, 'POST', `models/${model.id}/deploy`, {
      token: demo,
      body: { version: 1, device_id: device.device_id },
    });
    expect(deploy.status).toBe(200);
    expect(deploy.body).toMatchObject({ state: 'queued', device_label: 'Models box', version: 1 });

    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'models-agent-'));
    try {
      // A partial file from an earlier, broken try: the device resumes it with a Range request.
      const full = Buffer.from(
        await (
          await fetch(`${server.url}/api/models/${model.id}/versions/1/file`, {
            headers: { authorization: `Token ${demo}` },
          })
        ).arrayBuffer(),
      );
      const partialDir = path.join(stateDir, 'models', '.partial');
      mkdirSync(partialDir, { recursive: true });
      writeFileSync(path.join(partialDir, `${deploy.body.id}.part`), full.subarray(0, 100_000));
      const ranges: string[] = [];
      const spyFetch: typeof fetch = (input, init) => {
        const range = new Headers(init?.headers).get('range');
        if (range) ranges.push(range);
        return fetch(input, init);
      };
      const part = createDeviceModels(
        {
          mode: 'host',
          backend: { kind: 'x86' } as Backend,
          deviceId: device.device_id,
          label: 'Models box',
          stateDir,
          log: silentLogger,
          broadcast: () => undefined,
          server: { url: server.url, token },
        },
        { fetch: spyFetch },
      );
      const progress: ModelDownload[] = [];
      const installed = await part.deploy(deploy.body.id, (d) => progress.push(d));
      expect(ranges).toEqual(['bytes=100000-']);
      expect(installed).toMatchObject({ model_id: model.id, version: 1, sha256: model.latest.sha256 });
      expect(progress.map((p) => p.state)).toContain('downloading');
      expect(progress.at(-1)?.state).toBe('installed');
      expect(existsSync(path.join(stateDir, 'models', model.id, 'v1', 'people-detector.onnx'))).toBe(true);
      expect((await part.installed()).map((m) => m.model_id)).toEqual([model.id]);
      expect(part.downloads()[0]).toMatchObject({ state: 'installed', bytes_done: full.length });

      const list = await api(server, 'GET', 'model-deployments', { token: demo });
      expect(list.body.deployments[0]).toMatchObject({
        id: deploy.body.id,
        state: 'installed',
        bytes_done: full.length,
        bytes_total: full.length,
      });
      expect((await api(server, 'GET', 'model-deployments', { token: other })).body.deployments).toEqual([]);
      expect(await part.remove(model.id, 1)).toBe(true);
      expect(await part.installed()).toEqual([]);
      await part.close();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  it('deletes a model with its files; another user cannot', async () => {
    const mine = await api(server, 'GET', 'models?kind=llm', { token: demo });
    const id = mine.body.data[0].id as string;
    expect((await api(server, 'DELETE', `models/${id}`, { token: other })).status).toBe(404);
    expect((await api(server, 'DELETE', `models/${id}`, { token: demo })).status).toBe(200);
    expect(existsSync(path.join(server.dataDir, 'models', id))).toBe(false);
    expect((await api(server, 'GET', `models/${id}`, { token: demo })).status).toBe(404);
  });
});

describe('deployment state shown', () => {
  const row = { state: 'downloading', errorCode: null, errorMessage: null };
  it('shows a download whose device stopped reporting as failed (stale), and leaves final ones alone', () => {
    const now = Date.parse('2026-11-26T12:00:00Z');
    const old = new Date(now - DEPLOY_STALE_MS - 1);
    expect(shownState({ ...row, updatedAt: new Date(now - 1000) }, now)).toEqual({
      state: 'downloading',
      error: null,
    });
    expect(shownState({ ...row, updatedAt: old }, now)).toEqual({
      state: 'failed',
      error: { code: 'stale', message: 'The device stopped reporting this download.' },
    });
    expect(shownState({ ...row, state: 'installed', updatedAt: old }, now).state).toBe('installed');
    expect(
      shownState(
        { ...row, state: 'failed', errorCode: 'checksumMismatch', errorMessage: 'differs', updatedAt: old },
        now,
      ).error,
    ).toEqual({ code: 'checksumMismatch', message: 'differs' });
  });
});
