/**
 * Profile (spec §2 Profile children, §3 User info, §5 "Profile update sends the password only when provided",
 * §7 PUT user; issue 13): the handlers of src/protocol/profile.ts.
 *   PUT    user                   changes what is given; email or password changes need current_password
 *                                 (403 Wrong_password), a taken address 409 Email_taken, and end the
 *                                 user's other sessions (src/server/auth/sessions.ts endOtherSessions)
 *   POST   profile/avatar/remove  the avatar removed (src/server/profile/avatar.ts; the upload is a tus purpose)
 *   GET    avatars/:userId        the avatar's bytes with its sniffed type (no auth; 404 when none)
 *   GET|POST api-keys, DELETE api-keys/:id   src/server/profile/apiKeys.ts
 *   GET    profile/device-tokens  each device's current token issue time (device_token_issues, kept by a trigger)
 *   GET    usage/storage, usage/network      src/server/profile/usage.ts
 */
import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { and, asc, desc, eq, ne } from 'drizzle-orm';
import { DEVICE_TOKEN_EXPIRY_S } from '../../protocol';
import { PROFILE_ERROR_CODES, type profileRoutes } from '../../protocol/profile';
import { userOf } from '../auth/guard';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { endOtherSessions } from '../auth/sessions';
import { isUniqueViolation, isUuid } from '../db/scope';
import { apiKeys, devices, deviceTokenIssues, userAvatars, users } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { activeKeyNamed, newApiKey, toApiKey } from '../profile/apiKeys';
import { avatarFile, removeAvatar } from '../profile/avatar';
import { networkUsage, storageUsage } from '../profile/usage';
import { auditLater, auditSecurity } from '../audit/security';
import { toUserInfo } from './accounts';
import type { HandlersOf } from './register';

const emailTaken = () =>
  new HttpError(409, PROFILE_ERROR_CODES.emailTaken, 'This address is used by another account.');

