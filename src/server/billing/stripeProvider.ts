/**
 * Stripe (the `stripe` package): a payment is a Checkout Session (mode 'payment', the plan as an inline
 * price), so the card is typed on Stripe's own page and never reaches this server; Stripe tells us the outcome
 * through a signed webhook (`checkout.session.completed` with payment_status 'paid', or
 * `checkout.session.async_payment_succeeded`; `…async_payment_failed` and `…expired` fail the order). The
 * signature is checked with `stripe.webhooks.constructEvent` against STRIPE_WEBHOOK_SECRET. Used only when
 * STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET are set (provider.ts); a key starting `sk_test_` is Stripe's test
 * mode. STRIPE_API_URL (e.g. `http://127.0.0.1:12111`, stripe-mock) sends the API calls elsewhere than Stripe:
 * for offline tests only.
 */
import Stripe from 'stripe';
import type { PaymentEvent, PaymentProvider, PaymentRequest, PaymentStart } from './provider';

export interface StripeSettings {
  secretKey: string;
  webhookSecret: string;
  /** Another API address than Stripe's (stripe-mock, tests). */
  apiUrl?: string;
}

export function createStripeProvider(settings: StripeSettings): PaymentProvider {
  const api = settings.apiUrl ? new URL(settings.apiUrl) : null;
  const stripe = new Stripe(
    settings.secretKey,
    api
      ? {
          host: api.hostname,
          port: api.port || (api.protocol === 'http:' ? 80 : 443),
          protocol: api.protocol === 'http:' ? 'http' : 'https',
          maxNetworkRetries: 0,
        }
      : {},
  );
  return {
    id: 'stripe',
    test: settings.secretKey.startsWith('sk_test_'),
    testCards: [],
    takesCardNumbers: false,
    async startPayment(request: PaymentRequest): Promise<PaymentStart> {
      const session = await stripe.checkout.sessions.create({
        mode: 'payment',
        line_items: [
          {
            quantity: 1,
            price_data: {
              currency: request.currency.toLowerCase(),
              unit_amount: request.amountCents,
              product_data: { name: request.description },
            },
          },
        ],
        customer_email: request.customerEmail,
        client_reference_id: request.orderId,
        metadata: { order_id: request.orderId },
        success_url: request.successUrl,
        cancel_url: request.cancelUrl,
      });
      if (!session.url) throw new Error('Stripe answered a Checkout Session without a URL.');
      return { kind: 'redirect', ref: session.id, url: session.url };
    },
    parseWebhook(rawBody: Buffer, signature: string): PaymentEvent | null {
      return readStripeEvent(stripe.webhooks.constructEvent(rawBody, signature, settings.webhookSecret));
    },
  };
}

/** The payment outcome a verified Stripe event carries, or null for other events. Pure. */
export function readStripeEvent(event: Stripe.Event): PaymentEvent | null {
  const outcome: Record<string, PaymentEvent['outcome'] | undefined> = {
    'checkout.session.async_payment_succeeded': 'paid',
    'checkout.session.async_payment_failed': 'failed',
    'checkout.session.expired': 'failed',
  };
  if (!event.type.startsWith('checkout.session.')) return null;
  const session = event.data.object as Stripe.Checkout.Session;
  let result = outcome[event.type];
  if (event.type === 'checkout.session.completed') {
    // A delayed method (bank debit) completes unpaid; its async_payment_* event follows.
    result =
      session.payment_status === 'paid' || session.payment_status === 'no_payment_required'
        ? 'paid'
        : undefined;
  }
  if (!result) return null;
  return {
    eventId: event.id,
    ref: session.id,
    orderId: session.metadata?.order_id ?? session.client_reference_id ?? null,
    outcome: result,
  };
}
