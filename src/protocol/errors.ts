/**
 * Plain (zod-free) error constants of the REST contract, spec §4 auth and §8. Kept apart from rest.ts so
 * the console's first page can use them without loading zod; rest.ts and index.ts re-export them.
 */

/** Error codes the console acts on (spec §4 auth, §8). Every error answer is `{ code, message }`. */
export const API_ERROR_CODES = {
  tokenExpired: 'Token_expired',
  invalidToken: 'invalid_token',
  invalidRefreshToken: 'Invalid_refresh_token',
  expiredRefreshToken: 'expired_refresh_token',
  unauthorized: 'Unauthorized',
  forbidden: 'Forbidden',
  notFound: 'Not_found',
  validation: 'Validation_error',
  rateLimited: 'Rate_limited',
  loginFailed: 'Login_failed',
} as const;
