/**
 * Handlers of the alarm channels routes (src/protocol/alarmChannels.ts; issue 11 `/alarm-channels`):
 *   GET    alarm-channels                  → { channels } the caller's, by name, with delivery counts
 *   POST   alarm-channels                  → { channel, secret } a webhook's signing secret once; 409 name taken
 *   PUT    alarm-channels/:id              → Channel; 404, 409; the kind cannot change (400)
 *   DELETE alarm-channels/:id              → { ok }
 *   POST   alarm-channels/:id/secret       → { secret } a new webhook signing secret, once
 *   POST   alarm-channels/:id/test         → DeliveryAttempt: a test message sent now (rate-limited 20/min)
 *   GET    alarm-channels/:id/attempts     → { attempts } the delivery log, newest 100
 *   GET|PUT alarm-channels/alarms/:id      → { channel_ids } an alarm's channels (the alarm editor)
 *   GET    alarm-channels/web-push-key     → { public_key } VAPID
 *   POST   alarm-channels/:id/subscriptions → { ok } a browser's PushSubscription
 * Another user's channel or alarm answers 404.
 */
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { API_ERROR_CODES } from '../../protocol';
import {
  ALARM_CHANNEL_TEXTS,
  ChannelConfig,
  type alarmChannelRoutes,
  type Channel,
  type DeliveryAttempt,
} from '../../protocol/alarmChannels';
import { channelRuntimeOf } from '../alarmChannels';
import { sendThrough } from '../alarmChannels/senders';
import { newWebhookSecret } from '../alarmChannels/signing';
import { vapidKeys } from '../alarmChannels/webPush';
import { userOf } from '../auth/guard';
import { secretBox } from '../auth/secretBox';
import { assertPublicUrl, UrlRefusedError } from '../net/publicUrl';
import type { Db } from '../db';
import { isUniqueViolation, isUuid } from '../db/scope';
import {
  alarmChannels,
  alarms,
  channels,
  deliveries,
  deliveryAttempts,
  pushSubscriptions,
} from '../db/schema';
import { HttpError } from '../errors';
import type { HandlersOf } from './register';

type Row = typeof channels.$inferSelect;

const notFound = () => new HttpError(404, API_ERROR_CODES.notFound, ALARM_CHANNEL_TEXTS.notFound);
const duplicate = () => new HttpError(409, 'Channel_exists', ALARM_CHANNEL_TEXTS.duplicate);

async function ownChannel(db: Db, owner: string, id: string): Promise<Row> {
  if (!isUuid(id)) throw notFound();
  const [row] = await db
    .select()
    .from(channels)
    .where(and(eq(channels.id, id), eq(channels.userId, owner)))
    .limit(1);
  if (!row) throw notFound();
  return row;
}

async function ownAlarm(db: Db, owner: string, id: string): Promise<void> {
  const [row] = isUuid(id)
    ? await db
        .select({ id: alarms.id })
        .from(alarms)
        .where(and(eq(alarms.id, id), eq(alarms.userId, owner)))
    : [];
  if (!row) throw new HttpError(404, API_ERROR_CODES.notFound, ALARM_CHANNEL_TEXTS.alarmNotFound);
}

/** Channels as answered, with their delivery counts and subscriptions. */
async function toChannels(db: Db, rows: Row[]): Promise<Channel[]> {
  const ids = rows.map((r) => r.id);
  const counts = new Map<string, Channel['deliveries']>();
  const subs = new Map<string, number>();
  if (ids.length) {
    const c = await db
      .select({ channelId: deliveries.channelId, status: deliveries.status, n: sql<number>`count(*)::int` })
      .from(deliveries)
      .where(inArray(deliveries.channelId, ids))
      .groupBy(deliveries.channelId, deliveries.status);
    for (const r of c) {
      const e = counts.get(r.channelId) ?? { pending: 0, delivered: 0, failed: 0 };
      if (r.status === 'pending' || r.status === 'delivered' || r.status === 'failed') e[r.status] = r.n;
      counts.set(r.channelId, e);
    }
    const s = await db
      .select({ channelId: pushSubscriptions.channelId, n: sql<number>`count(*)::int` })
      .from(pushSubscriptions)
      .where(inArray(pushSubscriptions.channelId, ids))
      .groupBy(pushSubscriptions.channelId);
    for (const r of s) subs.set(r.channelId, r.n);
  }
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    config: ChannelConfig.parse(r.config),
    enabled: r.enabled,
    has_secret: r.secretSealed !== null,
    subscriptions: subs.get(r.id) ?? 0,
    deliveries: counts.get(r.id) ?? { pending: 0, delivered: 0, failed: 0 },
    created_at: r.createdAt.toISOString(),
  }));
}

