/**
 * Tabs sharing one stored session (src/console/features/accounts/sharedSession.ts): a tab whose refresh token
 * another tab already rotated takes the stored pair of the same user instead of presenting the old token again
 * (which the server takes as refresh-token reuse and answers by ending the session).
 */
import { describe, expect, it } from 'vitest';
import { rotatedElsewhere, subjectOf } from '../../../src/console/features/accounts/sharedSession';

/** An unsigned JWT-shaped token with these claims (the console never checks signatures). */
const jwt = (claims: Record<string, unknown>) =>
  `eyJhbGciOiJFZERTQSJ9.${btoa(JSON.stringify(claims)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_')}.c2ln`;

const ANA = '7d2b6a0e-1c1f-4d8e-9a51-2f0c6f1b9e01';
const BOB = '0f9e8d7c-6b5a-4c3d-8e2f-1a0b9c8d7e6f';
const oldRefresh = jwt({ typ: 'refresh', sub: ANA, jti: 'a' });
const newRefresh = jwt({ typ: 'refresh', sub: ANA, jti: 'b' });
const newAccess = jwt({ typ: 'access', sub: ANA });

describe('subjectOf', () => {
  it('reads sub from a JWT payload, base64url with or without padding; null for anything else', () => {
    expect(subjectOf(oldRefresh)).toBe(ANA);
    // Every padding length, and payloads whose base64 has '+' and '/' (sent as '-' and '_').
    for (const sub of ['a', 'ab', 'abc', 'u~?>>>', 'ÿÿÿ']) expect(subjectOf(jwt({ sub }))).toBe(sub);
    expect(subjectOf('not-a-jwt')).toBeNull();
    expect(subjectOf('a.%%%.b')).toBeNull();
    expect(subjectOf(jwt({ sub: 42 }))).toBeNull();
    expect(subjectOf(null)).toBeNull();
  });
});

describe('rotatedElsewhere', () => {
  it('takes the stored pair when another tab rotated the same user’s token', () => {
    expect(rotatedElsewhere({ token: newAccess, refreshToken: newRefresh, user: null }, oldRefresh)).toEqual({
      token: newAccess,
      refreshToken: newRefresh,
    });
  });

  it('refreshes itself when the store holds its own token, nothing, or another user’s session', () => {
    expect(
      rotatedElsewhere({ token: newAccess, refreshToken: oldRefresh, user: null }, oldRefresh),
    ).toBeNull();
    expect(rotatedElsewhere(null, oldRefresh)).toBeNull();
    const bobs = {
      token: jwt({ sub: BOB }),
      refreshToken: jwt({ typ: 'refresh', sub: BOB, jti: 'c' }),
      user: null,
    };
    expect(rotatedElsewhere(bobs, oldRefresh)).toBeNull();
    expect(
      rotatedElsewhere({ token: newAccess, refreshToken: 'garbage', user: null }, oldRefresh),
    ).toBeNull();
    expect(rotatedElsewhere({ token: newAccess, refreshToken: newRefresh, user: null }, null)).toBeNull();
  });
});
