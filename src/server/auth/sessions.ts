/**
 * Sessions: access + refresh token pairs (spec §4 auth, §7 login and new_access_token).
 * Refresh tokens are stored by jti; using one revokes it and records its replacement (rotation); reuse of a
 * revoked one is refused. Logout revokes the presented one. Every token of one sign-in shares a session id
 * (`sid`, the first refresh token's jti): a session is live while one of its refresh tokens is, and the guard
 * refuses the access tokens of a session that is not (signed out, or ended by `endOtherSessions`).
 */
import { and, eq, gt, isNull, ne, or, sql } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import type { ServerContext } from '../context';
import { refreshTokens } from '../db/schema';
import { writeAudit } from '../audit';
import { unauthorized } from '../errors';
import { TokenError } from './tokens';

/** A freshly issued pair. */
export interface SessionTokens {
  token: string;
  refresh_token: string;
}

const PLEASE_LOGIN_AGAIN = 'Please login again';

/** Issues an access token and a stored refresh token for `userId`: a new session. */
export async function issueSession(ctx: ServerContext, userId: string): Promise<SessionTokens> {
  const jti = ctx.tokens.newJti();
  const sid = jti;
  const refresh = await ctx.tokens.sign(
    { typ: 'refresh', sub: userId, jti, sid },
    ctx.config.refreshTokenTtlS,
  );
  await ctx.db
    .insert(refreshTokens)
    .values({ jti, userId, sessionId: sid, expiresAt: new Date(refresh.exp * 1000) });
  const access = await ctx.tokens.sign({ typ: 'access', sub: userId, sid }, ctx.config.accessTokenTtlS);
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
  // One transaction: the used token and its replacement change together, so the session never looks ended to
  // a request checking it in between. One statement marks it used, so two concurrent refreshes with one token
  // cannot both succeed.
  const rotated = await ctx.db.transaction(async (tx) => {
    const used = await tx
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
      .returning({ sessionId: refreshTokens.sessionId });
    if (used.length === 0) return null;
    // A token from before sessions had ids starts its session here.
    const sid = used[0]?.sessionId ?? nextJti;
    const refresh = await ctx.tokens.sign(
      { typ: 'refresh', sub: claims.sub, jti: nextJti, sid },
      ctx.config.refreshTokenTtlS,
    );
    await tx
      .insert(refreshTokens)
      .values({ jti: nextJti, userId: claims.sub, sessionId: sid, expiresAt: new Date(refresh.exp * 1000) });
    const access = await ctx.tokens.sign({ typ: 'access', sub: claims.sub, sid }, ctx.config.accessTokenTtlS);
    return { token: access.token, refresh_token: refresh.token };
  });
  if (rotated) return rotated;
  await endSessionOnReuse(ctx, claims.sub, claims.jti);
  throw unauthorized(API_ERROR_CODES.invalidRefreshToken, PLEASE_LOGIN_AGAIN);
}

/**
 * A refresh token presented again after it was rotated (OWASP ASVS 3.5: someone else may hold a copy) ends its
 * whole session — every refresh token of the family is revoked, so its access tokens stop too — and the event is
 * written to the audit log (`session.refresh_reuse`). Within `config.refreshReuseGraceS` of the rotation a second use
 * is taken for two tabs refreshing at once and only refused.
 */
async function endSessionOnReuse(ctx: ServerContext, userId: string, jti: string): Promise<void> {
  const [row] = await ctx.db
    .select({
      sessionId: refreshTokens.sessionId,
      replacedBy: refreshTokens.replacedBy,
      late: sql<boolean>`${refreshTokens.revokedAt} < now() - make_interval(secs => ${ctx.config.refreshReuseGraceS})`,
    })
    .from(refreshTokens)
    .where(and(eq(refreshTokens.jti, jti), eq(refreshTokens.userId, userId)))
    .limit(1);
  if (!row?.replacedBy || !row.late) return;
  const family = row.sessionId ? eq(refreshTokens.sessionId, row.sessionId) : eq(refreshTokens.jti, jti);
  const revoked = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), family, isNull(refreshTokens.revokedAt)))
    .returning({ jti: refreshTokens.jti });
  await writeAudit(ctx.db, {
    actorId: userId,
    action: 'session.refresh_reuse',
    targetType: 'session',
    targetId: row.sessionId ?? jti,
    details: { refresh_tokens_revoked: revoked.length },
  });
}

/**
 * Revokes a refresh token (logout). Unknown or malformed tokens are ignored. Resolves to the user id of the
 * token it revoked, or null when none was.
 */
export async function revokeRefreshToken(
  ctx: ServerContext,
  presented: string | undefined,
): Promise<string | null> {
  if (!presented) return null;
  const claims = await ctx.tokens.verifyIgnoringExpiry(presented, 'refresh');
  if (!claims) return null;
  const [revoked] = await ctx.db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.jti, claims.jti), isNull(refreshTokens.revokedAt)))
    .returning({ userId: refreshTokens.userId });
  return revoked?.userId ?? null;
}

/**
 * Ends every session of `userId` but `keepSessionId` (the caller's own; undefined ends all): their refresh
 * tokens are revoked, so their access tokens stop working at once (guard) and they cannot refresh.
 * Used after a password or e-mail change (issue 13 profile). Returns how many refresh tokens were revoked.
 */
export async function endOtherSessions(
  db: ServerContext['db'],
  userId: string,
  keepSessionId: string | undefined,
): Promise<number> {
  const others = keepSessionId
    ? or(isNull(refreshTokens.sessionId), ne(refreshTokens.sessionId, keepSessionId))
    : undefined;
  const revoked = await db
    .update(refreshTokens)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(refreshTokens.userId, userId), isNull(refreshTokens.revokedAt), others))
    .returning({ jti: refreshTokens.jti });
  return revoked.length;
}
