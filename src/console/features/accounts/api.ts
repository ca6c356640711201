/**
 * The accounts feature's REST calls (spec §7 login, logout, new_access_token, user-info; §5 §8 texts). The issue-13
 * flows' calls are in flowsApi.ts (loaded with their screens, not on /login).
 * Thin on purpose: the transport (platform/http.ts) does the request, the token and the parsing.
 */
import { AUTH_ERRORS, type RefreshedTokens } from '../../../../machines/accounts/auth.machine';
import { API_ERROR_CODES } from '../../../protocol/errors';
import { ADMIN_ERROR_CODES } from '../../../protocol/admin';
import type { LoginRequest, LoginResponse, UserInfo } from '../../../protocol/rest';
import { ApiRequestError, type Http } from '../../platform/http';

export function accountsApi(http: Http) {
  return {
    /**
     * POST login. Resolves with status 1 (confirm mail) or 2 (tokens and user). Rejects with an Error whose
     * message is 'The login detail is incorrect' (refused credentials), 'Servers are unavailable.' (network)
     * or 'Login failed. Please try again.' (anything else), §5 §8.
     */
    async login(credentials: LoginRequest): Promise<LoginResponse> {
      try {
        return await http.call('accounts.login', { body: credentials });
      } catch (error) {
        if (!(error instanceof ApiRequestError)) throw error;
        if (error.code === 'network') throw error;
        if (error.code === ADMIN_ERROR_CODES.accountDisabled) throw error; // its own text (issue 13)
        if (error.status === 400 || error.status === 401 || error.code === API_ERROR_CODES.loginFailed) {
          throw new ApiRequestError(AUTH_ERRORS.incorrect, error.code, error.status);
        }
        throw new ApiRequestError(AUTH_ERRORS.failed, error.code, error.status);
      }
    },

    /** POST logout with the given token (best effort; the caller ignores failures). */
    async logout(token: string | null): Promise<void> {
      if (!token) return;
      await http.call('accounts.logout', { token, headers: {} });
    },

    /** POST new_access_token with `Refresh-Token` → the new access token and the rotated refresh token. */
    async refreshAccessToken(refreshToken: string | null): Promise<RefreshedTokens> {
      if (!refreshToken)
        throw new ApiRequestError('Please login again', API_ERROR_CODES.invalidRefreshToken, 401);
      const answer = await http.call('accounts.newAccessToken', {
        headers: { 'refresh-token': refreshToken },
      });
      return { token: answer.data.token, refreshToken: answer.data.refresh_token };
    },

    /** GET user-info with an explicit token (used while restoring, before auth holds it). */
    async userInfo(token: string): Promise<UserInfo> {
      return (await http.call('accounts.userInfo', { token })).user_info;
    },
  };
}

export type AccountsApi = ReturnType<typeof accountsApi>;
