/** Sample answers for the billing machines' model tests. */
import type { CheckoutLoaded } from '../../../machines/billing/checkout.machine';
import type { AdminLicence, Licence, Order, Plan } from '../../../src/protocol/billing';

export const plans: Plan[] = [
  {
    id: 'free',
    name: 'Free',
    description: '',
    scope: 'free',
    price_cents: 0,
    currency: 'EUR',
    period_days: 0,
    max_streams: 16,
    features: [],
  },
  {
    id: 'device-pro-monthly',
    name: 'Device Pro',
    description: '',
    scope: 'device',
    price_cents: 1900,
    currency: 'EUR',
    period_days: 30,
    max_streams: 32,
    features: [],
  },
  {
    id: 'priority-support',
    name: 'Priority',
    description: '',
    scope: 'feature',
    price_cents: 9900,
    currency: 'EUR',
    period_days: 365,
    max_streams: null,
    features: ['priority-support'],
  },
];

export const loadedTest: CheckoutLoaded = {
  plans,
  provider: { id: 'test', test: true },
  test_cards: [{ number: '4242 4242 4242 4242', brand: 'Visa', outcome: 'approved', message: null }],
  cards: [{ id: 'c1', last4: '4242', default: true, brand: 'Visa', exp_month: 12, exp_year: 2040 }],
  addresses: [
    {
      id: 'a1',
      default: true,
      name: 'Ada',
      identity_number: '',
      company_name: '',
      tax_office: '',
      address: '1 St',
      tax_number: '',
      phone: '',
      country: 'FR',
      city: 'Paris',
      postal_code: '',
      address_name: 'Home',
    },
  ],
  devices: [
    { device_id: 'dev-1', label: 'Box 1', max_streams: 16, licensed_until: null },
    { device_id: 'dev-2', label: 'Box 2', max_streams: 16, licensed_until: null },
  ],
};

export const loadedStripe: CheckoutLoaded = {
  ...loadedTest,
  provider: { id: 'stripe', test: true },
  test_cards: [],
  cards: [],
};

export const licence: Licence = {
  id: 'l1',
  plan_id: 'device-pro-monthly',
  plan_name: 'Device Pro',
  scope: 'device',
  device_id: 'dev-1',
  device_label: 'Box 1',
  max_streams: 32,
  features: [],
  starts_at: '2030-01-01T00:00:00.000Z',
  expires_at: '2030-01-31T00:00:00.000Z',
  revoked_at: null,
  source: 'purchase',
  state: 'active',
};

export const order = (status: Order['status']): Order => ({
  id: 'o1',
  plan_id: 'device-pro-monthly',
  device_id: 'dev-1',
  amount_cents: 1900,
  currency: 'EUR',
  provider: 'stripe',
  status,
  failure_message: status === 'failed' ? 'The payment did not complete.' : null,
  created_at: '2030-01-01T00:00:00.000Z',
  paid_at: null,
  licence_id: status === 'paid' ? 'l1' : null,
});

export const adminLicence = (id: string, state: Licence['state']): AdminLicence => ({
  ...licence,
  id,
  state,
  user_id: 'u1',
  user_email: 'ada@x.io',
});
