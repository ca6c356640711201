/**
 * The offline test provider: the default payment provider and the one the tests use. It moves no money and
 * talks to nobody; the console names it "Test payments (no money moves)". It knows the well-known test card
 * numbers (TEST_CARDS): the approving ones pay, the declining ones answer their decline message, any other
 * number is refused. A card it approves is reported as brand, last4 and expiry only, with a token to charge it
 * again; the number and CVC are forgotten as soon as the answer is built.
 */
import { randomUUID } from 'node:crypto';
import { cardDigits, fullCardYear, luhnValid, type TestCard } from '../../protocol/billing';
import type { CardFacts, PaymentProvider, PaymentRequest, PaymentStart } from './provider';

/** The test cards: Stripe's well-known numbers, so the same cards work with Stripe's test mode. */
export const TEST_CARDS: readonly TestCard[] = [
  { number: '4242 4242 4242 4242', brand: 'Visa', outcome: 'approved', message: null },
  { number: '5555 5555 5555 4444', brand: 'Mastercard', outcome: 'approved', message: null },
  { number: '3782 822463 10005', brand: 'American Express', outcome: 'approved', message: null },
  {
    number: '4000 0000 0000 0002',
    brand: 'Visa',
    outcome: 'declined',
    message: 'Your card was declined.',
  },
  {
    number: '4000 0000 0000 9995',
    brand: 'Visa',
    outcome: 'declined',
    message: 'Your card has insufficient funds.',
  },
  {
    number: '4000 0000 0000 0069',
    brand: 'Visa',
    outcome: 'declined',
    message: 'Your card has expired.',
  },
  {
    number: '4000 0000 0000 0127',
    brand: 'Visa',
    outcome: 'declined',
    message: 'Your card’s security code is incorrect.',
  },
];

const DECLINE_CODES: Record<string, string> = {
  '4000000000000002': 'card_declined',
  '4000000000009995': 'insufficient_funds',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
};

/** A saved card or a typed card past its month's end. */
function expired(month: number, year: number, now: Date): boolean {
  const y = fullCardYear(year);
  return y < now.getUTCFullYear() || (y === now.getUTCFullYear() && month < now.getUTCMonth() + 1);
}

const declined = (code: string, message: string): PaymentStart => ({ kind: 'declined', code, message });

export function createTestProvider(now: () => Date = () => new Date()): PaymentProvider {
  return {
    id: 'test',
    test: true,
    testCards: TEST_CARDS,
    takesCardNumbers: true,
    async startPayment(request: PaymentRequest): Promise<PaymentStart> {
      if (request.savedCard) {
        const card = request.savedCard;
        if (!card.ref.startsWith('tok_test_'))
          return declined('unknown_card', 'This saved card is not a test card.');
        if (expired(card.expMonth, card.expYear, now()))
          return declined('expired_card', 'Your card has expired.');
        return { kind: 'paid', ref: `test_pay_${randomUUID()}`, card };
      }
      const typed = request.newCard;
      if (!typed) return declined('card_missing', 'Choose a saved card or enter a new one.');
      const digits = cardDigits(typed.number);
      if (!luhnValid(digits)) return declined('invalid_number', 'Your card number is invalid.');
      if (expired(typed.month, typed.year, now())) return declined('expired_card', 'Your card has expired.');
      const known = TEST_CARDS.find((c) => cardDigits(c.number) === digits);
      if (!known) {
        return declined(
          'test_card_unknown',
          'The test payment provider accepts only the test card numbers shown on this page.',
        );
      }
      const cvcDigits = known.brand === 'American Express' ? 4 : 3;
      if (!new RegExp(`^\\d{${cvcDigits}}$`).test(typed.cvc)) {
        return declined('incorrect_cvc', `The security code (CVC) is ${cvcDigits} digits.`);
      }
      if (known.outcome === 'declined') {
        return declined(DECLINE_CODES[digits] ?? 'card_declined', known.message ?? 'Your card was declined.');
      }
      const card: CardFacts = {
        brand: known.brand,
        last4: digits.slice(-4),
        expMonth: typed.month,
        expYear: fullCardYear(typed.year),
        ref: `tok_test_${randomUUID()}`,
      };
      return { kind: 'paid', ref: `test_pay_${randomUUID()}`, card };
    },
    parseWebhook() {
      throw new Error('The test payment provider sends no webhooks.');
    },
  };
}
