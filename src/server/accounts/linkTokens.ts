/**
 * Single-use account tokens (issue 13 "Security"): 32 random bytes in base64url handed out once (in a mailed link
 * or a login answer) and stored only as their SHA-256, with an expiry. Using one marks it used in one statement,
 * so two concurrent uses cannot both succeed.
 */
import { createHash, randomBytes } from 'node:crypto';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db';
import { accountTokens } from '../db/schema';

export type AccountTokenPurpose = 'confirm_mail' | 'reset_password' | 'two_factor';

/** Lifetimes (seconds): confirm link 24 h, reset link 1 h, two-factor challenge 10 min. */
export const ACCOUNT_TOKEN_TTL_S: Record<AccountTokenPurpose, number> = {
  confirm_mail: 24 * 3600,
  reset_password: 3600,
  two_factor: 600,
};

/** A new secret: 43 base64url characters (32 random bytes). */
export const newSecret = (): string => randomBytes(32).toString('base64url');
/** SHA-256 hex of a secret (tokens and codes are stored only like this). */
export const sha256 = (s: string): string => createHash('sha256').update(s, 'utf8').digest('hex');

/**
 * Issues a token for `userId` and returns its secret. Earlier unused tokens of the same purpose for that user
 * are marked used (a new confirm or reset link replaces the old one), except two-factor challenges (one per
 * sign-in attempt, several tabs may sign in at once).
 */
export async function issueAccountToken(
  db: Db,
  userId: string,
  purpose: AccountTokenPurpose,
  ttlS = ACCOUNT_TOKEN_TTL_S[purpose],
): Promise<string> {
  if (purpose !== 'two_factor') {
    await db
      .update(accountTokens)
      .set({ usedAt: sql`now()` })
      .where(
        and(
          eq(accountTokens.userId, userId),
          eq(accountTokens.purpose, purpose),
          isNull(accountTokens.usedAt),
        ),
      );
  }
  const secret = newSecret();
  await db.insert(accountTokens).values({
    userId,
    purpose,
    tokenHash: sha256(secret),
    expiresAt: new Date(Date.now() + ttlS * 1000),
  });
  return secret;
}

/** Uses a token: resolves with its user id, or null when it is unknown, used or expired. */
export async function consumeAccountToken(
  db: Db,
  secret: string,
  purpose: AccountTokenPurpose,
): Promise<string | null> {
  const [row] = await db
    .update(accountTokens)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(secret)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ userId: accountTokens.userId });
  return row?.userId ?? null;
}

/** A live (unused, unexpired) token's row, without using it; null otherwise. */
export async function findLiveToken(db: Db, secret: string, purpose: AccountTokenPurpose) {
  const [row] = await db
    .select()
    .from(accountTokens)
    .where(
      and(
        eq(accountTokens.tokenHash, sha256(secret)),
        eq(accountTokens.purpose, purpose),
        isNull(accountTokens.usedAt),
        gt(accountTokens.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return row ?? null;
}
