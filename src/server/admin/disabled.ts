/**
 * A disabled account (issue 13 admin panel, src/server/admin/userActions.ts `disableUser`): refused at sign-in
 * with 403 Account_disabled and ACCOUNT_DISABLED_TEXT, and every token of theirs refused at once — an access
 * token with 401 invalid_token (the console then ends the session, src/console/platform/http.ts) and the same
 * text; refresh tokens were revoked when the account was disabled.
 */
import { eq } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import { ACCOUNT_DISABLED_TEXT, ADMIN_ERROR_CODES } from '../../protocol/admin';
import type { Db } from '../db';
import { users } from '../db/schema';
import { HttpError, unauthorized } from '../errors';

/** @throws 403 Account_disabled when the user is disabled (sign-in, two-factor sign-in, session issue). */
export function refuseDisabledSignIn(user: { disabledAt: Date | null }): void {
  if (user.disabledAt !== null)
    throw new HttpError(403, ADMIN_ERROR_CODES.accountDisabled, ACCOUNT_DISABLED_TEXT);
}

/** @throws 401 invalid_token when the user of a presented token is disabled. */
export function refuseDisabledToken(user: { disabledAt: Date | null }): void {
  if (user.disabledAt !== null) throw unauthorized(API_ERROR_CODES.invalidToken, ACCOUNT_DISABLED_TEXT);
}

/** @throws 403 Account_disabled when the user `userId` is disabled (before a session is issued). */
export async function refuseDisabledSession(db: Db, userId: string): Promise<void> {
  const [row] = await db.select({ disabledAt: users.disabledAt }).from(users).where(eq(users.id, userId));
  if (row) refuseDisabledSignIn(row);
}
