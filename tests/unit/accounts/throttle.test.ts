/**
 * Throttles on the auth routes (issue 15): sign-in per client address and on the whole server as well as per
 * (address, e-mail), new_access_token per address — 429 Rate_limited with Retry-After — and an unknown e-mail's
 * sign-in runs the same password hash verification as a known one (src/server/auth/throttle.ts, passwords.ts).
 */
import * as argon2 from '@node-rs/argon2';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../server/helpers';

vi.mock('@node-rs/argon2', async (importOriginal) => {
  const original = await importOriginal<typeof import('@node-rs/argon2')>();
  return { ...original, verify: vi.fn(original.verify) };
});

const PASSWORD = 'correct horse battery';

/** POST /api/{path} with a JSON body; answers status, Retry-After and body. */
async function post(server: TestServer, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.url}/api/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    retryAfter: res.headers.get('retry-after'),
    body: (await res.json()) as { code?: string; message?: string },
  };
}

function expectRateLimited(answer: Awaited<ReturnType<typeof post>>) {
  expect(answer.status).toBe(429);
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBeLessThanOrEqual(60);
  expect(answer.body.code).toBe('Rate_limited');
  expect(answer.body.message).toMatch(/^Too many attempts\. Try again in \d+ (seconds?|minutes?)\.$/);
}

describe('sign-in throttled per client address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      loginRateLimitPerMin: 100,
      loginIpRateLimitPerMin: 5,
      loginGlobalRateLimitPerMin: 1000,
      refreshRateLimitPerMin: 3,
    });
    await server.seed.ensureUser({ email: 'ada@example.com', password: PASSWORD });
  });
  afterAll(() => server?.dispose());

  it('refuses the sixth e-mail from one address with 429 and Retry-After', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await post(server, 'login', { email: `ghost${i}@example.com`, password: 'x' });
      expect(res.status).toBe(401);
    }
    expectRateLimited(await post(server, 'login', { email: 'ghost-last@example.com', password: 'x' }));
    // The right password is refused too while the address is over its limit.
    expectRateLimited(await post(server, 'login', { email: 'ada@example.com', password: PASSWORD }));
  });

  it('throttles new_access_token per address, before the token is read', async () => {
    for (let i = 0; i < 3; i++) {
      const res = await post(server, 'new_access_token', {}, { 'refresh-token': 'not-a-token' });
      expect(res.status).toBe(401);
    }
    expectRateLimited(await post(server, 'new_access_token', {}, { 'refresh-token': 'not-a-token' }));
  });
});

describe('the other auth routes throttled per address', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ sessionRateLimitPerMin: 3 });
  });
  afterAll(() => server?.dispose());

  it('answers 429 to the fourth logout, user-info, verify-auth and register-config of a minute, before auth', async () => {
    const call = (method: string, path: string) =>
      fetch(`${server.url}/api/${path}`, { method }).then(async (res) => ({
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        body: (await res.json()) as { code?: string; message?: string },
      }));
    for (const [method, path, first] of [
      ['POST', 'logout', 200],
      ['GET', 'user-info', 401],
      ['GET', 'verify-auth', 401],
      ['GET', 'register-config', 200],
    ] as const) {
      for (let i = 0; i < 3; i++) expect((await call(method, path)).status, path).toBe(first);
      expectRateLimited(await call(method, path));
    }
  });
});

describe('sign-in throttled on the whole server', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({
      loginRateLimitPerMin: 100,
      loginIpRateLimitPerMin: 1000,
      loginGlobalRateLimitPerMin: 4,
    });
    await server.seed.ensureUser({ email: 'ada@example.com', password: PASSWORD });
  });
  afterAll(() => server?.dispose());

  it('refuses every caller once the server-wide count is reached', async () => {
    for (let i = 0; i < 4; i++) {
      expect((await post(server, 'login', { email: `ghost${i}@example.com`, password: 'x' })).status).toBe(
        401,
      );
    }
    expectRateLimited(await post(server, 'login', { email: 'ada@example.com', password: PASSWORD }));
  });
});

describe('sign-in per (address, e-mail) and the same work for unknown e-mails', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ loginRateLimitPerMin: 3 });
    await server.seed.ensureUser({ email: 'ada@example.com', password: PASSWORD });
  });
  afterAll(() => server?.dispose());

  it('verifies one argon2 hash for an unknown e-mail, as for a known one', async () => {
    const verify = vi.mocked(argon2.verify);
    verify.mockClear();
    const unknown = await post(server, 'login', { email: 'nobody@example.com', password: 'wrong-password' });
    const unknownCalls = verify.mock.calls.length;
    const known = await post(server, 'login', { email: 'ada@example.com', password: 'wrong-password' });
    const knownCalls = verify.mock.calls.length - unknownCalls;
    expect(unknown).toEqual(known);
    expect(unknown.status).toBe(401);
    expect(knownCalls).toBe(1);
    expect(unknownCalls).toBe(1);
    // The unknown e-mail's hash is a real argon2id hash, not an early answer.
    expect(String(verify.mock.calls[0]![0])).toMatch(/^\$argon2id\$/);
  });

  it('still limits one e-mail from one address', async () => {
    for (let i = 0; i < 3; i++) {
      expect((await post(server, 'login', { email: 'bob@example.com', password: 'x' })).status).toBe(401);
    }
    expectRateLimited(await post(server, 'login', { email: 'bob@example.com', password: 'x' }));
    // Another e-mail from the same address is not affected.
    expect((await post(server, 'login', { email: 'carol@example.com', password: 'x' })).status).toBe(401);
  });
});
