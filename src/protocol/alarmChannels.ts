/**
 * The alarm channels contract (issue 11 "Alarms and channels": `/alarm-channels`, spec §2 auth route
 * /alarm-channels). A channel is where an alarm's events are delivered: e-mail (SMTP through nodemailer),
 * webhook (JSON POST signed with HMAC-SHA256), Telegram (Bot API sendMessage), Slack (incoming webhook) or
 * Web Push. Every event linked to a channel goes through the server's outbox (PostgreSQL); every attempt is
 * recorded and listed here (the delivery log), and every channel has a Test send.
 *
 * Webhook requests carry `Content-Type: application/json`, `Idempotency-Key: <event id>:<channel id>`,
 * `X-Edge-Timestamp: <unix seconds>` and `X-Edge-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>`
 * (webhookSignature below). The secret is shown once, when the channel is created or its secret is rotated.
 */
import { z } from 'zod';
import { defineRoutes } from './route';

export const CHANNEL_KINDS = ['email', 'webhook', 'telegram', 'slack', 'webpush'] as const;
export const ChannelKind = z.enum(CHANNEL_KINDS);
export type ChannelKind = z.infer<typeof ChannelKind>;

/** Longest channel name (characters); most channels linked to one alarm. */
export const CHANNEL_NAME_MAX_CHARS = 120;
export const ALARM_CHANNELS_MAX = 50;

/** Most attempts per delivery before the outbox gives up (status 'failed'). */
export const DELIVERY_MAX_ATTEMPTS = 6;
/** Backoff of the n-th retry: base · 2^(n−1), capped (ms). */
export const DELIVERY_BACKOFF_BASE_MS = 1000;
export const DELIVERY_BACKOFF_MAX_MS = 5 * 60_000;
/** Time-out of one attempt (ms). */
export const DELIVERY_TIMEOUT_MS = 10_000;

/**
 * The wait before retry number `attempt` (1 = after the first failure): base · 2^(attempt−1), at most max,
 * with ±`jitter`·that spread when `random` is given (0..1). Pure; ms.
 */
export function backoffMs(
  attempt: number,
  opts: { baseMs?: number; maxMs?: number; jitter?: number; random?: number } = {},
): number {
  const base = opts.baseMs ?? DELIVERY_BACKOFF_BASE_MS;
  const max = opts.maxMs ?? DELIVERY_BACKOFF_MAX_MS;
  const raw = Math.min(max, base * 2 ** Math.max(0, attempt - 1));
  if (opts.random === undefined || !opts.jitter) return raw;
  return Math.round(raw * (1 + opts.jitter * (2 * opts.random - 1)));
}

const httpUrl = z
  .url({ protocol: /^https?$/, message: 'Enter an http(s) URL' })
  .max(2000)
  .meta({ examples: ['https://hooks.example.com/edge'] });

/** Public settings of each kind (no secrets: those are sent once, in `secret`). */
export const ChannelConfig = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('email'), to: z.email('Enter an e-mail address').max(320) }).strict(),
  z.object({ kind: z.literal('webhook'), url: httpUrl }).strict(),
  z
    .object({
      kind: z.literal('telegram'),
      chat_id: z
        .string()
        .trim()
        .regex(/^(-?\d{1,20}|@[A-Za-z0-9_]{5,64})$/, 'Enter a chat id (a number) or @channel name'),
    })
    .strict(),
  z.object({ kind: z.literal('slack') }).strict(),
  z.object({ kind: z.literal('webpush') }).strict(),
]);
export type ChannelConfig = z.infer<typeof ChannelConfig>;

/** A new channel. `secret`: Telegram bot token or Slack incoming-webhook URL (required for those kinds). */
export const ChannelInput = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(CHANNEL_NAME_MAX_CHARS),
    config: ChannelConfig,
    enabled: z.boolean().default(true),
    secret: z.string().trim().min(1).max(2000).optional(),
  })
  .strict()
  .refine((c) => !['telegram', 'slack'].includes(c.config.kind) || !!c.secret, {
    message: 'Required for this kind of channel',
    path: ['secret'],
  })
  .refine((c) => c.config.kind !== 'slack' || !c.secret || /^https?:\/\//.test(c.secret), {
    message: 'Enter the Slack incoming-webhook URL',
    path: ['secret'],
  });
export type ChannelInput = z.input<typeof ChannelInput>;

/** A change: name, settings, on/off; `secret` replaces the Telegram token or Slack URL when given. */
export const ChannelUpdate = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(CHANNEL_NAME_MAX_CHARS),
    config: ChannelConfig,
    enabled: z.boolean(),
    secret: z.string().trim().min(1).max(2000).optional(),
  })
  .strict();
export type ChannelUpdate = z.input<typeof ChannelUpdate>;

/** Counts of a channel's outbox rows by status. */
export const DeliveryCounts = z.object({
  pending: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
});

export const Channel = z.object({
  id: z.uuid(),
  name: z.string(),
  config: ChannelConfig,
  enabled: z.boolean(),
  /** A secret is stored (webhook signing secret, Telegram token, Slack URL); its value is never sent again. */
  has_secret: z.boolean(),
  /** Browsers subscribed (webpush). */
  subscriptions: z.number().int(),
  deliveries: DeliveryCounts,
  created_at: z.string(),
});
export type Channel = z.infer<typeof Channel>;

