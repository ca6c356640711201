/**
 * The agent release routes (src/server/routes/software.ts): an admin publishes a bundle as the raw body
 * (sha256 computed, file kept under the data directory), devices and users list them newest first and
 * download a bundle; the refusals (401, 403 before anything is read, 400 bad version / empty / not gzip /
 * JSON body, 409 duplicate, 404 unknown version); and a host software part with a device token that
 * downloads, verifies and installs a published release from this real server.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Backend } from '../../../src/agent/backends/types';
import { silentLogger } from '../../../src/agent/log';
import { createDeviceSoftware } from '../../../src/agent/software';
import { buildBundle } from '../../../src/server/routes/software';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

let server: TestServer;
let admin: string;
let user: string;

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({
    email: 'admin@rel.test',
    password: 'admin-pass-1',
    roles: ['admin', 'user'],
  });
  await server.seed.ensureUser({ email: 'user@rel.test', password: 'user-pass-1' });
  admin = (await login(server, 'admin@rel.test', 'admin-pass-1')).token;
  user = (await login(server, 'user@rel.test', 'user-pass-1')).token;
}, 60_000);
afterAll(() => server?.dispose());

async function publish(
  token: string | null,
  query: string,
  body: Buffer | string,
  type = 'application/octet-stream',
) {
  const res = await fetch(`${server.url}/api/agent-releases?${query}`, {
    method: 'POST',
    headers: { 'content-type': type, ...(token ? { authorization: `Token ${token}` } : {}) },
    body: typeof body === 'string' ? body : new Uint8Array(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('agent releases', () => {
  it('an admin publishes a bundle; it is listed, newest first, and downloads byte for byte', async () => {
    const bytes = await buildBundle({ 'release.json': JSON.stringify({ version: '1.2.0' }) });
    const older = await buildBundle({ 'release.json': JSON.stringify({ version: '1.10.0-rc.1' }) });
    const res = await publish(admin, 'version=1.2.0&notes=Faster%20start', bytes);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      version: '1.2.0',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
      notes: 'Faster start',
      file_name: 'edge-agent-1.2.0.tar.gz',
    });
    expect(existsSync(path.join(server.dataDir, 'agent-releases', '1.2.0.tar.gz'))).toBe(true);
    expect((await publish(admin, 'version=1.10.0-rc.1', older)).status).toBe(200);

    const list = await api(server, 'GET', 'agent-releases', { token: user });
    expect(list.status).toBe(200);
    expect(list.body.releases.map((r: { version: string }) => r.version)).toEqual(['1.10.0-rc.1', '1.2.0']);
    const latest = await api(server, 'GET', 'agent-releases/latest', { token: user });
    expect(latest.body.release.version).toBe('1.10.0-rc.1');

    const dl = await fetch(`${server.url}/api/agent-releases/1.2.0/bundle`, {
      headers: { authorization: `Token ${user}` },
    });
    expect(dl.status).toBe(200);
    expect(dl.headers.get('content-type')).toBe('application/gzip');
    expect(dl.headers.get('x-content-sha256')).toBe(res.body.sha256);
    expect(Buffer.from(await dl.arrayBuffer()).equals(bytes)).toBe(true);
  });

  it('refuses with clear 4xx answers and keeps nothing', async () => {
    const bytes = await buildBundle({ 'a.txt': 'a' });
    expect((await publish(null, 'version=2.0.0', bytes)).status).toBe(401);
    const forbidden = await publish(user, 'version=2.0.0', bytes);
    expect(forbidden.status).toBe(403);
    const bad = await publish(admin, 'version=v2', bytes);
    expect(bad.status).toBe(400);
    expect(String(bad.body.message)).toMatch(/semantic version/);
    expect((await publish(admin, 'version=2.0.0', Buffer.alloc(0))).status).toBe(400);
    const notGzip = await publish(admin, 'version=2.0.0', Buffer.from('plain text'));
    expect(notGzip.status).toBe(400);
    expect(String(notGzip.body.message)).toMatch(/gzip/);
    const json = await publish(admin, 'version=2.0.0', '{"a":1}', 'application/json');
    expect(json.status).toBe(400);
    expect(String(json.body.message)).toMatch(/octet-stream/);
    // Another route refuses a raw body with a clear 415, without reading it.
    const other = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/octet-stream' },
      body: new Uint8Array(bytes),
    });
    expect(other.status).toBe(415);
    expect(await other.json()).toMatchObject({ code: 'Unsupported_media_type' });
    const dup = await publish(admin, 'version=1.2.0', bytes);
    expect(dup.status).toBe(409);
    expect((await api(server, 'GET', 'agent-releases/9.9.9/bundle', { token: user })).status).toBe(404);
    expect((await api(server, 'GET', 'agent-releases/latest')).status).toBe(401);
    const files = (await import('node:fs')).readdirSync(path.join(server.dataDir, 'agent-releases'));
    expect(files.filter((f) => f.startsWith('.upload-'))).toEqual([]);
    expect(files).not.toContain('2.0.0.tar.gz');
  });

  it('a host agent with its device token downloads, verifies and installs the newest release for real', async () => {
    const { id: ownerId } = await server.seed.ensureUser({
      email: 'owner@rel.test',
      password: 'owner-pass-1',
    });
    const device = await server.seed.ensureDevice({ ownerId, label: 'Host box', chipsetId: '0' });
    const token = await server.seed.issueDeviceToken(device.id);
    const stateDir = mkdtempSync(path.join(os.tmpdir(), 'software-host-'));
    try {
      const sw = createDeviceSoftware(
        {
          mode: 'host',
          backend: { kind: 'x86' } as Backend,
          deviceId: device.device_id,
          label: 'Host box',
          stateDir,
          log: silentLogger,
          broadcast: () => undefined,
          server: { url: server.url, token },
        },
        { baseVersion: '0.1.0', freeBytes: async () => 20 * 1024 ** 3 },
      );
      const check = await sw.checkVersion();
      expect(check).toMatchObject({ current: '0.1.0', update_available: true });
      expect(check.latest?.version).toBe('1.10.0-rc.1');
      await expect(sw.update('1.2.0')).resolves.toEqual({ version: '1.2.0' });
      expect(readlinkSync(path.join(stateDir, 'current'))).toBe(path.join('releases', '1.2.0'));
      expect(existsSync(path.join(stateDir, 'current', 'release.json'))).toBe(true);
      await sw.close();
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
