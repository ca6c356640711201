/**
 * Handlers of the notification routes (src/protocol/notifications.ts; §3 Notification; issue 11 bell):
 *   GET  notifications           → { notifications (newest 50), unread }
 *   POST notifications/:id/read  → { ok }; 404 not the caller's
 *   POST notifications/read-all  → { ok, updated }
 * A change is pushed to the user's other sockets (tabs) as `notifications.read`.
 */
import { and, desc, eq, sql } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import {
  NOTIFICATIONS_PAGE,
  NotificationVariant,
  type Notification,
  type notificationRoutes,
} from '../../protocol/notifications';
import { userOf } from '../auth/guard';
import { isUuid } from '../db/scope';
import { notifications } from '../db/schema';
import { HttpError } from '../errors';
import { publishToUser } from '../realtime/publish';
import type { HandlersOf } from './register';

export function toNotification(r: typeof notifications.$inferSelect): Notification {
  const v = NotificationVariant.safeParse(r.variant);
  return {
    id: r.id,
    title: r.title,
    message: r.message,
    variant: v.success ? v.data : 'info',
    time: r.time.toISOString(),
    read: r.read,
    event_id: r.eventId,
  };
}

export const notificationHandlers: HandlersOf<typeof notificationRoutes> = (ctx) => ({
  'notifications.list': async (_input, request) => {
    const owner = userOf(request).id;
    const rows = await ctx.db
      .select()
      .from(notifications)
      .where(eq(notifications.userId, owner))
      .orderBy(desc(notifications.time), desc(notifications.id))
      .limit(NOTIFICATIONS_PAGE);
    const [u] = await ctx.db
      .select({ n: sql<number>`count(*)::int` })
      .from(notifications)
      .where(and(eq(notifications.userId, owner), eq(notifications.read, false)));
    return { notifications: rows.map(toNotification), unread: u?.n ?? 0 };
  },

  'notifications.read': async ({ params }, request) => {
    const owner = userOf(request).id;
    const done = isUuid(params.id)
      ? await ctx.db
          .update(notifications)
          .set({ read: true })
          .where(and(eq(notifications.id, params.id), eq(notifications.userId, owner)))
          .returning({ id: notifications.id })
      : [];
    if (!done.length) throw new HttpError(404, API_ERROR_CODES.notFound, 'Notification not found.');
    await publishToUser(ctx.db, owner, { type: 'notifications.read', ids: [params.id] });
    return { ok: true as const };
  },

  'notifications.readAll': async (_input, request) => {
    const owner = userOf(request).id;
    const done = await ctx.db
      .update(notifications)
      .set({ read: true })
      .where(and(eq(notifications.userId, owner), eq(notifications.read, false)))
      .returning({ id: notifications.id });
    await publishToUser(ctx.db, owner, { type: 'notifications.read', ids: null });
    return { ok: true as const, updated: done.length };
  },
});
