/**
 * Licences, plans, checkout and payments (spec §1 "licences, payments (cards and addresses)"; §2 /pricing,
 * /checkout, /profile/my-licences, /admin-panel/licences; §3 "Payment card: id, last4, default. Selected card:
 * card_id, pay_with_new_card, card_number, card_month, card_year, card_cvc, is_saved" and "Address: id, default.
 * Selected address: address_id, name, identity_number, company_name, tax_office, address, tax_number, phone,
 * country, city, postal_code, address_name, is_saved"; §7 GET get-payment-cards and GET get-user-address → res
 * list; issue 13 "Licences, pricing and payments").
 *
 * A licence grants, from `starts_at` until `expires_at`, either a per-device stream quota (scope 'device':
 * `max_streams` concurrent streams on one device instead of the free tier's FREE_MAX_STREAMS) or account-wide
 * features (scope 'feature'). An expired or revoked licence grants nothing: the device falls back to the free
 * tier. Plans are the server's catalogue (src/server/billing/plans.ts); money is integer cents.
 */
import { z } from 'zod';
import { MailLanguage } from './accounts';
import { defineRoutes, ID_MAX_CHARS } from './route';

/** The free tier's concurrent streams per device (today's default quota, README "Stream quota"). */
export const FREE_MAX_STREAMS = 16;
/** A licence is "expiring soon" this many days before its end. */
export const EXPIRING_SOON_DAYS = 14;
/** An expired licence is announced (the console's renew banner) for this many days after its end. */
export const LAPSED_NOTICE_DAYS = 30;

/** Features a feature licence can grant. 'priority-support': contact messages are flagged and answered first. */
export const LICENCE_FEATURES = ['priority-support'] as const;
export const LicenceFeature = z.enum(LICENCE_FEATURES);
export type LicenceFeature = z.infer<typeof LicenceFeature>;

export const LicenceScope = z.enum(['device', 'feature']);
export type LicenceScope = z.infer<typeof LicenceScope>;

/** A plan of the catalogue. price_cents 0 and scope 'free' only for the free tier, which is never sold. */
export const Plan = z.object({
  id: z.string(),
  name: z.string(),
  description: z.string(),
  scope: z.enum(['free', 'device', 'feature']),
  price_cents: z.number().int().min(0),
  /** ISO 4217, upper case. */
  currency: z.string(),
  /** Length of the licence a purchase gives, days; 0 for the free tier (no end). */
  period_days: z.number().int().min(0),
  /** Concurrent streams per licensed device; null when the plan grants none. */
  max_streams: z.number().int().nullable(),
  features: z.array(LicenceFeature),
});
export type Plan = z.infer<typeof Plan>;

/** The payment provider in use: 'test' is the offline test provider (no money moves), 'stripe' Stripe Checkout. */
export const ProviderInfo = z.object({ id: z.enum(['test', 'stripe']), test: z.boolean() });
export type ProviderInfo = z.infer<typeof ProviderInfo>;

/** A test card number the offline test provider knows, and what it does. */
export const TestCard = z.object({
  number: z.string(),
  brand: z.string(),
  outcome: z.enum(['approved', 'declined']),
  /** The decline message (English) of a declining card. */
  message: z.string().nullable(),
});
export type TestCard = z.infer<typeof TestCard>;

export const PlansResponse = z.object({
  plans: z.array(Plan),
  provider: ProviderInfo,
  /** The offline test provider's cards; empty with Stripe. */
  test_cards: z.array(TestCard),
});
export type PlansResponse = z.infer<typeof PlansResponse>;

/** Licence state at the time of the answer. */
export const LicenceState = z.enum(['scheduled', 'active', 'expiring', 'expired', 'revoked']);
export type LicenceState = z.infer<typeof LicenceState>;

/** A licence as users and admins read it. Times ISO 8601. device_*: null for a feature licence. */
export const Licence = z.object({
  id: z.string(),
  plan_id: z.string(),
  plan_name: z.string(),
  scope: LicenceScope,
  device_id: z.string().nullable(),
  /** The device's label; null when the device was deleted (device_id still names it). */
  device_label: z.string().nullable(),
  max_streams: z.number().int().nullable(),
  features: z.array(LicenceFeature),
  starts_at: z.string(),
  expires_at: z.string(),
  revoked_at: z.string().nullable(),
  source: z.enum(['purchase', 'admin']),
  state: LicenceState,
});
export type Licence = z.infer<typeof Licence>;

/** The state of a licence at `now` (ms). Pure; the server and the console use it alike. */
export function licenceState(
  l: { starts_at: string; expires_at: string; revoked_at: string | null },
  now: number,
): LicenceState {
  if (l.revoked_at) return 'revoked';
  const start = Date.parse(l.starts_at);
  const end = Date.parse(l.expires_at);
  if (now < start) return 'scheduled';
  if (now >= end) return 'expired';
  return end - now <= EXPIRING_SOON_DAYS * 86_400_000 ? 'expiring' : 'active';
}

