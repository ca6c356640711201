/**
 * The server's Ed25519 signing key (team brief "Tokens"): generated once, persisted in `server_keys` as JWK,
 * shared by every server on one database. The public half is served at GET /api/.well-known/jwks.json.
 */
import { hkdfSync } from 'node:crypto';
import { asc } from 'drizzle-orm';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  type CryptoKey,
  type JWK,
} from 'jose';
import type { Db } from '../db';
import { serverKeys } from '../db/schema';

export const SIGNING_ALG = 'EdDSA';

/** The active signing key. */
export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** Public JWK with kid, alg and use, as published in the JWKS. */
  publicJwk: JWK;
}

async function toSigningKey(kid: string, publicJwk: JWK, privateJwk: JWK): Promise<SigningKey> {
  const privateKey = (await importJWK(privateJwk, SIGNING_ALG)) as CryptoKey;
  const publicKey = (await importJWK(publicJwk, SIGNING_ALG)) as CryptoKey;
  return { kid, privateKey, publicKey, publicJwk: { ...publicJwk, kid, alg: SIGNING_ALG, use: 'sig' } };
}

/** Loads the oldest stored key, creating one on first start (concurrent starts agree on the oldest). */
export async function loadSigningKey(db: Db): Promise<SigningKey> {
  const existing = await db.select().from(serverKeys).orderBy(asc(serverKeys.createdAt)).limit(1);
  if (existing[0]) {
    const row = existing[0];
    return toSigningKey(row.kid, row.publicJwk as JWK, row.privateJwk as JWK);
  }
  const { publicKey, privateKey } = await generateKeyPair(SIGNING_ALG, { crv: 'Ed25519', extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const privateJwk = await exportJWK(privateKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  await db.insert(serverKeys).values({ kid, alg: SIGNING_ALG, publicJwk, privateJwk }).onConflictDoNothing();
  return loadSigningKey(db);
}

/**
 * A 32-byte key for one purpose (`info`, e.g. 'remote-session cookie v1'), derived (HKDF-SHA-256) from the
 * oldest signing key's private part, so every server on one database derives the same key and it survives
 * restarts.
 * @throws Error when the database has no signing key yet (loadSigningKey creates it at start-up).
 */
export async function deriveServerKey(db: Db, info: string): Promise<Buffer> {
  const [row] = await db
    .select({ privateJwk: serverKeys.privateJwk })
    .from(serverKeys)
    .orderBy(asc(serverKeys.createdAt))
    .limit(1);
  const secret = (row?.privateJwk as { d?: unknown } | undefined)?.d;
  if (typeof secret !== 'string') throw new Error(`No server signing key to derive '${info}' from`);
  return Buffer.from(hkdfSync('sha256', Buffer.from(secret, 'base64url'), 'edge-ai-console', info, 32));
}
