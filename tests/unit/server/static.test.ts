/** Production serving of the built console: files, SPA fallback for routes of spec §2, cache headers. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let dist: string;

beforeAll(async () => {
  dist = mkdtempSync(path.join(os.tmpdir(), 'server-dist-'));
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'index-3f2a1b.js'), 'console.log(1)');
  server = await startTestServer({ staticDir: dist });
});
afterAll(async () => {
  await server?.dispose();
  rmSync(dist, { recursive: true, force: true });
});

it('serves index.html for console routes, never cached', async () => {
  for (const route of ['/', '/dashboard', '/control-panel/cameras?x=1']) {
    const res = await fetch(server.url + route);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/text\/html/);
    expect(res.headers.get('cache-control')).toBe('no-cache');
    expect(await res.text()).toContain('id="root"');
  }
});

it('serves hashed assets with a long immutable cache', async () => {
  const res = await fetch(server.url + '/assets/index-3f2a1b.js');
  expect(res.status).toBe(200);
  expect(res.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
});

it('answers a missing asset and unknown API paths with 404 JSON, not the page', async () => {
  for (const route of ['/assets/index-missing.js', '/api/nothing-here']) {
    const res = await fetch(server.url + route);
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 'Not_found' });
  }
});