export const MyLicencesResponse = z.object({
  licences: z.array(Licence),
  /**
   * Licences that ended in the last LAPSED_NOTICE_DAYS days and were not followed by an active licence of the
   * same plan (and device): what the console's renew banner names.
   */
  lapsed: z.array(Licence),
});
export type MyLicencesResponse = z.infer<typeof MyLicencesResponse>;

/** §3 Payment card: id, last4, default (plus brand and expiry for the list). */
export const PaymentCard = z.object({
  id: z.string(),
  last4: z.string(),
  default: z.boolean(),
  brand: z.string(),
  exp_month: z.number().int(),
  exp_year: z.number().int(),
});
export type PaymentCard = z.infer<typeof PaymentCard>;

const text = (max: number) => z.string().trim().max(max);
const required = (max: number) => z.string().trim().min(1, 'required').max(max);

/** The address fields of §3 "Selected address" (without address_id and is_saved). */
export const AddressFields = z.object({
  name: required(120),
  identity_number: text(40).default(''),
  company_name: text(160).default(''),
  tax_office: text(120).default(''),
  address: required(400),
  tax_number: text(40).default(''),
  phone: text(40).default(''),
  country: required(80),
  city: required(120),
  postal_code: text(20).default(''),
  address_name: text(80).default(''),
});
export type AddressFields = z.input<typeof AddressFields>;

/** §3 Address: id, default, with its fields. */
export const Address = z.object({
  id: z.string(),
  default: z.boolean(),
  ...Object.fromEntries(Object.keys(AddressFields.shape).map((k) => [k, z.string()])),
} as { id: z.ZodString; default: z.ZodBoolean } & Record<keyof typeof AddressFields.shape, z.ZodString>);
export type Address = z.infer<typeof Address>;

export const PaymentCardsResponse = z.object({ res: z.array(PaymentCard) });
export const UserAddressResponse = z.object({ res: z.array(Address) });

