/** Password hashing: argon2id (ARCHITECTURE "Server" → accounts) via @node-rs/argon2, PHC strings. */
import { hash, verify } from '@node-rs/argon2';

/** argon2id with the library's defaults (19 MiB, 2 passes, 1 lane). 2 = Algorithm.Argon2id. */
const OPTIONS = { algorithm: 2 as const };

/** Hashes a password into a PHC string (`$argon2id$v=19$...`). */
export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/** A hash of a random string: verified against when the email is unknown, so timing does not reveal it. */
let dummyHash: Promise<string> | null = null;

/** Computes the dummy hash now (idempotent), so no login pays for it later. */
export function primeDummyHash(): void {
  dummyHash ??= hashPassword('not-a-password-' + Math.random());
}

/**
 * Checks `password` against `phc`; with `phc` null it spends the same time and answers false.
 * A malformed stored hash answers false (never throws).
 */
export async function verifyPassword(phc: string | null, password: string): Promise<boolean> {
  const target = phc ?? (await (dummyHash ??= hashPassword('not-a-password-' + Math.random())));
  try {
    const ok = await verify(target, password);
    return phc !== null && ok;
  } catch {
    return false;
  }
}
