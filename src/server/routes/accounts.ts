/**
 * Accounts (spec §4 auth, §5 login, §7 auth endpoints, §8 login texts):
 *   POST login             LoginRequest → LoginResponse (status 2 logged in | status 1 confirm mail);
 *                          401 Login_failed "The login detail is incorrect"; 429 Rate_limited
 *   POST logout            header Refresh-Token (optional) → { ok } and that refresh token is revoked
 *   GET  user-info         → { user_info }
 *   POST new_access_token  header Refresh-Token → { data: { token, refresh_token } } (rotates)
 */
import { eq } from 'drizzle-orm';
import { z } from 'zod';
import {
  API_ERROR_CODES,
  ApiError,
  LoginRequest,
  LoginResponse,
  NewAccessTokenResponse,
  UserInfoResponse,
} from '../../protocol';
import { authenticateUser, rolesOf, userOf, type UserRow } from '../auth/guard';
import { verifyPassword } from '../auth/passwords';
import { issueSession, revokeRefreshToken, rotateSession } from '../auth/sessions';
import type { ServerContext } from '../context';
import { users } from '../db/schema';
import { HttpError } from '../errors';
import { AUTH_ERRORS, type ZodApp } from './types';

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

const RefreshHeaders = z.object({ 'refresh-token': z.string().max(4096).optional() });

export function registerAccountRoutes(app: ZodApp, ctx: ServerContext): void {
  app.post(
    '/api/login',
    {
      schema: {
        tags: ['accounts'],
        body: LoginRequest,
        response: { 200: LoginResponse, 400: ApiError, 401: ApiError, 429: ApiError },
      },
      config: {
        rateLimit: {
          hook: 'preHandler',
          max: ctx.config.loginRateLimitPerMin,
          timeWindow: 60_000,
          keyGenerator: (request) =>
            `${request.ip}|${String((request.body as { email?: unknown } | undefined)?.email ?? '').toLowerCase()}`,
        },
      },
    },
    async (request) => {
      const email = request.body.email.toLowerCase();
      const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
      const ok = await verifyPassword(user?.passwordHash ?? null, request.body.password);
      if (!user || !ok)
        throw new HttpError(401, API_ERROR_CODES.loginFailed, 'The login detail is incorrect');
      if (!user.emailConfirmed) {
        return { status: 1 as const, message: 'Please confirm your email address to sign in.' };
      }
      const session = await issueSession(ctx, user.id);
      return { status: 2 as const, ...session, user_info: toUserInfo(user) };
    },
  );

  app.post(
    '/api/logout',
    {
      schema: {
        tags: ['accounts'],
        headers: RefreshHeaders,
        response: { 200: z.object({ ok: z.literal(true), revoked: z.boolean() }) },
      },
    },
    async (request) => {
      const revoked = await revokeRefreshToken(ctx, request.headers['refresh-token']);
      return { ok: true as const, revoked };
    },
  );

  app.get(
    '/api/user-info',
    {
      schema: { tags: ['accounts'], response: { 200: UserInfoResponse, ...AUTH_ERRORS } },
      preHandler: authenticateUser(ctx),
    },
    async (request) => ({ user_info: toUserInfo(userOf(request)) }),
  );

  app.post(
    '/api/new_access_token',
    {
      schema: {
        tags: ['accounts'],
        headers: RefreshHeaders,
        response: { 200: NewAccessTokenResponse, 401: ApiError },
      },
    },
    async (request) => ({ data: await rotateSession(ctx, request.headers['refresh-token']) }),
  );
}
