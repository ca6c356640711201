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
