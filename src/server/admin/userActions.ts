/**
 * What an admin does to a user (issue 13 "Admin panel: users … roles, disable, reset 2FA"), each in one
 * transaction with its audit record (src/server/audit):
 * - setRoles: the user's whole role list (§6 admin, user); 'user' is always kept;
 * - disable: `disabled_at` set and every refresh token revoked, so sign-in is refused
 *   (ACCOUNT_DISABLED_TEXT) and the user's next call with an access token is refused (src/server/auth/guard.ts);
 * - enable: `disabled_at` cleared (the user signs in again; old refresh tokens stay revoked);
 * - resetTwoFactor: the user's TOTP enrolment and recovery codes removed (src/server/accounts/twoFactor.ts).
 * An admin may not disable their own account, and no change may leave the system without an active admin:
 * the active admins are locked (`for update`) while that is checked, so two admins demoting each other at once
 * cannot both succeed. Errors: 404 Not_found (no such user), 409 Own_account, 409 Last_admin.
 */
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import { ADMIN_ERROR_CODES, type AdminUser } from '../../protocol/admin';
import type { Role } from '../../protocol/accounts';
import { writeAudit } from '../audit';
import type { Db } from '../db';
import { refreshTokens, users, userTwoFactor } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { toAdminUser } from './userList';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

const LAST_ADMIN_TEXT = 'This would leave no active admin: make another user an admin first.';
const OWN_ACCOUNT_TEXT = 'You cannot disable your own account.';

/** The user row for an update, locked; 404 when missing. */
async function lockedUser(tx: Tx, id: string) {
  const [row] = await tx.select().from(users).where(eq(users.id, id)).for('update').limit(1);
  if (!row) throw notFound('User');
  return row;
}

/** 409 Last_admin unless an active admin other than `userId` remains (those rows stay locked). */
async function assertAnotherActiveAdmin(tx: Tx, userId: string): Promise<void> {
  const others = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(sql`${users.roles} @> array['admin']::text[]`, isNull(users.disabledAt), ne(users.id, userId)))
    .for('update');
  if (others.length === 0) throw new HttpError(409, ADMIN_ERROR_CODES.lastAdmin, LAST_ADMIN_TEXT);
}

async function adminUserOf(tx: Tx, id: string): Promise<AdminUser> {
  const [row] = await tx
    .select({
      id: users.id,
      email: users.email,
      username: users.username,
      roles: users.roles,
      emailConfirmed: users.emailConfirmed,
      disabledAt: users.disabledAt,
      createdAt: users.createdAt,
      twoFactor: sql<boolean>`(${userTwoFactor.enabledAt} is not null)`,
    })
    .from(users)
    .leftJoin(userTwoFactor, eq(userTwoFactor.userId, users.id))
    .where(eq(users.id, id));
  if (!row) throw notFound('User');
  return toAdminUser(row);
}

/** Sets a user's roles ('user' kept). Audited as user.roles { from, to } when they change. */
export async function setRoles(db: Db, actorId: string, id: string, wanted: Role[]): Promise<AdminUser> {
  const roles: Role[] = wanted.includes('admin') ? ['admin', 'user'] : ['user'];
  return db.transaction(async (tx) => {
    const row = await lockedUser(tx, id);
    const from = [...row.roles].sort();
    if (from.join() === [...roles].sort().join()) return adminUserOf(tx, id);
    if (row.roles.includes('admin') && !roles.includes('admin') && row.disabledAt === null) {
      await assertAnotherActiveAdmin(tx, id);
    }
    await tx.update(users).set({ roles }).where(eq(users.id, id));
    await writeAudit(tx, {
      actorId,
      action: 'user.roles',
      targetType: 'user',
      targetId: id,
      details: { email: row.email, from, to: roles },
    });
    return adminUserOf(tx, id);
  });
}

/** Disables a user and revokes their refresh tokens. Audited as user.disable. */
export async function disableUser(db: Db, actorId: string, id: string): Promise<AdminUser> {
  if (actorId === id) throw new HttpError(409, ADMIN_ERROR_CODES.self, OWN_ACCOUNT_TEXT);
  return db.transaction(async (tx) => {
    const row = await lockedUser(tx, id);
    if (row.disabledAt !== null) return adminUserOf(tx, id);
    if (row.roles.includes('admin')) await assertAnotherActiveAdmin(tx, id);
    await tx
      .update(users)
      .set({ disabledAt: sql`now()` })
      .where(eq(users.id, id));
    const revoked = await tx
      .update(refreshTokens)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(refreshTokens.userId, id), isNull(refreshTokens.revokedAt)))
      .returning({ jti: refreshTokens.jti });
    await writeAudit(tx, {
      actorId,
      action: 'user.disable',
      targetType: 'user',
      targetId: id,
      details: { email: row.email, refresh_tokens_revoked: revoked.length },
    });
    return adminUserOf(tx, id);
  });
}

/** Enables a disabled user. Audited as user.enable. */
export async function enableUser(db: Db, actorId: string, id: string): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const row = await lockedUser(tx, id);
    if (row.disabledAt === null) return adminUserOf(tx, id);
    await tx.update(users).set({ disabledAt: null }).where(eq(users.id, id));
    await writeAudit(tx, {
      actorId,
      action: 'user.enable',
      targetType: 'user',
      targetId: id,
      details: { email: row.email, disabled_at: row.disabledAt.toISOString() },
    });
    return adminUserOf(tx, id);
  });
}

/** Removes a user's two-factor enrolment. Audited as user.reset_two_factor { was_enabled }. */
export async function resetTwoFactor(db: Db, actorId: string, id: string): Promise<AdminUser> {
  return db.transaction(async (tx) => {
    const row = await lockedUser(tx, id);
    const removed = await tx
      .delete(userTwoFactor)
      .where(eq(userTwoFactor.userId, id))
      .returning({ enabledAt: userTwoFactor.enabledAt });
    await writeAudit(tx, {
      actorId,
      action: 'user.reset_two_factor',
      targetType: 'user',
      targetId: id,
      details: { email: row.email, was_enabled: removed.some((r) => r.enabledAt !== null) },
    });
    return adminUserOf(tx, id);
  });
}
