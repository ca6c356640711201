/**
 * Database schema, Alarm channels, delivery outbox and notifications (issue 11 "Alarms and channels"; spec §3
 * Notification: title, message, variant, time, read, id). Re-exported by ./index.ts.
 */
import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
  uuid,
} from 'drizzle-orm/pg-core';
import { createdAt, users } from './core';
import { alarms, events } from './alarms';

/**
 * A user's delivery channel (`/alarm-channels`). kind: 'email' | 'webhook' | 'telegram' | 'slack' | 'webpush'.
 * config: the kind's public settings as JSON (src/protocol/alarmChannels.ts ChannelConfig: e-mail `to`, webhook
 * `url`, Telegram `chat_id`, Slack `webhook_url`). secret_sealed: the kind's secret sealed with the server's
 * secret box (webhook signing secret, Telegram bot token, Slack webhook URL), never sent back after creation.
 */
export const channels = pgTable(
  'channels',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    kind: text('kind').notNull(),
    config: jsonb('config')
      .notNull()
      .default(sql`'{}'::jsonb`),
    secretSealed: text('secret_sealed'),
    enabled: boolean('enabled').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('channels_user_name_uq').on(t.userId, t.name),
    check('channels_kind_ck', sql`${t.kind} in ('email', 'webhook', 'telegram', 'slack', 'webpush')`),
  ],
);

/** Which channels an alarm's events go to (set by the alarm editor through PUT alarm-channels/alarms/:id). */
export const alarmChannels = pgTable(
  'alarm_channels',
  {
    alarmId: uuid('alarm_id')
      .notNull()
      .references(() => alarms.id, { onDelete: 'cascade' }),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.alarmId, t.channelId] }),
    index('alarm_channels_channel_idx').on(t.channelId),
  ],
);

/**
 * The outbox: one row per (event, channel), written in the transaction that records the event
 * (src/server/alarmChannels/outbox.ts). idempotency_key `<event id>:<channel id>` is unique and is sent to the
 * receiver (webhook header `Idempotency-Key`). status 'pending' | 'delivered' | 'failed' (gave up after the
 * most attempts); next_at: when the worker may try it (backoff); attempts: tries so far.
 */
export const deliveries = pgTable(
  'deliveries',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    eventId: uuid('event_id').references(() => events.id, { onDelete: 'cascade' }),
    idempotencyKey: text('idempotency_key').notNull().unique(),
    payload: jsonb('payload').notNull(),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAt: timestamp('next_at', { withTimezone: true }).notNull().defaultNow(),
    lastError: text('last_error'),
    deliveredAt: timestamp('delivered_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('deliveries_due_idx')
      .on(t.nextAt)
      .where(sql`${t.status} = 'pending'`),
    index('deliveries_channel_idx').on(t.channelId, t.createdAt),
  ],
);

/**
 * Every attempt to deliver (worker and Test button): at, ok, response code (HTTP status or SMTP reply code),
 * error text, duration (ms). delivery_id null for a Test send.
 */
export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    deliveryId: uuid('delivery_id').references(() => deliveries.id, { onDelete: 'cascade' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
    ok: boolean('ok').notNull(),
    responseCode: integer('response_code'),
    error: text('error'),
    durationMs: integer('duration_ms').notNull(),
    test: boolean('test').notNull().default(false),
  },
  (t) => [index('delivery_attempts_channel_at_idx').on(t.channelId, t.at)],
);

/** §3 Notification: title, message, variant, time, read, id, for one user; event_id when an event caused it. */
export const notifications = pgTable(
  'notifications',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull(),
    variant: text('variant').notNull().default('info'),
    time: timestamp('time', { withTimezone: true }).notNull().defaultNow(),
    read: boolean('read').notNull().default(false),
    eventId: uuid('event_id').references(() => events.id, { onDelete: 'cascade' }),
  },
  (t) => [
    unique('notifications_user_event_uq').on(t.userId, t.eventId),
    index('notifications_user_time_idx').on(t.userId, t.time),
  ],
);

/** A browser's Web Push subscription (PushSubscription endpoint and keys) for a webpush channel. */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    channelId: uuid('channel_id')
      .notNull()
      .references(() => channels.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('push_subscriptions_channel_endpoint_uq').on(t.channelId, t.endpoint)],
);

/** The server's VAPID key pair for Web Push (one row, id 1), generated on first use; private key sealed. */
export const webPushKeys = pgTable('web_push_keys', {
  id: integer('id').primaryKey(),
  publicKey: text('public_key').notNull(),
  privateKeySealed: text('private_key_sealed').notNull(),
  createdAt: createdAt(),
});
