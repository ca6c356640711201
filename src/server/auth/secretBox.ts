/**
 * Secrets the server keeps for users and hands only to their devices (IP camera passwords, issue 16 §2 "credentials
 * kept server-side"): sealed with AES-256-GCM under a key derived from the server's signing key
 * (deriveServerKey 'secret box v1'). Sealed text: `v1.<base64url(iv 12 B | tag 16 B | ciphertext)>`.
 * `open` throws on a tampered or foreign value.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import type { Db } from '../db';
import { deriveServerKey } from './keys';

export interface SecretBox {
  seal(plain: string): string;
  /** @throws Error when `sealed` was not sealed by this server's key (or was changed). */
  open(sealed: string): string;
}

const boxes = new WeakMap<Db, Promise<SecretBox>>();

/** The secret box of the server behind `db` (one per database handle). */
export function secretBox(db: Db): Promise<SecretBox> {
  let box = boxes.get(db);
  if (!box) {
    box = deriveServerKey(db, 'secret box v1').then(boxWithKey);
    boxes.set(db, box);
  }
  return box;
}

export function boxWithKey(key: Buffer): SecretBox {
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
    },
    open(sealed) {
      if (!sealed.startsWith('v1.')) throw new Error('not a sealed secret');
      const raw = Buffer.from(sealed.slice(3), 'base64url');
      if (raw.length < 28) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}