/** Sum of a card number's Luhn check (digits only). */
export function luhnValid(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** A card number as typed → its digits (spaces and dashes dropped). */
export const cardDigits = (typed: string): string => typed.replace(/[\s-]/g, '');

/** A two- or four-digit card year → the full year. */
export const fullCardYear = (year: number): number => (year < 100 ? 2000 + year : year);

/**
 * §3 Selected card. Either a saved card (`card_id`, pay_with_new_card false) or a new card (pay_with_new_card
 * true with number, month, year, CVC; `is_saved` keeps brand, last4 and expiry — never the number or CVC).
 * With Stripe no card field is sent: the card is typed on Stripe's own page.
 */
export const SelectedCard = z
  .object({
    card_id: z.string().max(ID_MAX_CHARS).nullable().default(null),
    pay_with_new_card: z.boolean(),
    card_number: z.string().max(40).default(''),
    card_month: z.number().int().min(1).max(12).nullable().default(null),
    card_year: z.number().int().min(0).max(9999).nullable().default(null),
    card_cvc: z.string().max(8).default(''),
    is_saved: z.boolean().default(false),
  })
  .strict();
export type SelectedCard = z.input<typeof SelectedCard>;

/** §3 Selected address: a saved one (`address_id`) or new fields; `is_saved` keeps a new one. */
export const SelectedAddress = AddressFields.partial()
  .extend({
    address_id: z.string().max(ID_MAX_CHARS).nullable().default(null),
    is_saved: z.boolean().default(false),
  })
  .strict();
export type SelectedAddress = z.input<typeof SelectedAddress>;

export const CheckoutBody = z
  .object({
    plan_id: z.string().min(1).max(80),
    /** The device a per-device plan is for (one of the caller's); null for a feature plan. */
    device_id: z.string().max(ID_MAX_CHARS).nullable().default(null),
    card: SelectedCard.nullable().default(null),
    address: SelectedAddress,
    /** The receipt's language (default en). */
    language: MailLanguage.optional(),
  })
  .strict();
export type CheckoutBody = z.input<typeof CheckoutBody>;

/** A checkout's order. */
export const Order = z.object({
  id: z.string(),
  plan_id: z.string(),
  device_id: z.string().nullable(),
  amount_cents: z.number().int(),
  currency: z.string(),
  provider: z.enum(['test', 'stripe']),
  status: z.enum(['pending', 'paid', 'failed']),
  failure_message: z.string().nullable(),
  created_at: z.string(),
  paid_at: z.string().nullable(),
  /** The licence the paid order created. */
  licence_id: z.string().nullable(),
});
export type Order = z.infer<typeof Order>;

/**
 * What a checkout answers: 'paid' (the licence exists), 'failed' (declined: `code`, a clear `message`; nothing
 * was stored) or 'redirect' (Stripe: open `url`, Stripe's Checkout page; the licence follows its webhook).
 */
export const CheckoutResponse = z.discriminatedUnion('status', [
  z.object({ status: z.literal('paid'), order: Order, licence: Licence }),
  z.object({ status: z.literal('failed'), code: z.string(), message: z.string() }),
  z.object({ status: z.literal('redirect'), order: Order, url: z.string() }),
]);
export type CheckoutResponse = z.infer<typeof CheckoutResponse>;

/** A device the caller may license, with its quota now. */
export const LicensableDevice = z.object({
  device_id: z.string(),
  label: z.string(),
  max_streams: z.number().int(),
  /** End of the active device licence, ISO 8601; null when the device is on the free tier. */
  licensed_until: z.string().nullable(),
});
export const LicensableDevicesResponse = z.object({ devices: z.array(LicensableDevice) });
export type LicensableDevice = z.infer<typeof LicensableDevice>;

/** An admin's row: the licence with its holder. */
export const AdminLicence = Licence.extend({ user_id: z.string(), user_email: z.string() });
export type AdminLicence = z.infer<typeof AdminLicence>;

export const AdminLicencesQuery = z.object({
  /** Part of the holder's e-mail, the plan id or the device id. */
  search: z.string().max(200).default(''),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  per_page: z.coerce.number().int().min(1).max(100).default(20),
});
export const AdminLicencesResponse = z.object({ licences: z.array(AdminLicence), total: z.number().int() });

/** An admin's grant: a plan's licence for a user (by e-mail), for `days` from now (default: the plan's). */
export const GrantBody = z
  .object({
    email: z.string().trim().max(254).email(),
    plan_id: z.string().min(1).max(80),
    device_id: z.string().max(ID_MAX_CHARS).nullable().default(null),
    days: z.number().int().min(1).max(3660).nullable().default(null),
  })
  .strict();
export type GrantBody = z.input<typeof GrantBody>;

export const BILLING_ERROR_CODES = {
  unknownPlan: 'Unknown_plan',
  deviceRequired: 'Device_required',
  cardInvalid: 'Card_invalid',
  addressInvalid: 'Address_invalid',
  alreadyRevoked: 'Licence_revoked',
  stripeFields: 'Card_fields_refused',
} as const;

const IdParams = z.object({ id: z.uuid() });

export const billingRoutes = defineRoutes({
  'billing.plans': {
    method: 'GET',
    path: '/api/billing/plans',
    auth: 'none',
    summary: 'The plans (the free tier first), the payment provider in use and its test cards (public).',
    answer: PlansResponse,
  },
  'billing.myLicences': {
    method: 'GET',
    path: '/api/billing/licences',
    auth: 'user',
    summary: 'The caller’s licences (newest first) with their state, and the recently lapsed ones.',
    answer: MyLicencesResponse,
  },
  'billing.devices': {
    method: 'GET',
    path: '/api/billing/devices',
    auth: 'user',
    summary: 'The caller’s devices with their stream quota now and the end of their device licence.',
    answer: LicensableDevicesResponse,
  },
  'billing.paymentCards': {
    method: 'GET',
    path: '/api/get-payment-cards',
    auth: 'user',
    summary: '§7 get-payment-cards: the caller’s saved cards (§3 id, last4, default), default first.',
    answer: PaymentCardsResponse,
  },
  'billing.deleteCard': {
    method: 'DELETE',
    path: '/api/payment-cards/:id',
    auth: 'user',
    summary: 'Forgets one of the caller’s saved cards. 404 otherwise.',
    params: IdParams,
    answer: z.object({ ok: z.literal(true) }),
    errors: [404],
  },
  'billing.userAddress': {
    method: 'GET',
    path: '/api/get-user-address',
    auth: 'user',
    summary: '§7 get-user-address: the caller’s saved addresses (§3 id, default), default first.',
    answer: UserAddressResponse,
  },
  'billing.checkout': {
    method: 'POST',
    path: '/api/billing/checkout',
    auth: 'user',
    summary:
      'Pays a plan: paid (licence created, receipt mailed), failed (declined, nothing stored) or redirect (Stripe Checkout). 404 unknown plan or device.',
    body: CheckoutBody,
    answer: CheckoutResponse,
    errors: [404, 429],
  },
  'billing.order': {
    method: 'GET',
    path: '/api/billing/orders/:id',
    auth: 'user',
    summary: 'One of the caller’s orders (after Stripe Checkout: pending until its webhook). 404 otherwise.',
    params: IdParams,
    answer: Order,
    errors: [404],
  },
  'billing.adminLicences': {
    method: 'GET',
    path: '/api/admin/licences',
    auth: 'admin',
    summary: 'Every licence (newest first), searchable by holder e-mail, plan or device.',
    query: AdminLicencesQuery,
    answer: AdminLicencesResponse,
  },
  'billing.adminGrant': {
    method: 'POST',
    path: '/api/admin/licences',
    auth: 'admin',
    summary: 'Grants a plan’s licence to a user (audited). 404 unknown user, plan or device.',
    body: GrantBody,
    answer: AdminLicence,
    errors: [404],
  },
  'billing.adminRevoke': {
    method: 'POST',
    path: '/api/admin/licences/:id/revoke',
    auth: 'admin',
    summary: 'Revokes a licence now (audited). 404 unknown, 409 already revoked.',
    params: IdParams,
    answer: AdminLicence,
    errors: [404, 409],
  },
});