async function one(db: Db, row: Row): Promise<Channel> {
  const [c] = await toChannels(db, [row]);
  return c!;
}

/**
 * On save (issue 15 SSRF): a webhook URL or Slack webhook URL naming a loopback, private, link-local or
 * metadata address (or localhost) is refused with 400 Url_refused, unless ALLOW_PRIVATE_URLS=1. Names are
 * resolved on each send instead (a name may not resolve yet, and may change).
 */
async function refuseLocalTarget(body: { config: ChannelConfig; secret?: string | null }): Promise<void> {
  const url =
    body.config.kind === 'webhook' ? body.config.url : body.config.kind === 'slack' ? body.secret : null;
  if (!url) return;
  try {
    await assertPublicUrl(url, { dns: false });
  } catch (err) {
    if (err instanceof UrlRefusedError) throw new HttpError(400, err.code, err.message);
    throw err;
  }
}

export const alarmChannelHandlers: HandlersOf<typeof alarmChannelRoutes> = (ctx, app) => ({
  'alarmChannels.list': async (_input, request) => {
    const rows = await ctx.db
      .select()
      .from(channels)
      .where(eq(channels.userId, userOf(request).id))
      .orderBy(asc(channels.name));
    return { channels: await toChannels(ctx.db, rows) };
  },

  'alarmChannels.create': async ({ body }, request) => {
    await refuseLocalTarget(body);
    const box = await secretBox(ctx.db);
    const generated = body.config.kind === 'webhook' ? newWebhookSecret() : null;
    const secret = generated ?? body.secret ?? null;
    try {
      const [row] = await ctx.db
        .insert(channels)
        .values({
          userId: userOf(request).id,
          name: body.name,
          kind: body.config.kind,
          config: body.config,
          enabled: body.enabled,
          secretSealed: secret ? box.seal(secret) : null,
        })
        .returning();
      return { channel: await one(ctx.db, row!), secret: generated };
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
  },

  'alarmChannels.update': async ({ params, body }, request) => {
    await refuseLocalTarget(body);
    const row = await ownChannel(ctx.db, userOf(request).id, params.id);
    if (row.kind !== body.config.kind)
      throw new HttpError(400, API_ERROR_CODES.validation, ALARM_CHANNEL_TEXTS.kindChange);
    const keepsSecret = body.config.kind === 'webhook' || !body.secret;
    const box = await secretBox(ctx.db);
    try {
      const [saved] = await ctx.db
        .update(channels)
        .set({
          name: body.name,
          config: body.config,
          enabled: body.enabled,
          updatedAt: new Date(),
          ...(keepsSecret ? {} : { secretSealed: box.seal(body.secret!) }),
        })
        .where(eq(channels.id, row.id))
        .returning();
      return one(ctx.db, saved!);
    } catch (err) {
      if (isUniqueViolation(err)) throw duplicate();
      throw err;
    }
  },

  'alarmChannels.delete': async ({ params }, request) => {
    const row = await ownChannel(ctx.db, userOf(request).id, params.id);
    await ctx.db.delete(channels).where(eq(channels.id, row.id));
    return { ok: true as const };
  },

  'alarmChannels.rotateSecret': async ({ params }, request) => {
    const row = await ownChannel(ctx.db, userOf(request).id, params.id);
    if (row.kind !== 'webhook') throw notFound();
    const secret = newWebhookSecret();
    const box = await secretBox(ctx.db);
    await ctx.db
      .update(channels)
      .set({ secretSealed: box.seal(secret), updatedAt: new Date() })
      .where(eq(channels.id, row.id));
    return { secret };
  },

  'alarmChannels.test': {
    rateLimit: { max: 20, timeWindow: '1 minute' },
    handle: async ({ params }, request) => {
      const row = await ownChannel(ctx.db, userOf(request).id, params.id);
      const box = await secretBox(ctx.db);
      let secret: string | null = null;
      try {
        secret = row.secretSealed ? box.open(row.secretSealed) : null;
      } catch {
        secret = null;
      }
      const sentAt = new Date().toISOString();
      const result = await sendThrough(
        channelRuntimeOf(ctx, app),
        { id: row.id, config: ChannelConfig.parse(row.config), secret },
        {
          idempotencyKey: null,
          title: `Test message: ${row.name}`,
          text: `This is a test of the alarm channel “${row.name}” of Edge AI Console, sent at ${sentAt}.`,
          payload: { type: 'alarm.test', channel: { id: row.id, name: row.name }, sent_at: sentAt },
        },
      );
      const [a] = await ctx.db
        .insert(deliveryAttempts)
        .values({
          channelId: row.id,
          ok: result.ok,
          responseCode: result.code,
          error: result.error,
          durationMs: result.durationMs,
          test: true,
        })
        .returning();
      return {
        id: a!.id,
        at: a!.at.toISOString(),
        ok: a!.ok,
        response_code: a!.responseCode,
        error: a!.error,
        duration_ms: a!.durationMs,
        test: true,
        idempotency_key: null,
        attempt: null,
        delivery_status: null,
      } satisfies DeliveryAttempt;
    },
  },

  'alarmChannels.attempts': async ({ params }, request) => {
    const row = await ownChannel(ctx.db, userOf(request).id, params.id);
    const rows = await ctx.db
      .select({ a: deliveryAttempts, key: deliveries.idempotencyKey, status: deliveries.status })
      .from(deliveryAttempts)
      .leftJoin(deliveries, eq(deliveries.id, deliveryAttempts.deliveryId))
      .where(eq(deliveryAttempts.channelId, row.id))
      .orderBy(desc(deliveryAttempts.at))
      .limit(100);
    // Try numbers: count each row's attempts up to this one (rows are newest first).
    const seen = new Map<string, number>();
    const totals = new Map<string, number>();
    for (const r of rows)
      if (r.a.deliveryId) totals.set(r.a.deliveryId, (totals.get(r.a.deliveryId) ?? 0) + 1);
    const attempts: DeliveryAttempt[] = rows.map((r) => {
      const d = r.a.deliveryId;
      let attempt: number | null = null;
      if (d) {
        const k = seen.get(d) ?? 0;
        seen.set(d, k + 1);
        attempt = totals.get(d)! - k;
      }
      const status =
        r.status === 'pending' || r.status === 'delivered' || r.status === 'failed' ? r.status : null;
      return {
        id: r.a.id,
        at: r.a.at.toISOString(),
        ok: r.a.ok,
        response_code: r.a.responseCode,
        error: r.a.error,
        duration_ms: r.a.durationMs,
        test: r.a.test,
        idempotency_key: r.key ?? null,
        attempt,
        delivery_status: status,
      };
    });
    return { attempts };
  },

  'alarmChannels.alarmChannels': async ({ params }, request) => {
    await ownAlarm(ctx.db, userOf(request).id, params.id);
    const rows = await ctx.db
      .select({ id: alarmChannels.channelId })
      .from(alarmChannels)
      .where(eq(alarmChannels.alarmId, params.id));
    return { channel_ids: rows.map((r) => r.id) };
  },

  'alarmChannels.setAlarmChannels': async ({ params, body }, request) => {
    const owner = userOf(request).id;
    await ownAlarm(ctx.db, owner, params.id);
    const ids = [...new Set(body.channel_ids)];
    await ctx.db.transaction(async (tx) => {
      if (ids.length) {
        const own = await tx
          .select({ id: channels.id })
          .from(channels)
          .where(and(inArray(channels.id, ids), eq(channels.userId, owner)));
        if (own.length !== ids.length)
          throw new HttpError(404, API_ERROR_CODES.notFound, ALARM_CHANNEL_TEXTS.channelsMissing);
      }
      await tx.delete(alarmChannels).where(eq(alarmChannels.alarmId, params.id));
      if (ids.length)
        await tx.insert(alarmChannels).values(ids.map((channelId) => ({ alarmId: params.id, channelId })));
    });
    return { channel_ids: ids };
  },

  'alarmChannels.webPushKey': async () => ({ public_key: (await vapidKeys(ctx.db)).publicKey }),

  'alarmChannels.subscribe': async ({ params, body }, request) => {
    const row = await ownChannel(ctx.db, userOf(request).id, params.id);
    if (row.kind !== 'webpush') throw notFound();
    await ctx.db
      .insert(pushSubscriptions)
      .values({ channelId: row.id, endpoint: body.endpoint, p256dh: body.keys.p256dh, auth: body.keys.auth })
      .onConflictDoUpdate({
        target: [pushSubscriptions.channelId, pushSubscriptions.endpoint],
        set: { p256dh: body.keys.p256dh, auth: body.keys.auth },
      });
    return { ok: true as const };
  },
});
