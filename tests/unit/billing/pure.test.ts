/**
 * Pure parts of billing: the Luhn check, licence states over time, the offline test provider's answers for the
 * well-known test cards (approved, declined with its message, unknown, expired, bad CVC; nothing but brand,
 * last4 and expiry kept), the receipt mail, and reading Stripe events.
 */
import { describe, expect, it } from 'vitest';
import { licenceState, luhnValid } from '../../../src/protocol/billing';
import { receiptMail } from '../../../src/server/billing/receipt';
import { readStripeEvent } from '../../../src/server/billing/stripeProvider';
import { createTestProvider } from '../../../src/server/billing/testProvider';
import type Stripe from 'stripe';

const request = {
  orderId: 'o-1',
  amountCents: 1900,
  currency: 'EUR',
  description: 'Device Pro',
  customerEmail: 'a@b.c',
  successUrl: 'http://x/ok',
  cancelUrl: 'http://x/no',
};
const now = () => new Date('2030-05-15T00:00:00Z');

describe('billing, pure', () => {
  it('checks card numbers with Luhn', () => {
    expect(luhnValid('4242424242424242')).toBe(true);
    expect(luhnValid('4000000000000002')).toBe(true);
    expect(luhnValid('378282246310005')).toBe(true);
    expect(luhnValid('4242424242424241')).toBe(false);
    expect(luhnValid('4242')).toBe(false);
    expect(luhnValid('4242 4242 4242 4242')).toBe(false); // digits only: callers strip spaces
  });

  it('gives a licence its state at a time', () => {
    const l = { starts_at: '2030-01-01T00:00:00Z', expires_at: '2030-02-01T00:00:00Z', revoked_at: null };
    expect(licenceState(l, Date.parse('2029-12-31T00:00:00Z'))).toBe('scheduled');
    expect(licenceState(l, Date.parse('2030-01-10T00:00:00Z'))).toBe('active');
    expect(licenceState(l, Date.parse('2030-01-20T00:00:00Z'))).toBe('expiring');
    expect(licenceState(l, Date.parse('2030-02-01T00:00:00Z'))).toBe('expired');
    expect(
      licenceState({ ...l, revoked_at: '2030-01-05T00:00:00Z' }, Date.parse('2030-01-10T00:00:00Z')),
    ).toBe('revoked');
  });

  it('the test provider approves, declines with clear messages, and keeps no number', async () => {
    const p = createTestProvider(now);
    const card = (number: string, cvc = '123', year = 2031, month = 4) => ({ number, month, year, cvc });
    const ok = await p.startPayment({ ...request, newCard: card('4242 4242 4242 4242') });
    expect(ok).toMatchObject({
      kind: 'paid',
      card: { brand: 'Visa', last4: '4242', expMonth: 4, expYear: 2031 },
    });
    expect(JSON.stringify(ok)).not.toContain('424242424242');
    expect(JSON.stringify(ok)).not.toContain('"123"');
    expect(await p.startPayment({ ...request, newCard: card('4000000000000002') })).toEqual({
      kind: 'declined',
      code: 'card_declined',
      message: 'Your card was declined.',
    });
    expect(await p.startPayment({ ...request, newCard: card('4000000000009995') })).toMatchObject({
      code: 'insufficient_funds',
    });
    expect(await p.startPayment({ ...request, newCard: card('4111111111111111') })).toMatchObject({
      code: 'test_card_unknown',
    });
    expect(
      await p.startPayment({ ...request, newCard: card('4242424242424242', '123', 2030, 4) }),
    ).toMatchObject({
      code: 'expired_card',
    });
    expect(await p.startPayment({ ...request, newCard: card('378282246310005', '123') })).toMatchObject({
      code: 'incorrect_cvc',
    });
    expect(await p.startPayment({ ...request, newCard: card('378282246310005', '1234') })).toMatchObject({
      kind: 'paid',
    });
    if (ok.kind !== 'paid') throw new Error('unreachable');
    expect(await p.startPayment({ ...request, savedCard: ok.card })).toMatchObject({ kind: 'paid' });
    expect(await p.startPayment({ ...request, savedCard: { ...ok.card, ref: 'pm_live' } })).toMatchObject({
      kind: 'declined',
    });
    expect(() => p.parseWebhook(Buffer.from('{}'), 'x')).toThrow();
  });

  it('writes the receipt in the asked language', () => {
    const base = {
      to: 'a@b.c',
      name: 'Ada',
      planName: 'Device Pro (monthly)',
      device: 'Box (dev-1)',
      amountCents: 1900,
      currency: 'EUR',
      card: { brand: 'Visa', last4: '4242' },
      startsAt: new Date('2030-01-01T00:00:00Z'),
      expiresAt: new Date('2030-01-31T00:00:00Z'),
      orderId: 'o-1',
      testProvider: true,
      baseUrl: 'http://console.test',
    };
    const en = receiptMail(base);
    expect(en.subject).toBe('Your receipt: Device Pro (monthly)');
    expect(en.text).toContain('Amount: 19.00 EUR');
    expect(en.text).toContain('Valid: 2030-01-01 – 2030-01-31');
    expect(en.text).toContain('no money moved');
    expect(en.text).toContain('http://console.test/profile/my-licences');
    expect(receiptMail({ ...base, language: 'fr', testProvider: false }).text).not.toContain('hors ligne');
    expect(receiptMail({ ...base, language: 'jp' }).subject).toBe('領収書：Device Pro (monthly)');
  });

  it('reads Stripe checkout events, ignores others', () => {
    const ev = (type: string, payment_status: string) =>
      ({
        id: 'evt_1',
        type,
        data: { object: { id: 'cs_1', payment_status, metadata: { order_id: 'o-9' } } },
      }) as unknown as Stripe.Event;
    expect(readStripeEvent(ev('checkout.session.completed', 'paid'))).toEqual({
      eventId: 'evt_1',
      ref: 'cs_1',
      orderId: 'o-9',
      outcome: 'paid',
    });
    expect(readStripeEvent(ev('checkout.session.completed', 'unpaid'))).toBeNull();
    expect(readStripeEvent(ev('checkout.session.async_payment_succeeded', 'paid'))?.outcome).toBe('paid');
    expect(readStripeEvent(ev('checkout.session.expired', 'unpaid'))?.outcome).toBe('failed');
    expect(readStripeEvent(ev('invoice.paid', 'paid'))).toBeNull();
  });
});
