/**
 * Recording an event (issue 11 "Every detection that matches an alarm becomes an event"): the one server
 * function that inserts events. It runs in a transaction with the alarm channels' outbox
 * (enqueueEventDeliveries, src/server/alarmChannels/outbox.ts: one delivery per linked channel and the owner's
 * §3 notification), so a new event and what it must cause commit together or not at all.
 *
 * Idempotent: the device's idempotency key is unique per user, so a post repeated after a lost answer finds
 * the event already recorded (created false) and nothing is delivered twice.
 */
import { and, eq } from 'drizzle-orm';
import type { DeviceEventPost } from '../../protocol/events';
import type { Severity } from '../../protocol/alarms';
import { enqueueEventDeliveries } from '../alarmChannels/outbox';
import type { Db } from '../db';
import { events } from '../db/schema';

export type EventRow = typeof events.$inferSelect;

/** What is recorded: the device's post plus who it belongs to and the alarm's severity. */
export interface RecordEventInput {
  userId: string;
  /** devices.id of the device that saw it (null: not from a device, e.g. an import). */
  deviceRowId: string | null;
  severity: Severity;
  post: DeviceEventPost;
}

/**
 * Inserts the event unless one with the same (user, idempotency key) exists.
 * @returns the event row and whether this call created it.
 */
export async function recordEvent(
  db: Db,
  input: RecordEventInput,
): Promise<{ event: EventRow; created: boolean }> {
  const p = input.post;
  return db.transaction(async (tx) => {
    const [inserted] = await tx
      .insert(events)
      .values({
        userId: input.userId,
        alarmId: p.alarm_id,
        deviceId: input.deviceRowId,
        cameraId: p.camera_id,
        cameraKind: p.camera_kind,
        jobId: p.job_id,
        trackId: p.track_id,
        at: new Date(p.at),
        class: p.class,
        score: p.score,
        box: p.box,
        severity: input.severity,
        identity: p.identity,
        attributes: p.attributes,
        idempotencyKey: p.idempotency_key,
      })
      .onConflictDoNothing({ target: [events.userId, events.idempotencyKey] })
      .returning();
    if (inserted) {
      // The alarm's channel deliveries and the owner's notification commit with the event, or not at all.
      await enqueueEventDeliveries(tx, inserted);
      return { event: inserted, created: true };
    }
    const [existing] = await tx
      .select()
      .from(events)
      .where(and(eq(events.userId, input.userId), eq(events.idempotencyKey, p.idempotency_key)))
      .limit(1);
    if (!existing) throw new Error('event: neither inserted nor found');
    return { event: existing, created: false };
  });
}
