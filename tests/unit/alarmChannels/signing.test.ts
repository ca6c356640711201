/**
 * Webhook signing and retry backoff (src/server/alarmChannels/signing.ts, src/protocol/alarmChannels.ts
 * backoffMs): the RFC 4231 HMAC-SHA256 vector through signWebhook's primitive, the header format, a receiver's
 * check (changed body, wrong secret, stale timestamp), and the doubling, capped, jittered backoff.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { backoffMs, DELIVERY_BACKOFF_MAX_MS } from '../../../src/protocol/alarmChannels';
import { newWebhookSecret, signWebhook, verifyWebhook } from '../../../src/server/alarmChannels/signing';

describe('webhook signature', () => {
  it('is v1=<hex HMAC-SHA256(secret, "<timestamp>.<raw body>")>', () => {
    // RFC 4231 test case 2: key "Jefe", data "what do ya want for nothing?". Split so that
    // "<timestamp>.<body>" is exactly that data.
    expect(signWebhook('Jefe', 0, 'x').startsWith('v1=')).toBe(true);
    const mac = createHmac('sha256', 'Jefe').update('what do ya want for nothing?').digest('hex');
    expect(mac).toBe('5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    const body = '{"event":{"id":"e1"}}';
    const expected = createHmac('sha256', 'whsec_k').update(`1700000000.${body}`).digest('hex');
    expect(signWebhook('whsec_k', 1700000000, body)).toBe(`v1=${expected}`);
  });

  it('is accepted by a receiver only for the same body, secret and a fresh timestamp', () => {
    const secret = newWebhookSecret();
    expect(secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
    const now = 1_800_000_000;
    const body = '{"a":1}';
    const signature = signWebhook(secret, now, body);
    const h = { signature, timestamp: String(now) };
    expect(verifyWebhook(secret, h, body, now)).toBe(true);
    expect(verifyWebhook(secret, h, '{"a":2}', now)).toBe(false);
    expect(verifyWebhook(newWebhookSecret(), h, body, now)).toBe(false);
    expect(verifyWebhook(secret, h, body, now + 301)).toBe(false);
    expect(verifyWebhook(secret, { signature, timestamp: 'x' }, body, now)).toBe(false);
    expect(verifyWebhook(secret, { signature: undefined, timestamp: String(now) }, body, now)).toBe(false);
  });
});

describe('backoff', () => {
  it('doubles from the base and stops at the cap', () => {
    expect([1, 2, 3, 4].map((n) => backoffMs(n, { baseMs: 1000 }))).toEqual([1000, 2000, 4000, 8000]);
    expect(backoffMs(40)).toBe(DELIVERY_BACKOFF_MAX_MS);
  });
  it('spreads by ±jitter around the doubled wait', () => {
    expect(backoffMs(3, { baseMs: 1000, jitter: 0.2, random: 0 })).toBe(3200);
    expect(backoffMs(3, { baseMs: 1000, jitter: 0.2, random: 1 })).toBe(4800);
    expect(backoffMs(3, { baseMs: 1000, jitter: 0.2, random: 0.5 })).toBe(4000);
  });
});
