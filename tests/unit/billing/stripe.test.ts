/**
 * The Stripe path on a real server, offline (src/server/billing/stripeProvider.ts, the webhook route): the
 * server is keyed (STRIPE_SECRET_KEY, STRIPE_WEBHOOK_SECRET) and its API calls go to a local stand-in of
 * Stripe's Checkout Sessions endpoint (STRIPE_API_URL), so no network is needed. A checkout answers a redirect
 * to the session's URL and a pending order, and sends Stripe no card data (card fields are refused outright);
 * the webhook is checked with the package's own test-header helper: a bad or missing signature is refused, a
 * signed `checkout.session.completed` marks the order paid, creates the licence and mails the receipt once —
 * the same event again changes nothing.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, login, startTestServer, type TestServer } from '../server/helpers';

const WEBHOOK_SECRET = 'whsec_offline_test_secret';
let server: TestServer;
let stand: http.Server;
let token = '';
let admin = '';
let deviceId = '';
const sessionBodies: string[] = [];
const saved: Record<string, string | undefined> = {};

beforeAll(async () => {
  stand = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString()));
    req.on('end', () => {
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        sessionBodies.push(decodeURIComponent(body));
        const id = `cs_test_${sessionBodies.length}`;
        res.setHeader('content-type', 'application/json');
        res.end(
          JSON.stringify({ id, object: 'checkout.session', url: `https://checkout.stripe.test/pay/${id}` }),
        );
      } else {
        res.statusCode = 404;
        res.end('{}');
      }
    });
  });
  await new Promise<void>((resolve) => stand.listen(0, '127.0.0.1', resolve));
  const env = {
    STRIPE_SECRET_KEY: 'sk_test_offline',
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_API_URL: `http://127.0.0.1:${(stand.address() as AddressInfo).port}`,
  };
  for (const [k, v] of Object.entries(env)) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  server = await startTestServer();
  const u = await server.seed.ensureUser({
    email: 'stripe@billing.test',
    password: 'stripe-pass-1',
    username: 'Sam',
  });
  await server.seed.ensureUser({
    email: 'root@billing.test',
    password: 'root-pass-1',
    roles: ['admin', 'user'],
  });
  deviceId = (await server.seed.ensureDevice({ ownerId: u.id, label: 'Stripe box', chipsetId: '0' }))
    .device_id;
  token = (await login(server, 'stripe@billing.test', 'stripe-pass-1')).token;
  admin = (await login(server, 'root@billing.test', 'root-pass-1')).token;
}, 90_000);

afterAll(async () => {
  await server?.dispose();
  await new Promise((resolve) => stand?.close(resolve));
  for (const [k, v] of Object.entries(saved)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

const address = { name: 'Sam', address: '2 Lens Road', country: 'Germany', city: 'Berlin' };

async function postEvent(payload: string, signature: string | null) {
  const res = await fetch(`${server.url}/api/billing/stripe-webhook`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(signature ? { 'stripe-signature': signature } : {}) },
    body: payload,
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

describe('Stripe provider', () => {
  it('redirects to Checkout without card data, then a signed webhook pays the order once', async () => {
    const plans = await api(server, 'GET', 'billing/plans');
    expect(plans.body.provider).toEqual({ id: 'stripe', test: true });
    expect(plans.body.test_cards).toEqual([]);

    const withCard = await api(server, 'POST', 'billing/checkout', {
      token,
      body: {
        plan_id: 'device-pro-monthly',
        device_id: deviceId,
        address,
        card: {
          pay_with_new_card: true,
          card_number: '4242424242424242',
          card_month: 1,
          card_year: 2040,
          card_cvc: '123',
        },
      },
    });
    expect(withCard.status).toBe(400);
    expect(withCard.body.code).toBe('Card_fields_refused');
    expect(sessionBodies).toEqual([]);

    const r = await api(server, 'POST', 'billing/checkout', {
      token,
      body: { plan_id: 'device-pro-monthly', device_id: deviceId, address },
    });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ status: 'redirect', url: 'https://checkout.stripe.test/pay/cs_test_1' });
    expect(r.body.order).toMatchObject({ status: 'pending', provider: 'stripe', amount_cents: 1900 });
    expect(sessionBodies[0]).toContain('unit_amount]=1900');
    expect(sessionBodies[0]).toContain(`metadata[order_id]=${r.body.order.id}`);
    expect(sessionBodies[0]).not.toMatch(/4242|card_number|cvc/);

    const event = {
      id: 'evt_offline_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: {
        object: {
          id: 'cs_test_1',
          object: 'checkout.session',
          payment_status: 'paid',
          metadata: { order_id: r.body.order.id },
        },
      },
    };
    const payload = JSON.stringify(event);
    const stripe = new Stripe('sk_test_offline');
    expect((await postEvent(payload, null)).status).toBe(400);
    const forged = stripe.webhooks.generateTestHeaderString({ payload, secret: 'whsec_someone_else' });
    expect(await postEvent(payload, forged)).toMatchObject({
      status: 400,
      body: { code: 'Signature_invalid' },
    });
    expect((await api(server, 'GET', `billing/orders/${r.body.order.id}`, { token })).body.status).toBe(
      'pending',
    );

    const signature = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect(await postEvent(payload, signature)).toEqual({ status: 200, body: { received: true } });
    const order = await api(server, 'GET', `billing/orders/${r.body.order.id}`, { token });
    expect(order.body).toMatchObject({ status: 'paid', licence_id: expect.any(String) });
    // Stripe retries deliveries: the same event again creates nothing more.
    const again = stripe.webhooks.generateTestHeaderString({ payload, secret: WEBHOOK_SECRET });
    expect((await postEvent(payload, again)).status).toBe(200);
    const mine = await api(server, 'GET', 'billing/licences', { token });
    expect(mine.body.licences).toEqual([
      expect.objectContaining({
        id: order.body.licence_id,
        device_id: deviceId,
        max_streams: 32,
        source: 'purchase',
      }),
    ]);
    const box = await api(server, 'GET', 'dev/mailbox', { token: admin });
    const receipts = (box.body.messages as Array<{ to: string[]; subject: string }>).filter((m) =>
      m.to.includes('stripe@billing.test'),
    );
    expect(receipts.map((m) => m.subject)).toEqual(['Your receipt: Device Pro (monthly)']);

    // An event about something else is acknowledged and ignored.
    const other = JSON.stringify({
      id: 'evt_2',
      object: 'event',
      type: 'customer.created',
      data: { object: {} },
    });
    const sig2 = stripe.webhooks.generateTestHeaderString({ payload: other, secret: WEBHOOK_SECRET });
    expect((await postEvent(other, sig2)).status).toBe(200);
  });
});
