/**
 * Accounts (spec §3 User info, §4 auth with one-shot refresh, §5 login, §7 auth endpoints, §8 login texts).
 * Access tokens travel as `Authorization: Token {token}`; refresh tokens as the `Refresh-Token` header and
 * rotate on use.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

export const Role = z.enum(['admin', 'user']);
export type Role = z.infer<typeof Role>;

/** §3 User info. */
export const UserInfo = z.object({
  id: z.string(),
  email: z.string(),
  username: z.string(),
  bio: z.string().nullable(),
  image: z.string().nullable(),
  roles: z.array(Role),
});
export type UserInfo = z.infer<typeof UserInfo>;

/** POST login — §4 §5. */
export const LoginRequest = z.object({
  email: z.string().trim().max(254).email(),
  password: z.string().min(1).max(1024),
});
export type LoginRequest = z.infer<typeof LoginRequest>;
/** status 1 = confirm mail (no tokens), status 2 = logged in. */
export const LoginResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal(1), message: z.string() }),
  z.object({
    status: z.literal(2),
    token: z.string(),
    refresh_token: z.string(),
    user_info: UserInfo,
  }),
]);
export type LoginResponse = z.infer<typeof LoginResponse>;

/** POST new_access_token with header Refresh-Token → data.token (refresh token rotates: data.refresh_token). */
export const NewAccessTokenResponse = z.object({
  data: z.object({ token: z.string(), refresh_token: z.string() }),
});
export type NewAccessTokenResponse = z.infer<typeof NewAccessTokenResponse>;

/** GET user-info → user_info. */
export const UserInfoResponse = z.object({ user_info: UserInfo });

/** The `Refresh-Token` header of logout and new_access_token. */
export const RefreshHeaders = z.object({ 'refresh-token': z.string().max(4096).optional() });
/** POST logout → ok, and whether a refresh token was revoked. */
export const LogoutResponse = z.object({ ok: z.literal(true), revoked: z.boolean() });

export const accountRoutes = defineRoutes({
  /** 401 Login_failed "The login detail is incorrect"; 429 Rate_limited. */
  'accounts.login': {
    method: 'POST',
    path: '/api/login',
    auth: 'none',
    summary: 'Sign in (§5): status 2 with tokens, or status 1 when the mail is not confirmed',
    body: LoginRequest,
    answer: LoginResponse,
    errors: [401, 429],
  },
  'accounts.logout': {
    method: 'POST',
    path: '/api/logout',
    auth: 'none',
    summary: 'Sign out: revokes the Refresh-Token header’s refresh token',
    headers: RefreshHeaders,
    answer: LogoutResponse,
  },
  'accounts.userInfo': {
    method: 'GET',
    path: '/api/user-info',
    auth: 'user',
    summary: 'The signed-in user (§3 User info)',
    answer: UserInfoResponse,
  },
  'accounts.newAccessToken': {
    method: 'POST',
    path: '/api/new_access_token',
    auth: 'none',
    summary: 'A new access token for the Refresh-Token header (§4: one refresh, the refresh token rotates)',
    headers: RefreshHeaders,
    answer: NewAccessTokenResponse,
    errors: [401],
  },
});
