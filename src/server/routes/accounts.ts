/**
 * Accounts (spec §4 auth, §5 login, §7 auth endpoints, §8 login texts):
 *   POST login             LoginRequest → LoginResponse (status 2 logged in | status 1 confirm mail);
 *                          401 Login_failed "The login detail is incorrect"; 429 Rate_limited
 *   POST logout            header Refresh-Token (optional) → { ok } and that refresh token is revoked
 *   GET  user-info         → { user_info }
 *   POST new_access_token  header Refresh-Token → { data: { token, refresh_token } } (rotates)
 * and the issue-13 account flows (src/server/accounts/): register-config, register, resend-verification,
 * confirm-mail, reset-password-request, reset-password, verify-2fa-auth, resend-verify-code (PUT), verify-auth,
 * two-factor/{setup,enable,disable}. A two-factor user's login answers status 3 with a challenge.
 * Every route that mails or takes a secret is rate-limited per address (ACCOUNT_RATE_LIMIT_PER_MIN, default 10).
 * Login is also throttled per address and on the whole server, new_access_token per address, and logout,
 * user-info, verify-auth and register-config per address (SESSION_RATE_LIMIT_PER_MIN, default 300) (issue 15;
 * src/server/auth/throttle.ts): 429 Rate_limited with Retry-After. An unknown e-mail's login verifies a dummy
 * hash, so it costs what a known one costs.
 */
import type { RateLimitOptions } from '@fastify/rate-limit';
import { eq } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import { API_ERROR_CODES, type accountRoutes } from '../../protocol';
import { ACCOUNT_ERROR_CODES } from '../../protocol/accounts';
import * as flows from '../accounts/flows';
import { recaptchaFromEnv, verifyRecaptcha } from '../accounts/recaptcha';
import {
  disableTwoFactor,
  enableTwoFactor,
  setupTwoFactor,
  twoFactorEnabled,
  twoFactorRow,
} from '../accounts/twoFactor';
import { rolesOf, userOf, type UserRow } from '../auth/guard';
import { primeDummyHash, verifyPassword } from '../auth/passwords';
import { byAddress, globally, throttleHook } from '../auth/throttle';
import { issueSession, revokeRefreshToken, rotateSession } from '../auth/sessions';
import { refuseDisabledSignIn } from '../admin/disabled';
import { auditLater, auditSecurity } from '../audit/security';
import { users } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { mailerOf, publicUrlOf } from '../mail';
import type { HandlersOf } from './register';

/** Requests per minute per client address on each account-flow route (env ACCOUNT_RATE_LIMIT_PER_MIN). */
function accountRateLimit(): RateLimitOptions {
  const n = Number(process.env.ACCOUNT_RATE_LIMIT_PER_MIN);
  return { hook: 'preHandler', max: Number.isInteger(n) && n > 0 ? n : 10, timeWindow: 60_000 };
}

const MAIL_LINK_EXPIRED = 'This link is no longer valid.';

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

