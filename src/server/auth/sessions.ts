/**
 * Sessions: access + refresh token pairs (spec §4 auth, §7 login and new_access_token).
 * Refresh tokens are stored by jti; using one revokes it and records its replacement (rotation); reuse of a
 * revoked one is refused. Logout revokes the presented one.
 */
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import type { ServerContext } from '../context';
import { refreshTokens } from '../db/schema';
import { unauthorized } from '../errors';
import { TokenError } from './tokens';

/** A freshly issued pair. */
export interface SessionTokens {
  token: string;
  refresh_token: string;
}

const PLEASE_LOGIN_AGAIN = 'Please login again';

/** Issues an access token and a stored refresh token for `userId`. */
export async function issueSession(ctx: ServerContext, userId: string): Promise<SessionTokens> {
  const jti = ctx.tokens.newJti();
  const refresh = await ctx.tokens.sign({ typ: 'refresh', sub: userId, jti }, ctx.config.refreshTokenTtlS);
  await ctx.db.insert(refreshTokens).values({ jti, userId, expiresAt: new Date(refresh.exp * 1000) });
  const access = await ctx.tokens.sign({ typ: 'access', sub: userId }, ctx.config.accessTokenTtlS);
  return { token: access.token, refresh_token: refresh.token };
}

/**
 * Rotates a refresh token: revokes it and issues a new pair.
 * @throws 401 Invalid_refresh_token (missing, bad, revoked or unknown), 401 expired_refresh_token (expired).
 */
export async function rotateSession(
  ctx: ServerContext,
  presented: string | undefined,
): Promise<SessionTokens> {
  if (!presented) throw unauthorized(API_ERROR_CODES.invalidRefreshToken, PLEASE_LOGIN_AGAIN);
  let claims;
  try {
    claims = await ctx.tokens.verify(presented, 'refresh');
  } catch (err) {
    const expired = err instanceof TokenError && err.reason === 'expired';
    throw unauthorized(
      expired ? API_ERROR_CODES.expiredRefreshToken : API_ERROR_CODES.invalidRefreshToken,
      expired ? 'Your session has expired' : PLEASE_LOGIN_AGAIN,
    );
  }
  const nextJti = ctx.tokens.newJti();
  // One statement marks it used, so two concurrent refreshes with one token cannot both succeed.
  const used = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()`, replacedBy: nextJti })
    .where(
      and(
        eq(refreshTokens.jti, claims.jti),
        eq(refreshTokens.userId, claims.sub),
        isNull(refreshTokens.revokedAt),
        gt(refreshTokens.expiresAt, sql`now()`),
      ),
    )
    .returning({ jti: refreshTokens.jti });
  if (used.length === 0) throw unauthorized(API_ERROR_CODES.invalidRefreshToken, PLEASE_LOGIN_AGAIN);
  const refresh = await ctx.tokens.sign(
    { typ: 'refresh', sub: claims.sub, jti: nextJti },
    ctx.config.refreshTokenTtlS,
  );
  await ctx.db
    .insert(refreshTokens)
    .values({ jti: nextJti, userId: claims.sub, expiresAt: new Date(refresh.exp * 1000) });
  const access = await ctx.tokens.sign({ typ: 'access', sub: claims.sub }, ctx.config.accessTokenTtlS);
  return { token: access.token, refresh_token: refresh.token };
}

/** Revokes a refresh token (logout). Unknown or malformed tokens are ignored. Returns whether one was revoked. */
export async function revokeRefreshToken(
  ctx: ServerContext,
  presented: string | undefined,
): Promise<boolean> {
  if (!presented) return false;
  const claims = await ctx.tokens.verifyIgnoringExpiry(presented, 'refresh');
  if (!claims) return false;
  const revoked = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.jti, claims.jti), isNull(refreshTokens.revokedAt)))
    .returning({ jti: refreshTokens.jti });
  return revoked.length > 0;
}
