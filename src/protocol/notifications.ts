/**
 * Notifications and the real-time socket (spec §3 Notification: title, message, variant, time, read, id;
 * §7 "A real-time socket with a token header also exists"; issue 11 "a notification bell with unread count").
 *
 * The socket is socket.io at `/socket.io` on the console's server. The client authenticates with its access
 * token, either in the handshake `auth: { token }` or the header `Authorization: Token {token}`; a bad or
 * expired token is refused with the connect error message `invalid_token` / `Token_expired` (the console
 * refreshes and reconnects). Each message is one `RealtimeMessage` on the socket event `message`, only ever
 * for the signed-in user; every server process sends it (PostgreSQL LISTEN/NOTIFY), so it works behind a
 * load balancer with several servers.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

/** §2 toast variants, used by notifications too. */
export const NotificationVariant = z.enum(['success', 'info', 'warning', 'danger']);
export type NotificationVariant = z.infer<typeof NotificationVariant>;

/** §3 Notification. time: ISO 8601. event_id: the alarm event that caused it (null for others). */
export const Notification = z.object({
  id: z.uuid(),
  title: z.string(),
  message: z.string(),
  variant: NotificationVariant,
  time: z.string(),
  read: z.boolean(),
  event_id: z.uuid().nullable(),
});
export type Notification = z.infer<typeof Notification>;

/** Most notifications one list answer holds (newest first). */
export const NOTIFICATIONS_PAGE = 50;

/** The socket.io path and the one event name the server emits. */
export const REALTIME_PATH = '/socket.io';
export const REALTIME_EVENT = 'message';

/** A brief event summary pushed when an alarm fires (the events feature holds the full record). */
export const RealtimeEvent = z.object({
  id: z.uuid(),
  alarm_id: z.uuid().nullable(),
  at: z.string(),
  class: z.string(),
  score: z.number(),
  severity: z.string(),
  camera_id: z.string(),
});

/** What the socket pushes. `alarm` carries the changed alarm's id and what happened to it. */
export const RealtimeMessage = z.discriminatedUnion('type', [
  z.object({ type: z.literal('notification'), notification: Notification }),
  z.object({ type: z.literal('notifications.read'), ids: z.array(z.uuid()).nullable() }),
  z.object({ type: z.literal('event'), event: RealtimeEvent }),
  z.object({
    type: z.literal('alarm'),
    alarm_id: z.uuid(),
    change: z.enum(['created', 'updated', 'deleted']),
  }),
]);
export type RealtimeMessage = z.infer<typeof RealtimeMessage>;

const IdParams = z.object({ id: z.string().min(1).max(100) });

export const notificationRoutes = defineRoutes({
  'notifications.list': {
    method: 'GET',
    path: '/api/notifications',
    auth: 'user',
    summary: 'The caller’s latest notifications (newest first) and the unread count',
    answer: z.object({ notifications: z.array(Notification), unread: z.number().int() }),
  },
  'notifications.read': {
    method: 'POST',
    path: '/api/notifications/:id/read',
    auth: 'user',
    summary: 'Mark one notification read',
    params: IdParams,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'notifications.readAll': {
    method: 'POST',
    path: '/api/notifications/read-all',
    auth: 'user',
    summary: 'Mark every notification of the caller read',
    answer: z.object({ ok: z.literal(true), updated: z.number().int() }),
  },
});
