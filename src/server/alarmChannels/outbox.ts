/**
 * The delivery outbox (issue 11 "Delivery goes through an outbox table in PostgreSQL: nothing is lost when the
 * server restarts; each attempt is visible").
 *
 * `enqueueEventDeliveries(tx, event)` is called by the events feature (src/server/events/record.ts) inside the
 * transaction that records an event. For the event's alarm it writes, in that transaction:
 *   - one `deliveries` row per enabled channel linked to the alarm (`alarm_channels`), idempotency key
 *     `<event id>:<channel id>` (unique: a second call for the same event adds nothing);
 *   - one §3 Notification for the alarm's owner (unique per event and user);
 * and queues, for commit time, a wake-up of the outbox workers and the notification + event on the owner's
 * real-time sockets (pg_notify). If the caller's transaction rolls back, none of it happened.
 */
import { and, eq } from 'drizzle-orm';
import type { Notification, NotificationVariant } from '../../protocol/notifications';
import { alarmChannels, alarms, channels, deliveries, notifications } from '../db/schema';
import { publishToUser, wakeOutbox, type Executor } from '../realtime/publish';
import type { Db } from '../db';

/** A transaction of `Db` (or `Db` itself). */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

/** The fields of an `events` row (src/server/db/schema/alarms.ts) the outbox reads. */
export interface DeliverableEvent {
  id: string;
  userId: string;
  alarmId: string | null;
  at: Date | string;
  class: string;
  score: number;
  severity: string;
  cameraId: string;
  deviceId?: string | null;
  box?: unknown;
  snapshotFile?: string | null;
  identity?: string | null;
}

/** The JSON every channel receives for an event (a webhook's body; e-mail and chat texts are made from it). */
export interface EventPayload {
  type: 'alarm.event';
  idempotency_key: string;
  alarm: { id: string; name: string; severity: string };
  event: {
    id: string;
    at: string;
    class: string;
    score: number;
    severity: string;
    camera_id: string;
    device_id: string | null;
    box: unknown;
    identity: string | null;
  };
}

/** Alarm severity → §2 variant. */
export function variantOf(severity: string): NotificationVariant {
  return severity === 'critical' ? 'danger' : severity === 'info' ? 'info' : 'warning';
}

/** The notification's title and message: language-neutral (names, class, percent, camera), no prose. */
export function notificationTexts(
  alarmName: string,
  e: DeliverableEvent,
): { title: string; message: string } {
  const pct = Math.round(Math.max(0, Math.min(1, e.score)) * 100);
  return { title: alarmName, message: `${e.class} · ${pct}% · ${e.cameraId}` };
}

export const idempotencyKeyOf = (eventId: string, channelId: string) => `${eventId}:${channelId}`;

/**
 * Writes the event's deliveries and notification in `tx` (see the module comment). Answers how many outbox
 * rows and whether a notification were added (0 / null when the event has no alarm, or was enqueued before).
 */
export async function enqueueEventDeliveries(
  tx: Tx,
  event: DeliverableEvent,
): Promise<{ deliveries: number; notification: Notification | null }> {
  if (!event.alarmId) return { deliveries: 0, notification: null };
  const [alarm] = await tx
    .select({ id: alarms.id, name: alarms.name, userId: alarms.userId, severity: alarms.severity })
    .from(alarms)
    .where(eq(alarms.id, event.alarmId));
  if (!alarm) return { deliveries: 0, notification: null };
  const at = new Date(event.at).toISOString();
  const linked = await tx
    .select({ id: channels.id })
    .from(alarmChannels)
    .innerJoin(channels, eq(channels.id, alarmChannels.channelId))
    .where(and(eq(alarmChannels.alarmId, alarm.id), eq(channels.enabled, true)));
  let added = 0;
  if (linked.length) {
    const rows = linked.map((c) => {
      const key = idempotencyKeyOf(event.id, c.id);
      const payload: EventPayload = {
        type: 'alarm.event',
        idempotency_key: key,
        alarm: { id: alarm.id, name: alarm.name, severity: alarm.severity },
        event: {
          id: event.id,
          at,
          class: event.class,
          score: event.score,
          severity: event.severity,
          camera_id: event.cameraId,
          device_id: event.deviceId ?? null,
          box: event.box ?? null,
          identity: event.identity ?? null,
        },
      };
      return { channelId: c.id, userId: alarm.userId, eventId: event.id, idempotencyKey: key, payload };
    });
    const inserted = await tx
      .insert(deliveries)
      .values(rows)
      .onConflictDoNothing({ target: deliveries.idempotencyKey })
      .returning({ id: deliveries.id });
    added = inserted.length;
    if (added) await wakeOutbox(tx as Executor);
  }
  const texts = notificationTexts(alarm.name, event);
  const [n] = await tx
    .insert(notifications)
    .values({ userId: alarm.userId, eventId: event.id, variant: variantOf(event.severity), ...texts })
    .onConflictDoNothing()
    .returning();
  let notification: Notification | null = null;
  if (n) {
    notification = {
      id: n.id,
      title: n.title,
      message: n.message,
      variant: variantOf(event.severity),
      time: n.time.toISOString(),
      read: n.read,
      event_id: n.eventId,
    };
    await publishToUser(tx as Executor, alarm.userId, { type: 'notification', notification });
    await publishToUser(tx as Executor, alarm.userId, {
      type: 'event',
      event: {
        id: event.id,
        alarm_id: alarm.id,
        at,
        class: event.class,
        score: event.score,
        severity: event.severity,
        camera_id: event.cameraId,
      },
    });
  }
  return { deliveries: added, notification };
}

/** The title and text a message channel (e-mail, chat, push) shows for an event payload. */
export function eventMessage(p: EventPayload): { title: string; text: string } {
  const pct = Math.round(p.event.score * 100);
  return {
    title: `[${p.alarm.severity}] ${p.alarm.name}: ${p.event.class}`,
    text:
      `${p.event.class} ${pct}% on camera ${p.event.camera_id} at ${p.event.at}` +
      (p.event.identity ? ` (${p.event.identity})` : '') +
      `\nEvent ${p.event.id}`,
  };
}