export const accountHandlers: HandlersOf<typeof accountRoutes> = (ctx, app) => {
  const { mailer, settings } = mailerOf(ctx, app);
  const deps: flows.FlowDeps = { db: ctx.db, send: (m) => mailer.send(m), log: app.log };
  const baseUrl = (request: FastifyRequest) => publicUrlOf(settings, ctx.config, request);
  const recaptcha = recaptchaFromEnv();
  const limited = accountRateLimit();
  const minute = 60_000;
  const { loginIpRateLimitPerMin, loginGlobalRateLimitPerMin, refreshRateLimitPerMin } = ctx.config;
  /** The other auth routes: per client address, before the token or body is read (issue 15). */
  const perAddress = (name: string) =>
    throttleHook(app, [{ name, max: ctx.config.sessionRateLimitPerMin, windowMs: minute, key: byAddress }]);
  // Hashed now, so the first unknown e-mail's login does not pay for it (and stand out by its time).
  primeDummyHash();
  /** A known account's failed sign-in, recorded without holding up the answer (security.ts). */
  const failed = (userId: string, reason: 'password' | 'disabled' | 'two_factor') =>
    auditLater(ctx.db, app.log, { userId, action: 'auth.sign_in_failed', details: { reason } });
  return {
    'accounts.login': {
      rateLimit: {
        hook: 'preHandler',
        max: ctx.config.loginRateLimitPerMin,
        timeWindow: 60_000,
        keyGenerator: (request) =>
          `${request.ip}|${String((request.body as { email?: unknown } | undefined)?.email ?? '').toLowerCase()}`,
      },
      throttle: throttleHook(app, [
        { name: 'login-ip', max: loginIpRateLimitPerMin, windowMs: minute, key: byAddress },
        { name: 'login-all', max: loginGlobalRateLimitPerMin, windowMs: minute, key: globally },
      ]),
      handle: async ({ body }) => {
        const email = body.email.toLowerCase();
        const [user] = await ctx.db.select().from(users).where(eq(users.email, email)).limit(1);
        const ok = await verifyPassword(user?.passwordHash ?? null, body.password);
        if (user && !ok) failed(user.id, 'password');
        if (!user || !ok)
          throw new HttpError(401, API_ERROR_CODES.loginFailed, 'The login detail is incorrect');
        try {
          refuseDisabledSignIn(user);
        } catch (err) {
          failed(user.id, 'disabled');
          throw err;
        }
        if (!user.emailConfirmed) {
          return { status: 1 as const, message: 'Please confirm your email address to sign in.' };
        }
        if (await twoFactorEnabled(ctx.db, user.id)) {
          const challenge = await flows.startTwoFactorChallenge(deps, user.id);
          return { status: 3 as const, challenge, message: 'Enter the code from your authenticator app.' };
        }
        const session = await issueSession(ctx, user.id);
        await auditSecurity(ctx.db, {
          userId: user.id,
          action: 'auth.sign_in',
          details: { method: 'password' },
        });
        return { status: 2 as const, ...session, user_info: toUserInfo(user) };
      },
    },

    'accounts.logout': {
      throttle: perAddress('logout'),
      handle: async ({ headers }) => {
        const userId = await revokeRefreshToken(ctx, headers['refresh-token']);
        if (userId) await auditSecurity(ctx.db, { userId, action: 'auth.sign_out' });
        return { ok: true as const, revoked: userId !== null };
      },
    },

    'accounts.userInfo': {
      throttle: perAddress('user-info'),
      handle: async (_input, request) => ({ user_info: toUserInfo(userOf(request)) }),
    },

    'accounts.newAccessToken': {
      throttle: throttleHook(app, [
        { name: 'refresh-ip', max: refreshRateLimitPerMin, windowMs: minute, key: byAddress },
      ]),
      handle: async ({ headers }) => ({ data: await rotateSession(ctx, headers['refresh-token']) }),
    },

    'accounts.registerConfig': {
      throttle: perAddress('register-config'),
      handle: async () => ({ recaptcha_site_key: recaptcha?.siteKey ?? null }),
    },

    'accounts.register': {
      rateLimit: limited,
      handle: async ({ body }, request) => {
        if (recaptcha && !(await verifyRecaptcha(recaptcha, body.recaptcha, request.ip))) {
          throw new HttpError(400, ACCOUNT_ERROR_CODES.captchaFailed, 'Please confirm you are not a robot.');
        }
        await flows.register(deps, body, baseUrl(request));
        return { ok: true as const, message: flows.MAIL_SENT_TEXTS.register };
      },
    },

    'accounts.resendVerification': {
      rateLimit: limited,
      handle: async ({ body }, request) => {
        await flows.resendVerification(deps, body.email, baseUrl(request), body.language);
        return { ok: true as const, message: flows.MAIL_SENT_TEXTS.resendVerification };
      },
    },

    'accounts.confirmMail': {
      rateLimit: limited,
      handle: async ({ body }) => {
        const email = await flows.confirmMail(deps, body.token);
        if (!email) throw new HttpError(404, ACCOUNT_ERROR_CODES.linkExpired, MAIL_LINK_EXPIRED);
        return { ok: true as const, email };
      },
    },

    'accounts.resetPasswordRequest': {
      rateLimit: limited,
      handle: async ({ body }, request) => {
        await flows.requestPasswordReset(deps, body.email, baseUrl(request), body.language);
        return { ok: true as const, message: flows.MAIL_SENT_TEXTS.reset };
      },
    },

    'accounts.resetPassword': {
      rateLimit: limited,
      handle: async ({ body }) => {
        const userId = await flows.resetPassword(deps, body.token, body.password);
        if (!userId) throw new HttpError(404, ACCOUNT_ERROR_CODES.linkExpired, MAIL_LINK_EXPIRED);
        await auditSecurity(ctx.db, { userId, action: 'account.password_reset' });
        return { ok: true as const };
      },
    },

    'accounts.verify2faAuth': {
      rateLimit: limited,
      handle: async ({ body }) => {
        const result = await flows.verifyTwoFactor(deps, body.challenge, body.code, (id) =>
          issueSession(ctx, id),
        );
        if (!result.ok) {
          if (result.userId) failed(result.userId, 'two_factor');
          return { status: 0 as const, message: result.message };
        }
        const [user] = await ctx.db.select().from(users).where(eq(users.id, result.userId)).limit(1);
        if (!user) return { status: 0 as const, message: flows.TWO_FACTOR_TEXTS.expired };
        await auditSecurity(ctx.db, {
          userId: user.id,
          action: 'auth.sign_in',
          details: { method: 'two_factor' },
        });
        return { status: 1 as const, tokens: result.tokens, user_info: toUserInfo(user) };
      },
    },

    'accounts.resendVerifyCode': {
      rateLimit: limited,
      handle: async ({ body }) => {
        await flows.resendVerifyCode(deps, body.challenge, body.language);
        return { ok: true as const, message: flows.MAIL_SENT_TEXTS.verifyCode };
      },
    },

    'accounts.verifyAuth': {
      throttle: perAddress('verify-auth'),
      handle: async (_input, request) => {
        const user = userOf(request);
        const row = await twoFactorRow(ctx.db, user.id);
        return {
          user_info: toUserInfo(user),
          two_factor: {
            enabled: row?.enabledAt != null,
            recovery_codes_left: row?.enabledAt ? row.recoveryCodes.length : 0,
          },
        };
      },
    },

    'accounts.twoFactorSetup': {
      rateLimit: limited,
      handle: async (_input, request) => {
        const user = userOf(request);
        const setup = await setupTwoFactor(ctx.db, user.id, user.email);
        if (!setup)
          throw new HttpError(409, ACCOUNT_ERROR_CODES.twoFactorEnabled, 'Two-factor sign-in is already on.');
        return setup;
      },
    },

    'accounts.twoFactorEnable': {
      rateLimit: limited,
      handle: async ({ body }, request) => {
        const result = await enableTwoFactor(ctx.db, userOf(request).id, body.code);
        if (result === 'none') throw notFound('Two-factor setup');
        if (result === 'enabled')
          throw new HttpError(409, ACCOUNT_ERROR_CODES.twoFactorEnabled, 'Two-factor sign-in is already on.');
        if (result === 'invalid')
          throw new HttpError(400, ACCOUNT_ERROR_CODES.invalidCode, flows.TWO_FACTOR_TEXTS.incorrect);
        await auditSecurity(ctx.db, { userId: userOf(request).id, action: 'account.two_factor_enabled' });
        return { recovery_codes: result.recoveryCodes };
      },
    },

    'accounts.twoFactorDisable': {
      rateLimit: limited,
      handle: async ({ body }, request) => {
        const user = userOf(request);
        if (!(await verifyPassword(user.passwordHash, body.password))) {
          auditLater(ctx.db, app.log, {
            userId: user.id,
            action: 'account.password_check_failed',
            details: { where: 'two_factor_disable' },
          });
          throw new HttpError(400, ACCOUNT_ERROR_CODES.invalidCode, 'The password is incorrect');
        }
        await disableTwoFactor(ctx.db, user.id);
        await auditSecurity(ctx.db, { userId: user.id, action: 'account.two_factor_disabled' });
        return { ok: true as const };
      },
    },
  };
};
