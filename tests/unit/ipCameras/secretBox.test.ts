/**
 * The sealing of IP camera passwords (src/server/auth/secretBox.ts, used by src/server/routes/ipCameras.ts):
 * the sealed text never contains the password, each seal differs (random IV), and a changed or foreign value
 * does not open.
 */
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { boxWithKey } from '../../../src/server/auth/secretBox';

describe('secret box', () => {
  const box = boxWithKey(randomBytes(32));

  it('round-trips, never shows the password and seals differently each time', () => {
    const a = box.seal('s3cret-pass');
    const b = box.seal('s3cret-pass');
    expect(a).not.toContain('s3cret');
    expect(a).not.toBe(b);
    expect(box.open(a)).toBe('s3cret-pass');
  });

  it('refuses a tampered value and one sealed with another key', () => {
    const sealed = box.seal('pw');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    raw[raw.length - 1] = (raw[raw.length - 1] as number) ^ 1;
    expect(() => box.open(`v1.${raw.toString('base64url')}`)).toThrow();
    expect(() => boxWithKey(randomBytes(32)).open(sealed)).toThrow();
    expect(() => box.open('plain')).toThrow();
  });
});