/** One delivery attempt (ISO time; ms; code: HTTP status or SMTP reply code). */
export const DeliveryAttempt = z.object({
  id: z.uuid(),
  at: z.string(),
  ok: z.boolean(),
  response_code: z.number().int().nullable(),
  error: z.string().nullable(),
  duration_ms: z.number().int(),
  test: z.boolean(),
  /** The outbox row's key (`<event id>:<channel id>`); null for a Test send. */
  idempotency_key: z.string().nullable(),
  /** Try number of that row (1 = first). */
  attempt: z.number().int().nullable(),
  /** The row's status now. */
  delivery_status: z.enum(['pending', 'delivered', 'failed']).nullable(),
});
export type DeliveryAttempt = z.infer<typeof DeliveryAttempt>;

export const ALARM_CHANNEL_TEXTS = {
  notFound: 'Channel not found.',
  alarmNotFound: 'Alarm not found.',
  duplicate: 'A channel with this name already exists.',
  channelsMissing: 'Some of these channels were not found.',
  noSubscription: 'No browser is subscribed to this channel yet.',
  kindChange: 'A channel’s kind cannot change.',
} as const;

const IdParams = z.object({ id: z.string().min(1).max(100) });

export const PushSubscriptionInput = z
  .object({
    endpoint: httpUrl,
    keys: z.object({ p256dh: z.string().min(1).max(200), auth: z.string().min(1).max(100) }).strict(),
  })
  .strict();

export const alarmChannelRoutes = defineRoutes({
  'alarmChannels.list': {
    method: 'GET',
    path: '/api/alarm-channels',
    auth: 'user',
    summary: 'The caller’s alarm channels with their delivery counts',
    answer: z.object({ channels: z.array(Channel) }),
  },
  'alarmChannels.create': {
    method: 'POST',
    path: '/api/alarm-channels',
    auth: 'user',
    summary: 'Create a channel; a webhook’s signing secret is generated and answered once',
    body: ChannelInput,
    answer: z.object({ channel: Channel, secret: z.string().nullable() }),
    errors: [409],
  },
  'alarmChannels.update': {
    method: 'PUT',
    path: '/api/alarm-channels/:id',
    auth: 'user',
    summary: 'Change a channel’s name, settings or on/off (its kind stays)',
    params: IdParams,
    body: ChannelUpdate,
    answer: Channel,
    errors: [404, 409],
  },
  'alarmChannels.delete': {
    method: 'DELETE',
    path: '/api/alarm-channels/:id',
    auth: 'user',
    summary: 'Delete a channel, its links to alarms and its delivery log',
    params: IdParams,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'alarmChannels.rotateSecret': {
    method: 'POST',
    path: '/api/alarm-channels/:id/secret',
    auth: 'user',
    summary: 'A new webhook signing secret, answered once',
    params: IdParams,
    answer: z.object({ secret: z.string() }),
    errors: [404],
  },
  'alarmChannels.test': {
    method: 'POST',
    path: '/api/alarm-channels/:id/test',
    auth: 'user',
    summary: 'Send a test message through the channel now; answers the attempt (recorded in the log)',
    params: IdParams,
    answer: DeliveryAttempt,
    errors: [404],
  },
  'alarmChannels.attempts': {
    method: 'GET',
    path: '/api/alarm-channels/:id/attempts',
    auth: 'user',
    summary: 'The channel’s delivery log: the latest 100 attempts, newest first',
    params: IdParams,
    answer: z.object({ attempts: z.array(DeliveryAttempt) }),
    errors: [404],
  },
  'alarmChannels.alarmChannels': {
    method: 'GET',
    path: '/api/alarm-channels/alarms/:id',
    auth: 'user',
    summary: 'The channels an alarm’s events go to',
    params: IdParams,
    answer: z.object({ channel_ids: z.array(z.uuid()) }),
    errors: [404],
  },
  'alarmChannels.setAlarmChannels': {
    method: 'PUT',
    path: '/api/alarm-channels/alarms/:id',
    auth: 'user',
    summary: 'Set the channels an alarm’s events go to (the caller’s alarm and channels)',
    params: IdParams,
    body: z.object({ channel_ids: z.array(z.uuid()).max(ALARM_CHANNELS_MAX) }).strict(),
    answer: z.object({ channel_ids: z.array(z.uuid()) }),
    errors: [404],
  },
  'alarmChannels.webPushKey': {
    method: 'GET',
    path: '/api/alarm-channels/web-push-key',
    auth: 'user',
    summary: 'The server’s VAPID public key (base64url) for PushManager.subscribe',
    answer: z.object({ public_key: z.string() }),
  },
  'alarmChannels.subscribe': {
    method: 'POST',
    path: '/api/alarm-channels/:id/subscriptions',
    auth: 'user',
    summary: 'Add this browser’s Web Push subscription to a webpush channel',
    params: IdParams,
    body: PushSubscriptionInput,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
});
