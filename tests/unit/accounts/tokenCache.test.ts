/**
 * TokenSigner remembers verified tokens (src/server/auth/tokens.ts): a remembered token still expires at its
 * `exp`, is still refused for another `typ`, and a changed token (one character) is verified again and refused.
 */
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from 'jose';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SIGNING_ALG } from '../../../src/server/auth/keys';
import { TokenError, TokenSigner } from '../../../src/server/auth/tokens';

async function signer(): Promise<TokenSigner> {
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return new TokenSigner({ kid, privateKey, publicKey, publicJwk: { ...publicJwk, kid } });
}

const reasonOf = (p: Promise<unknown>) =>
  p.then(
    () => 'ok',
    (err: unknown) => (err instanceof TokenError ? err.reason : String(err)),
  );

afterEach(() => {
  vi.useRealTimers();
});

describe('verified token cache', () => {
  it('a remembered token expires at its exp', async () => {
    const tokens = await signer();
    const { token, exp } = await tokens.sign({ typ: 'access', sub: 'u1' }, 60);
    expect((await tokens.verify(token, 'access')).sub).toBe('u1');
    expect((await tokens.verify(token, 'access')).sub).toBe('u1'); // from the cache
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime((exp - 1) * 1000);
    expect(await reasonOf(tokens.verify(token, 'access'))).toBe('ok');
    vi.setSystemTime(exp * 1000);
    expect(await reasonOf(tokens.verify(token, 'access'))).toBe('expired');
    vi.setSystemTime((exp + 5) * 1000);
    expect(await reasonOf(tokens.verify(token, 'access'))).toBe('expired');
  });

  it('a remembered token is refused for another typ', async () => {
    const tokens = await signer();
    const { token } = await tokens.sign({ typ: 'access', sub: 'u1' }, 60);
    await tokens.verify(token, 'access');
    expect(await reasonOf(tokens.verify(token, 'device'))).toBe('invalid');
    expect(await reasonOf(tokens.verify(token, 'refresh'))).toBe('invalid');
  });

  it('a token changed by one character is verified again and refused', async () => {
    const tokens = await signer();
    const { token } = await tokens.sign({ typ: 'access', sub: 'u1' }, 60);
    await tokens.verify(token, 'access');
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const changed = token.slice(0, -2) + last + token.slice(-1);
    expect(await reasonOf(tokens.verify(changed, 'access'))).toBe('invalid');
    expect(await reasonOf(tokens.verify(token, 'access'))).toBe('ok');
  });

  it("another key's token is refused even when this signer remembers others", async () => {
    const ours = await signer();
    const theirs = await signer();
    const { token: mine } = await ours.sign({ typ: 'access', sub: 'u1' }, 60);
    await ours.verify(mine, 'access');
    const { token: foreign } = await theirs.sign({ typ: 'access', sub: 'u1' }, 60);
    expect(await reasonOf(ours.verify(foreign, 'access'))).toBe('invalid');
  });
});
