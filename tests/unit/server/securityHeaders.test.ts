/**
 * Security headers (issue 15; OWASP ASVS 4.0 V14.4) on a real server: the console page, API answers and
 * error answers carry the Content-Security-Policy and the other headers; a foreign Origin gets no CORS access;
 * /remote/* (a device's own web application through the tunnel) is left with its own headers.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_MAP_TILE_URL } from '../../../src/protocol/map';
import { consolePolicy, tileSource } from '../../../src/server/securityHeaders';
import { startTestServer, type TestServer } from './helpers';

let server: TestServer;
let staticDir: string;

beforeAll(async () => {
  staticDir = mkdtempSync(path.join(os.tmpdir(), 'headers-static-'));
  writeFileSync(path.join(staticDir, 'index.html'), '<!doctype html><title>console</title>');
  server = await startTestServer({ staticDir });
});
afterAll(async () => {
  await server?.dispose();
  rmSync(staticDir, { recursive: true, force: true });
});

/** The policy's directives by name. */
const directives = (csp: string | null) =>
  Object.fromEntries(
    (csp ?? '')
      .split(';')
      .map((d) => d.trim().split(/\s+/))
      .filter((d) => d[0])
      .map(([name, ...sources]) => [name, sources]),
  );

function expectHardened(res: Response) {
  const csp = directives(res.headers.get('content-security-policy'));
  expect(csp['default-src']).toEqual(["'self'"]);
  expect(csp['script-src']).toEqual(["'self'", "'wasm-unsafe-eval'"]);
  expect(csp['frame-ancestors']).toEqual(["'none'"]);
  expect(csp['object-src']).toEqual(["'none'"]);
  expect(csp['connect-src']).toEqual(["'self'", 'blob:']);
  expect(csp['img-src']).toContain('https://tile.openstreetmap.org');
  // Reached over plain HTTP on a LAN address: nothing may be upgraded to HTTPS behind the user's back.
  expect(csp).not.toHaveProperty('upgrade-insecure-requests');
  expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  expect(res.headers.get('x-frame-options')).toBe('DENY');
  expect(res.headers.get('referrer-policy')).toBe('no-referrer');
  expect(res.headers.get('cross-origin-opener-policy')).toBe('same-origin');
  expect(res.headers.get('access-control-allow-origin')).toBeNull();
}

describe('security headers', () => {
  it('the console page carries them', async () => {
    const res = await fetch(`${server.url}/control-panel/cameras`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>console</title>');
    expectHardened(res);
  });

  it('API answers and error answers carry them', async () => {
    expectHardened(await fetch(`${server.url}/api/health`));
    const missing = await fetch(`${server.url}/api/no-such-route`);
    expect(missing.status).toBe(404);
    expectHardened(missing);
    const bad = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"email": 1',
    });
    expect(bad.status).toBe(400);
    expectHardened(bad);
  });

  it('a foreign Origin gets no CORS access, not even to a preflight', async () => {
    const origin = 'https://attacker.example';
    const preflight = await fetch(`${server.url}/api/login`, {
      method: 'OPTIONS',
      headers: {
        origin,
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,authorization',
      },
    });
    expect(preflight.headers.get('access-control-allow-origin')).toBeNull();
    expect(preflight.headers.get('access-control-allow-headers')).toBeNull();
    const post = await fetch(`${server.url}/api/login`, {
      method: 'POST',
      headers: { origin, 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'nobody@example.com', password: 'x'.repeat(12) }),
    });
    expect(post.headers.get('access-control-allow-origin')).toBeNull();
    expect(post.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('/remote/* answers (a device application through the tunnel) keep their own headers', async () => {
    const res = await fetch(`${server.url}/remote/dev-1/8888/`);
    expect(res.headers.get('content-security-policy')).toBeNull();
  });
});

describe('the policy', () => {
  it('allows the map tile server’s origin for images', () => {
    expect(tileSource(DEFAULT_MAP_TILE_URL)).toBe('https://tile.openstreetmap.org');
    expect(tileSource('https://{s}.tiles.example.org/{z}/{x}/{y}.png')).toBe('https://*.tiles.example.org');
    expect(tileSource('http://10.0.0.5:8080/{z}/{x}/{y}.png')).toBe('http://10.0.0.5:8080');
    expect(tileSource('/tiles/{z}/{x}/{y}.png')).toBeNull();
    expect(consolePolicy('/tiles/{z}/{x}/{y}.png')['img-src']).toEqual(["'self'", 'data:', 'blob:']);
  });
});
