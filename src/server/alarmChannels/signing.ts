/**
 * Webhook signing (issue 11 "webhook (JSON POST signed with HMAC)"; src/protocol/alarmChannels.ts module
 * comment): `X-Edge-Signature: v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>` with
 * `X-Edge-Timestamp: <unix seconds>`, the scheme of Stripe and Slack signatures, so a receiver can refuse
 * replays older than its tolerance. Pure apart from the random secret.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-edge-signature';
export const TIMESTAMP_HEADER = 'x-edge-timestamp';
export const IDEMPOTENCY_HEADER = 'idempotency-key';

/** A new signing secret: `whsec_` + 32 random bytes, base64url (43 characters). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

/** The signature header value of `rawBody` sent at `timestamp` (unix seconds). */
export function signWebhook(secret: string, timestamp: number, rawBody: string): string {
  const mac = createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
  return `v1=${mac}`;
}

/**
 * Checks a received webhook (what a receiver does): the signature matches and the timestamp is within
 * `toleranceS` of `nowS`. Constant-time comparison.
 */
export function verifyWebhook(
  secret: string,
  headers: { signature: string | undefined; timestamp: string | undefined },
  rawBody: string,
  nowS: number = Math.floor(Date.now() / 1000),
  toleranceS = 300,
): boolean {
  const ts = Number(headers.timestamp);
  if (!headers.signature || !Number.isInteger(ts) || Math.abs(nowS - ts) > toleranceS) return false;
  const expected = Buffer.from(signWebhook(secret, ts, rawBody));
  const given = Buffer.from(headers.signature);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
