/**
 * Accounts (spec §4 auth, §5 login, §7 auth endpoints, §8 login texts):
 *   POST login             LoginRequest → LoginResponse (status 2 logged in | status 1 confirm mail);
 *                          401 Login_failed "The login detail is incorrect"; 429 Rate_limited
 *   POST logout            header Refresh-Token (optional) → { ok } and that refresh token is revoked
 *   GET  user-info         → { user_info }
 *   POST new_access_token  header Refresh-Token → { data: { token, refresh_token } } (rotates)
 */
import { eq } from 'drizzle-orm';
import { API_ERROR_CODES, type accountRoutes } from '../../protocol';
import { rolesOf, userOf, type UserRow } from '../auth/guard';
import { verifyPassword } from '../auth/passwords';
import { issueSession, revokeRefreshToken, rotateSession } from '../auth/sessions';
import { users } from '../db/schema';
import { HttpError } from '../errors';
import type { HandlersOf } from './register';

/** §3 User info as the console reads it. */
export function toUserInfo(user: UserRow) {
  return {
    id: user.id,
    email: user.email,
    username: user.username,
    bio: user.bio,
    image: user.image,
    roles: rolesOf(user),
  };
}

export const accountHandlers: HandlersOf<typeof accountRoutes> = (ctx) => ({
  'accounts.login': {
    rateLimit: {
      hook: 'preHandler',
      max: ctx.config.loginRateLimitPerMin,
      timeWindow: 60_000,
      keyGenerator: (request) =>
        `${request.ip}|${String((request.body as { email?: unknown } | undefined)?.email ?? '').toLowerCase()}`,
    },
    handle: async ({ body }) => {
      const email = body.email.toLowerCase();
      const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
      const ok = await verifyPassword(user?.passwordHash ?? null, body.password);
      if (!user || !ok)
        throw new HttpError(401, API_ERROR_CODES.loginFailed, 'The login detail is incorrect');
      if (!user.emailConfirmed) {
        return { status: 1 as const, message: 'Please confirm your email address to sign in.' };
      }
      const session = await issueSession(ctx, user.id);
      return { status: 2 as const, ...session, user_info: toUserInfo(user) };
    },
  },

  'accounts.logout': async ({ headers }) => {
    const revoked = await revokeRefreshToken(ctx, headers['refresh-token']);
    return { ok: true as const, revoked };
  },

  'accounts.userInfo': async (_input, request) => ({ user_info: toUserInfo(userOf(request)) }),

  'accounts.newAccessToken': async ({ headers }) => ({
    data: await rotateSession(ctx, headers['refresh-token']),
  }),
});
