/**
 * Issue 15 "tokens never in URLs or logs" for the browser's signalling token, on a real server: POST
 * get_browser_token sets the HttpOnly cookie `edge_sig_<browser_id>` (Path=/peerjs, SameSite=Strict, short
 * Max-Age) and the PeerJS upgrade registers a browser with that cookie only: without it 401, with another
 * peer id's cookie 401, and a browser token in the URL 401 even next to a good cookie. Request log lines
 * carry no credential from the query string.
 */
import { Writable } from 'node:stream';
import Fastify from 'fastify';
import { decodeJwt } from 'jose';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_TOKEN_EXPIRY_S } from '../../../src/protocol';
import { LOG_SERIALIZERS, redactUrl } from '../../../src/server/errors';
import { login, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let alice: string;
const TAB_A = 'web-cookie0000000000a';
const TAB_B = 'web-cookie0000000000b';

beforeAll(async () => {
  server = await startTestServer();
  await server.seed.ensureUser({ email: 'alice@example.com', password: 'alice-pw-1' });
  alice = (await login(server, 'alice@example.com', 'alice-pw-1')).token;
});
afterAll(async () => {
  await server?.dispose();
});

/** POST get_browser_token for `browserId`: the answer's Set-Cookie header and body token. */
async function mint(browserId: string): Promise<{ setCookie: string; token: string; cookie: string }> {
  const res = await fetch(`${server.url}/api/get_browser_token`, {
    method: 'POST',
    headers: { authorization: `Token ${alice}`, 'content-type': 'application/json' },
    body: JSON.stringify({ browser_id: browserId }),
  });
  expect(res.status).toBe(200);
  const body = (await res.json()) as { token: string };
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { setCookie, token: body.token, cookie: setCookie.split(';')[0]! };
}

/** Opens `/peerjs/peerjs?key=peerjs&id=…&token=<urlToken>` with `cookie`; OPEN or the refusal status. */
function upgrade(id: string, cookie: string | null, urlToken = `r${Math.random().toString(36).slice(2)}`) {
  const params = new URLSearchParams({ key: 'peerjs', id, token: urlToken });
  const ws = new WebSocket(`${server.url.replace('http', 'ws')}/peerjs/peerjs?${params}`, {
    headers: cookie ? { cookie } : {},
  });
  return new Promise<{ status: number; first?: unknown }>((resolve, reject) => {
    ws.on('unexpected-response', (_req, res) => {
      resolve({ status: res.statusCode ?? 0 });
      ws.terminate();
    });
    ws.once('message', (data) => {
      resolve({ status: 101, first: JSON.parse(String(data)) });
      ws.close();
    });
    ws.on('error', reject);
  });
}

describe('signalling cookie (issue 15: no token in the PeerJS URL)', () => {
  it('get_browser_token sets an HttpOnly, SameSite=Strict cookie for that peer id under /peerjs', async () => {
    const { setCookie, token } = await mint(TAB_A);
    expect(setCookie).toBe(
      `edge_sig_${TAB_A}=${token}; Path=/peerjs; Max-Age=${BROWSER_TOKEN_EXPIRY_S}; HttpOnly; SameSite=Strict`,
    );
    expect(BROWSER_TOKEN_EXPIRY_S).toBeLessThanOrEqual(120);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ typ: 'browser', browser_id: TAB_A });
    expect(claims.exp! - claims.iat!).toBe(BROWSER_TOKEN_EXPIRY_S);
  });

  it('registers a browser with its cookie and a random PeerJS token in the URL', async () => {
    const { cookie } = await mint(TAB_A);
    expect(await upgrade(TAB_A, cookie)).toEqual({ status: 101, first: { type: 'OPEN' } });
  });

  it('refuses the upgrade with 401 without the cookie', async () => {
    expect(await upgrade(TAB_A, null)).toEqual({ status: 401 });
    expect(await upgrade(TAB_A, 'edge_sig_=x; other=1')).toEqual({ status: 401 });
  });

  it("refuses another peer id's cookie with 401, under its own name or renamed", async () => {
    const a = await mint(TAB_A);
    // Tab B's socket gets only tab A's cookie (another name): nothing for B.
    expect(await upgrade(TAB_B, a.cookie)).toEqual({ status: 401 });
    // Tab A's token under tab B's cookie name: its browser_id is A.
    expect(await upgrade(TAB_B, `edge_sig_${TAB_B}=${a.token}`)).toEqual({ status: 401 });
    // Two tabs' cookies side by side do not clobber each other: each registers its own id.
    const b = await mint(TAB_B);
    const both = `${a.cookie}; ${b.cookie}`;
    expect(await upgrade(TAB_A, both)).toEqual({ status: 101, first: { type: 'OPEN' } });
    expect(await upgrade(TAB_B, both)).toEqual({ status: 101, first: { type: 'OPEN' } });
  });

  it('refuses a browser token in the URL, even with a valid cookie', async () => {
    const { cookie, token } = await mint(TAB_A);
    expect(await upgrade(TAB_A, null, token)).toEqual({ status: 401 });
    expect(await upgrade(TAB_A, cookie, token)).toEqual({ status: 401 });
  });

  it('refuses an access token in the cookie', async () => {
    expect(await upgrade(TAB_A, `edge_sig_${TAB_A}=${alice}`)).toEqual({ status: 401 });
  });
});

describe('request log lines (issue 15: tokens never in logs)', () => {
  it('redacts credential query parameters and keeps the rest', () => {
    expect(redactUrl('/peerjs/peerjs?key=peerjs&id=web-1&token=eyJhbGciOi.x.y')).toBe(
      '/peerjs/peerjs?key=peerjs&id=web-1&token=[redacted]',
    );
    expect(redactUrl('/api/x?access_token=abc&refresh_token=def&grant=g&page=2#frag')).toBe(
      '/api/x?access_token=[redacted]&refresh_token=[redacted]&grant=[redacted]&page=2#frag',
    );
    expect(redactUrl('/api/get_devices?page=1')).toBe('/api/get_devices?page=1');
    expect(redactUrl('/api/token/path')).toBe('/api/token/path');
  });

  it("Fastify's request log with the server's serializers carries no token from the URL", async () => {
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk, _enc, done) {
        lines.push(String(chunk));
        done();
      },
    });
    const app = Fastify({ logger: { level: 'info', serializers: LOG_SERIALIZERS, stream } });
    app.get('/peerjs/*', async () => ({ ok: true }));
    const secret = 'eyJhbGciOiJFZERTQSJ9.eyJ0eXAiOiJicm93c2VyIn0.c2lnbmF0dXJl';
    await app.inject({ method: 'GET', url: `/peerjs/peerjs/id?key=peerjs&token=${secret}` });
    await app.close();
    const logged = lines.join('');
    expect(logged).toContain('/peerjs/peerjs/id?key=peerjs&token=[redacted]');
    expect(logged).not.toContain(secret);
  });
});
