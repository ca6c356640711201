/**
 * One delivery attempt per channel kind (issue 11 "Channels"): e-mail through the server's nodemailer Mailer
 * (SMTP_URL, or the embedded catcher whose mailbox the console shows), webhook (signed JSON POST, signing.ts),
 * Telegram Bot API `sendMessage` (base URL `TELEGRAM_API_URL`, default https://api.telegram.org), Slack
 * incoming webhook (its URL is the channel's secret) and Web Push (webPush.ts). Each answers an AttemptResult
 * and never throws: a refusal, a time-out or a network error is a failed attempt with its text. A webhook or
 * Slack URL (typed by a user) is sent to only when its host resolves to public addresses (../net/publicUrl.ts,
 * issue 15 SSRF; ALLOW_PRIVATE_URLS=1 lifts it); otherwise the attempt fails with the reason.
 */
import type { ChannelConfig } from '../../protocol/alarmChannels';
import { DELIVERY_TIMEOUT_MS } from '../../protocol/alarmChannels';
import type { OutgoingMail } from '../mail';
import { assertPublicUrl } from '../net/publicUrl';
import { IDEMPOTENCY_HEADER, SIGNATURE_HEADER, signWebhook, TIMESTAMP_HEADER } from './signing';

/** What one attempt sends: the idempotency key (null for a Test send), a title, a text and the JSON body. */
export interface OutboundMessage {
  idempotencyKey: string | null;
  title: string;
  text: string;
  payload: Record<string, unknown>;
}

/** A channel ready to send: its public config and its secret in clear (webhook, Telegram, Slack). */
export interface SendableChannel {
  id: string;
  config: ChannelConfig;
  secret: string | null;
}

/** ok: delivered; code: HTTP status or SMTP reply code (null when none came); error: why not (clipped). */
export interface AttemptResult {
  ok: boolean;
  code: number | null;
  error: string | null;
  durationMs: number;
}

export interface WebPushTarget {
  /** Sends to every subscription of the channel; answers how many took it and the last failure. */
  sendToChannel(
    channelId: string,
    body: string,
  ): Promise<{ sent: number; total: number; code: number | null; error: string | null }>;
}

export interface SenderDeps {
  mailer: { send(mail: OutgoingMail): Promise<void> };
  webPush: WebPushTarget;
  fetch?: typeof globalThis.fetch;
  telegramApiUrl?: string;
  timeoutMs?: number;
  /** Send to loopback/private addresses too (default: env ALLOW_PRIVATE_URLS). */
  allowPrivateUrls?: boolean;
}

const clip = (s: string) => (s.length > 500 ? `${s.slice(0, 500)}…` : s);
const errorText = (err: unknown) =>
  clip(
    err instanceof Error
      ? err.cause instanceof Error
        ? `${err.message}: ${err.cause.message}`
        : err.message
      : String(err),
  );

async function postJson(
  deps: SenderDeps,
  url: string,
  body: string,
  headers: Record<string, string> = {},
): Promise<Omit<AttemptResult, 'durationMs'> & { json?: unknown }> {
  const f = deps.fetch ?? globalThis.fetch;
  const res = await f(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': 'edge-console-alarms/1', ...headers },
    body,
    signal: AbortSignal.timeout(deps.timeoutMs ?? DELIVERY_TIMEOUT_MS),
    redirect: 'manual',
  });
  const text = await res.text().catch(() => '');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : undefined;
  } catch {
    json = undefined;
  }
  return {
    ok: res.ok,
    code: res.status,
    error: res.ok ? null : clip(`HTTP ${res.status}${text ? `: ${text}` : ''}`),
    json,
  };
}

/** Sends `message` through `channel`; never throws. */
export async function sendThrough(
  deps: SenderDeps,
  channel: SendableChannel,
  message: OutboundMessage,
): Promise<AttemptResult> {
  const started = performance.now();
  const done = (r: Omit<AttemptResult, 'durationMs'>): AttemptResult => ({
    ok: r.ok,
    code: r.code,
    error: r.error,
    durationMs: Math.round(performance.now() - started),
  });
  try {
    const c = channel.config;
    switch (c.kind) {
      case 'email': {
        await deps.mailer.send({ to: c.to, subject: message.title, text: message.text });
        return done({ ok: true, code: 250, error: null });
      }
      case 'webhook': {
        if (!channel.secret) return done({ ok: false, code: null, error: 'No signing secret' });
        const body = JSON.stringify(message.payload);
        const ts = Math.floor(Date.now() / 1000);
        const headers: Record<string, string> = {
          [TIMESTAMP_HEADER]: String(ts),
          [SIGNATURE_HEADER]: signWebhook(channel.secret, ts, body),
        };
        if (message.idempotencyKey) headers[IDEMPOTENCY_HEADER] = message.idempotencyKey;
        await assertPublicUrl(c.url, { allowPrivate: deps.allowPrivateUrls });
        return done(await postJson(deps, c.url, body, headers));
      }
      case 'telegram': {
        if (!channel.secret) return done({ ok: false, code: null, error: 'No bot token' });
        const base = (deps.telegramApiUrl ?? 'https://api.telegram.org').replace(/\/+$/, '');
        const r = await postJson(
          deps,
          `${base}/bot${channel.secret}/sendMessage`,
          JSON.stringify({ chat_id: c.chat_id, text: `${message.title}\n${message.text}` }),
        );
        const apiOk = (r.json as { ok?: boolean } | undefined)?.ok === true;
        const desc = (r.json as { description?: string } | undefined)?.description;
        return done({
          ok: r.ok && apiOk,
          code: r.code,
          error: r.ok && apiOk ? null : clip(desc ?? r.error ?? 'Telegram did not accept the message'),
        });
      }
      case 'slack': {
        if (!channel.secret) return done({ ok: false, code: null, error: 'No webhook URL' });
        await assertPublicUrl(channel.secret, { allowPrivate: deps.allowPrivateUrls });
        return done(
          await postJson(
            deps,
            channel.secret,
            JSON.stringify({ text: `*${message.title}*\n${message.text}` }),
          ),
        );
      }
      case 'webpush': {
        const r = await deps.webPush.sendToChannel(
          channel.id,
          JSON.stringify({ title: message.title, body: message.text, key: message.idempotencyKey }),
        );
        if (r.total === 0) return done({ ok: false, code: null, error: 'No browser is subscribed' });
        return done({ ok: r.sent > 0, code: r.code, error: r.sent > 0 ? null : r.error });
      }
    }
  } catch (err) {
    const code = (err as { responseCode?: unknown }).responseCode;
    return done({ ok: false, code: typeof code === 'number' ? code : null, error: errorText(err) });
  }
}
