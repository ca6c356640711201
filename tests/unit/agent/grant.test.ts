import { beforeAll, describe, expect, it } from 'vitest';
import { createGrantVerifier, GrantError } from '../../../src/agent/link/grant';
import type { GrantVerifier } from '../../../src/agent/link/grant';
import { makeKeys, signGrant } from './helpers';
import type { TestKeys } from './helpers';

const DEVICE = 'dev-0123456789abcdef';
const BROWSER = 'web-abcdefghijklmnop';

const refusal = async (p: Promise<unknown>) => {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(GrantError);
  return (err as GrantError).reason;
};

describe('grant verification', () => {
  let keys: TestKeys;
  let verifier: GrantVerifier;

  beforeAll(async () => {
    keys = await makeKeys();
    verifier = createGrantVerifier({ deviceId: DEVICE, jwks: keys.jwks });
  });

  it('accepts a valid grant and returns its claims', async () => {
    const jti = '6f1d2c3b-4a59-4e8f-9d7c-0b1a2c3d4e5f';
    const grant = await signGrant(keys, { device_id: DEVICE, browser_id: BROWSER, sub: 'user-7', jti });
    await expect(verifier.verify(grant, BROWSER)).resolves.toEqual({
      sub: 'user-7',
      device_id: DEVICE,
      browser_id: BROWSER,
      jti,
    });
  });

  it('takes a grant once: a second link with the same grant is refused (issue 15)', async () => {
    const grant = await signGrant(keys, { device_id: DEVICE, browser_id: BROWSER });
    await expect(verifier.verify(grant, BROWSER)).resolves.toMatchObject({ device_id: DEVICE });
    const err = await verifier.verify(grant, BROWSER).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GrantError);
    expect((err as GrantError).reason).toBe('reused');
    expect((err as GrantError).message).toBe('The grant has been used already; ask the server for a new one');
    // A new grant for the same browser and device is taken.
    const next = await signGrant(keys, { device_id: DEVICE, browser_id: BROWSER });
    await expect(verifier.verify(next, BROWSER)).resolves.toMatchObject({ browser_id: BROWSER });
  });

  it('refuses a grant without a jti or with an oversized browser id', async () => {
    const noJti = await signGrant(keys, { device_id: DEVICE, browser_id: BROWSER, jti: '' });
    expect(await refusal(verifier.verify(noJti, BROWSER))).toBe('invalid');
    const huge = 'w'.repeat(65);
    const big = await signGrant(keys, { device_id: DEVICE, browser_id: huge });
    expect(await refusal(verifier.verify(big, huge))).toBe('invalid');
  });

  it('refuses an expired grant', async () => {
    const grant = await signGrant(
      keys,
      { device_id: DEVICE, browser_id: BROWSER },
      Math.floor(Date.now() / 1000) - 60,
    );
    expect(await refusal(verifier.verify(grant, BROWSER))).toBe('expired');
  });

  it('refuses a grant for another device', async () => {
    const grant = await signGrant(keys, { device_id: 'dev-ffffffffffffffff', browser_id: BROWSER });
    expect(await refusal(verifier.verify(grant, BROWSER))).toBe('wrong_device');
  });

  it('refuses a grant presented by another browser', async () => {
    const grant = await signGrant(keys, { device_id: DEVICE, browser_id: BROWSER });
    expect(await refusal(verifier.verify(grant, 'web-someoneelse0000'))).toBe('wrong_browser');
  });

  it('refuses a grant signed by another key with the same key id', async () => {
    const other = await makeKeys(keys.kid);
    const grant = await signGrant(other, { device_id: DEVICE, browser_id: BROWSER });
    expect(await refusal(verifier.verify(grant, BROWSER))).toBe('bad_signature');
  });

  it('refuses a token of another type', async () => {
    const grant = await signGrant(keys, { device_id: DEVICE, browser_id: BROWSER, typ: 'access' });
    expect(await refusal(verifier.verify(grant, BROWSER))).toBe('invalid');
  });

  it('refuses text that is not a JWT', async () => {
    expect(await refusal(verifier.verify('not-a-jwt', BROWSER))).toBe('invalid');
  });

  it('refetches the key set once when a grant names an unknown key id', async () => {
    const rotated = await makeKeys('test-key-2');
    let fetches = 0;
    const v = createGrantVerifier({
      deviceId: DEVICE,
      jwks: keys.jwks,
      refetchJwks: async () => {
        fetches++;
        return { keys: [...keys.jwks.keys, ...rotated.jwks.keys] };
      },
    });
    const grant = await signGrant(rotated, { device_id: DEVICE, browser_id: BROWSER });
    await expect(v.verify(grant, BROWSER)).resolves.toMatchObject({ device_id: DEVICE });
    expect(fetches).toBe(1);
  });

  it('refuses a grant whose key id stays unknown after refetching', async () => {
    const stranger = await makeKeys('unknown-key');
    const v = createGrantVerifier({ deviceId: DEVICE, jwks: keys.jwks, refetchJwks: async () => keys.jwks });
    const grant = await signGrant(stranger, { device_id: DEVICE, browser_id: BROWSER });
    expect(await refusal(v.verify(grant, BROWSER))).toBe('bad_signature');
  });
});