export const profileHandlers: HandlersOf<typeof profileRoutes> = (ctx, app) => ({
  'profile.update': async ({ body }, request) => {
    const user = userOf(request);
    const email = body.email?.toLowerCase();
    const emailChanges = email !== undefined && email !== user.email;
    // §5: the password only when provided; changing sign-in facts needs the current password (ours).
    if (emailChanges || body.password !== undefined) {
      const ok =
        body.current_password !== undefined &&
        (await verifyPassword(user.passwordHash, body.current_password));
      if (!ok) {
        auditLater(ctx.db, app.log, {
          userId: user.id,
          action: 'account.password_check_failed',
          details: { where: 'profile' },
        });
        throw new HttpError(403, PROFILE_ERROR_CODES.wrongPassword, 'The current password is not correct.');
      }
    }
    if (emailChanges) {
      const [other] = await ctx.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.email, email), ne(users.id, user.id)))
        .limit(1);
      if (other) throw emailTaken();
    }
    if (body.image === null && user.image !== null) await removeAvatar(ctx, user.id);
    const set: Partial<typeof users.$inferInsert> = {};
    if (emailChanges) set.email = email;
    if (body.username !== undefined) set.username = body.username;
    if (body.bio !== undefined)
      set.bio = body.bio === null || body.bio.trim() === '' ? null : body.bio.trim();
    if (body.password !== undefined) set.passwordHash = await hashPassword(body.password);
    if (body.image === null) set.image = null;
    if (Object.keys(set).length === 0) {
      const [fresh] = await ctx.db.select().from(users).where(eq(users.id, user.id));
      return { user_info: toUserInfo(fresh ?? user) };
    }
    try {
      const [row] = await ctx.db.update(users).set(set).where(eq(users.id, user.id)).returning();
      // New sign-in facts end the user's other sessions (theirs may be the reason for the change); this one stays.
      if (emailChanges || body.password !== undefined) {
        await endOtherSessions(ctx.db, user.id, request.sessionId);
      }
      if (emailChanges)
        await auditSecurity(ctx.db, {
          userId: user.id,
          action: 'account.email_change',
          details: { from: user.email, to: email },
        });
      if (body.password !== undefined)
        await auditSecurity(ctx.db, { userId: user.id, action: 'account.password_change' });
      return { user_info: toUserInfo(row ?? user) };
    } catch (err) {
      if (isUniqueViolation(err)) throw emailTaken();
      throw err;
    }
  },

  'profile.removeAvatar': async (_input, request) => {
    const user = userOf(request);
    await removeAvatar(ctx, user.id);
    return { user_info: toUserInfo({ ...user, image: null }) };
  },

  'profile.avatar': async ({ params }, _request, reply) => {
    if (!isUuid(params.userId)) throw notFound('Avatar');
    const [row] = await ctx.db.select().from(userAvatars).where(eq(userAvatars.userId, params.userId));
    const file = avatarFile(ctx, params.userId);
    const info = row ? await stat(file).catch(() => null) : null;
    if (!row || !info) throw notFound('Avatar');
    void reply
      .header('content-type', row.contentType)
      .header('content-length', String(info.size))
      .header('x-content-type-options', 'nosniff')
      .header('content-security-policy', "default-src 'none'; sandbox")
      // The URL changes with the picture (?v=<hash>), so a copy may be kept; private: no shared caches.
      .header('cache-control', 'private, max-age=86400')
      .header('etag', `"${row.sha256}"`);
    return reply.send(createReadStream(file));
  },

  'profile.listApiKeys': async (_input, request) => {
    const rows = await ctx.db
      .select()
      .from(apiKeys)
      .where(eq(apiKeys.userId, userOf(request).id))
      .orderBy(desc(apiKeys.createdAt));
    const now = new Date();
    return { keys: rows.map((r) => toApiKey(r, now)) };
  },

  'profile.createApiKey': async ({ body }, request) => {
    const user = userOf(request);
    if (await activeKeyNamed(ctx.db, user.id, body.name)) {
      throw new HttpError(409, 'Name_taken', 'You already have an active API key with this name.');
    }
    const { secret, hash, prefix } = newApiKey();
    const days = body.expires_in_days ?? null;
    const [row] = await ctx.db
      .insert(apiKeys)
      .values({
        userId: user.id,
        name: body.name,
        scope: body.scope,
        prefix,
        secretHash: hash,
        expiresAt: days === null ? null : new Date(Date.now() + days * 86_400_000),
      })
      .returning();
    await auditSecurity(ctx.db, {
      userId: user.id,
      action: 'api_key.create',
      target: { type: 'api_key', id: row!.id },
      details: { name: body.name, scope: body.scope },
    });
    return { key: toApiKey(row!), secret };
  },

  'profile.revokeApiKey': async ({ params }, request) => {
    if (!isUuid(params.id)) throw notFound('API key');
    const userId = userOf(request).id;
    const [existing] = await ctx.db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.id, params.id), eq(apiKeys.userId, userId)));
    if (!existing) throw notFound('API key');
    if (existing.revokedAt) return { key: toApiKey(existing) };
    const [row] = await ctx.db
      .update(apiKeys)
      .set({ revokedAt: new Date() })
      .where(eq(apiKeys.id, existing.id))
      .returning();
    await auditSecurity(ctx.db, {
      userId,
      action: 'api_key.revoke',
      target: { type: 'api_key', id: existing.id },
      details: { name: existing.name },
    });
    return { key: toApiKey(row ?? existing) };
  },

  'profile.deviceTokens': async (_input, request) => {
    const rows = await ctx.db
      .select({
        id: devices.id,
        deviceId: devices.deviceId,
        label: devices.label,
        jti: devices.tokenJti,
        issuedJti: deviceTokenIssues.jti,
        issuedAt: deviceTokenIssues.issuedAt,
      })
      .from(devices)
      .leftJoin(deviceTokenIssues, eq(deviceTokenIssues.deviceRowId, devices.id))
      .where(eq(devices.ownerId, userOf(request).id))
      .orderBy(asc(devices.label), asc(devices.deviceId));
    return {
      tokens: rows.map((r) => {
        const issued = r.jti && r.issuedAt && r.issuedJti === r.jti ? r.issuedAt : null;
        return {
          id: r.id,
          device_id: r.deviceId,
          label: r.label,
          issued_at: issued?.toISOString() ?? null,
          expires_at: issued ? new Date(issued.getTime() + DEVICE_TOKEN_EXPIRY_S * 1000).toISOString() : null,
          has_token: r.jti !== null,
          is_active: ctx.presence.isOnline(r.deviceId),
        };
      }),
    };
  },

  'profile.storageUsage': async (_input, request) => storageUsage(ctx.db, userOf(request).id),

  'profile.networkUsage': async ({ query }, request) => networkUsage(ctx.db, userOf(request).id, query.days),
});
