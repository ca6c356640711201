/**
 * The payment provider interface (issue 13 "Payments go through a provider interface with two
 * implementations"): the offline test provider (testProvider.ts, the default; no money moves) and Stripe
 * (stripeProvider.ts, used only when STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set; card numbers never
 * reach this server on that path). `providerFromEnv` picks one.
 */
import type { TestCard } from '../../protocol/billing';
import { createStripeProvider } from './stripeProvider';
import { createTestProvider } from './testProvider';

/** A card as the provider reports it after a payment: never the number or CVC. */
export interface CardFacts {
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
  /** The provider's reference for charging it again (test: a token; Stripe: not used). */
  ref: string;
}

/** What to pay. */
export interface PaymentRequest {
  orderId: string;
  amountCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** One line: the plan (and device). */
  description: string;
  customerEmail: string;
  /** A new card typed by the user (test provider only). */
  newCard?: { number: string; month: number; year: number; cvc: string };
  /** A saved card (test provider only). */
  savedCard?: CardFacts;
  /** Where the provider's hosted page returns (Stripe). */
  successUrl: string;
  cancelUrl: string;
}

/** The outcome of starting a payment. */
export type PaymentStart =
  | { kind: 'paid'; ref: string; card: CardFacts }
  | { kind: 'declined'; code: string; message: string }
  | { kind: 'redirect'; ref: string; url: string };

/** A verified provider notification (webhook) about one payment. */
export interface PaymentEvent {
  /** The provider's event id. */
  eventId: string;
  /** The payment's reference (what `startPayment` answered as ref). */
  ref: string;
  /** Our order id, as the provider echoes it. */
  orderId: string | null;
  outcome: 'paid' | 'failed';
}

export interface PaymentProvider {
  readonly id: 'test' | 'stripe';
  /** True when no money moves (the offline provider, or Stripe test-mode keys). */
  readonly test: boolean;
  /** The test cards the offline provider knows (empty for Stripe). */
  readonly testCards: readonly TestCard[];
  /** Whether this provider takes typed card numbers (only the offline test provider does). */
  readonly takesCardNumbers: boolean;
  startPayment(request: PaymentRequest): Promise<PaymentStart>;
  /**
   * Verifies and reads a webhook (raw body bytes and the signature header). Answers null for an event that
   * concerns no payment outcome.
   * @throws Error when the signature does not verify (or the provider has no webhooks).
   */
  parseWebhook(rawBody: Buffer, signature: string): PaymentEvent | null;
}

/** Stripe when both keys are set, else the offline test provider. */
export function providerFromEnv(env: NodeJS.ProcessEnv = process.env): PaymentProvider {
  const secretKey = env.STRIPE_SECRET_KEY?.trim();
  const webhookSecret = env.STRIPE_WEBHOOK_SECRET?.trim();
  if (secretKey && webhookSecret) {
    return createStripeProvider({
      secretKey,
      webhookSecret,
      apiUrl: env.STRIPE_API_URL?.trim() || undefined,
    });
  }
  return createTestProvider();
}
