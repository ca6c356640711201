/**
 * API key hashing and scope rules (issue 13 keys-secrets; src/server/profile/apiKeys.ts): the recognisable
 * prefix, SHA-256 at rest, the shown prefix, states (active, expired, revoked) and which calls each scope may
 * make — read: GET/HEAD only; full: anything but admin routes, key management and two-factor settings.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { restRoutes } from '../../../src/protocol/routes';
import {
  hashApiKey,
  isApiKey,
  keyState,
  KEY_FORBIDDEN_ROUTES,
  newApiKey,
  scopeProblem,
} from '../../../src/server/profile/apiKeys';

describe('API key secrets', () => {
  it('are edk_ + 32 random bytes, stored as their SHA-256 only, shown by their first 12 characters', () => {
    const a = newApiKey();
    const b = newApiKey();
    expect(a.secret).toMatch(/^edk_[A-Za-z0-9_-]{43}$/);
    expect(a.secret).not.toBe(b.secret);
    expect(a.hash).toBe(createHash('sha256').update(a.secret).digest('hex'));
    expect(a.hash).not.toContain(a.secret.slice(4));
    expect(a.prefix).toBe(a.secret.slice(0, 12));
    expect(hashApiKey(a.secret)).toBe(a.hash);
    expect(isApiKey(a.secret)).toBe(true);
    expect(isApiKey('eyJhbGciOiJFZERTQSJ9.x.y')).toBe(false);
  });

  it('have a state: revoked wins, then expiry at its instant, else active', () => {
    const now = new Date('2026-11-27T12:00:00Z');
    expect(keyState({ revokedAt: null, expiresAt: null }, now)).toBe('active');
    expect(keyState({ revokedAt: null, expiresAt: new Date('2026-11-27T12:00:01Z') }, now)).toBe('active');
    expect(keyState({ revokedAt: null, expiresAt: now }, now)).toBe('expired');
    expect(keyState({ revokedAt: now, expiresAt: new Date('2020-01-01Z') }, now)).toBe('revoked');
  });
});

describe('scopes', () => {
  const routes = Object.entries(restRoutes) as [string, (typeof restRoutes)[keyof typeof restRoutes]][];
  const call = (name: keyof typeof restRoutes) => ({
    method: restRoutes[name].method,
    url: restRoutes[name].path,
  });

  it('a read key may make every GET call a user may make, and no other', () => {
    for (const [name, route] of routes) {
      const problem = scopeProblem('read', { method: route.method, url: route.path });
      const allowed = route.method === 'GET' && route.auth !== 'admin' && !KEY_FORBIDDEN_ROUTES.has(name);
      expect(problem === null, `${name} ${route.method}`).toBe(allowed);
    }
  });

  it('a full key may write, but never call admin routes, mint or revoke keys, or change two-factor', () => {
    expect(scopeProblem('full', call('profile.update'))).toBeNull();
    expect(scopeProblem('full', call('devices.generateToken'))).toBeNull();
    expect(scopeProblem('full', call('profile.createApiKey'))).toMatch(/cannot manage/);
    expect(scopeProblem('full', call('profile.revokeApiKey'))).toMatch(/cannot manage/);
    expect(scopeProblem('full', call('accounts.twoFactorDisable'))).toMatch(/cannot manage/);
    expect(scopeProblem('full', call('mail.mailbox'))).toMatch(/admin/);
    for (const [name, route] of routes) {
      if (route.auth === 'admin')
        expect(scopeProblem('full', { method: route.method, url: route.path }), name).not.toBeNull();
    }
  });

  it('calls outside the route table (the tus endpoint) follow the method rule', () => {
    expect(scopeProblem('read', { method: 'PATCH', url: '/api/uploads/:id' })).toMatch(/read-only/);
    expect(scopeProblem('read', { method: 'HEAD', url: '/api/uploads/:id' })).toBeNull();
    expect(scopeProblem('full', { method: 'POST', url: '/api/uploads' })).toBeNull();
    expect(scopeProblem('read', { method: 'POST', url: null })).toMatch(/read-only/);
  });
});

describe('avatar check', () => {
  it('knows PNG, JPEG, GIF and WebP by their bytes, nothing else', async () => {
    const { sniffImageType } = await import('../../../src/server/profile/avatar');
    expect(sniffImageType(Buffer.from('89504e470d0a1a0a0000', 'hex'))).toBe('image/png');
    expect(sniffImageType(Buffer.from('ffd8ffe000104a46', 'hex'))).toBe('image/jpeg');
    expect(sniffImageType(Buffer.from('GIF89a....', 'latin1'))).toBe('image/gif');
    expect(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ', 'latin1'))).toBe('image/webp');
    expect(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg">', 'utf8'))).toBeNull();
    expect(sniffImageType(Buffer.from('PK\x03\x04', 'latin1'))).toBeNull();
    expect(sniffImageType(new Uint8Array())).toBeNull();
  });
});

describe('authenticateApiKey', () => {
  const { secret, hash } = newApiKey();
  const user = { id: 'u1', email: 'pat@example.com' };
  const row = (over: Record<string, unknown> = {}) => ({
    id: 'k1',
    userId: 'u1',
    name: 'ci',
    scope: 'read',
    prefix: secret.slice(0, 12),
    secretHash: hash,
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: new Date('2026-11-01Z'),
    ...over,
  });
  /** A stand-in for the two statements authenticateApiKey makes (the lookup by hash, the last-use update). */
  function fakeDb(found: ReturnType<typeof row> | null) {
    const updates: unknown[] = [];
    const chain = (result: unknown) => {
      const c: Record<string, unknown> = {};
      for (const m of ['from', 'innerJoin', 'where', 'set']) c[m] = () => c;
      c.limit = async () => result;
      c.then = (resolve: (v: unknown) => void) => resolve(result);
      return c;
    };
    const db = {
      select: () => chain(found ? [{ key: found, user }] : []),
      update: () => {
        updates.push(1);
        return chain(undefined);
      },
    };
    return { db: db as never, updates };
  }
  const now = new Date('2026-11-27T12:00:00Z');
  const get = { method: 'GET', routeOptions: { url: '/api/user-info' } };

  it('answers the user of an active key and records its use', async () => {
    const { db, updates } = fakeDb(row());
    const { authenticateApiKey } = await import('../../../src/server/profile/apiKeys');
    await expect(authenticateApiKey(db, secret, get, now)).resolves.toMatchObject({ user: { id: 'u1' } });
    expect(updates).toHaveLength(1);
  });

  it('refuses unknown (401 Api_key_invalid), revoked, expired (401) and out-of-scope (403) keys', async () => {
    const { authenticateApiKey } = await import('../../../src/server/profile/apiKeys');
    const refusal = (db: never, request = get) =>
      authenticateApiKey(db, secret, request, now).then(
        () => null,
        (e: { statusCode: number; code: string }) => `${e.statusCode} ${e.code}`,
      );
    expect(await refusal(fakeDb(null).db)).toBe('401 Api_key_invalid');
    expect(await refusal(fakeDb(row({ revokedAt: now })).db)).toBe('401 Api_key_revoked');
    expect(await refusal(fakeDb(row({ expiresAt: new Date('2026-11-27T11:59:59Z') })).db)).toBe(
      '401 Api_key_expired',
    );
    expect(await refusal(fakeDb(row()).db, { method: 'PUT', routeOptions: { url: '/api/user' } })).toBe(
      '403 Api_key_scope',
    );
    const full = fakeDb(row({ scope: 'full' }));
    expect(await refusal(full.db, { method: 'PUT', routeOptions: { url: '/api/user' } })).toBeNull();
  });
});
