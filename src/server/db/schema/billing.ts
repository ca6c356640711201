/** Database schema, Billing (issue 13): licences, payment cards, addresses, orders, contact messages. Re-exported by ./index.ts. */
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { createdAt, devices, users } from './core';

/**
 * Licences (spec §1 "licences"; issue 13 "Licences per device or feature with expiry"): what a user may use
 * beyond the free tier, from `starts_at` until `expires_at`. scope 'device': bound to one of the owner's devices
 * (`device_row_id`; the device id is kept in `device_id` so a licence of a deleted device still reads), granting
 * `max_streams` concurrent streams on it; scope 'feature': account-wide, granting the listed `features`.
 * Revoked licences keep their row (`revoked_at`, `revoked_by`). `order_id` is unique: one licence per paid order
 * (idempotent on the payment). src/server/billing/licences.ts reads and writes them.
 */
export const licences = pgTable(
  'licences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id').notNull(),
    scope: text('scope').notNull(),
    deviceRowId: uuid('device_row_id').references(() => devices.id, { onDelete: 'set null' }),
    deviceId: text('device_id'),
    maxStreams: integer('max_streams'),
    features: text('features')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    startsAt: timestamp('starts_at', { withTimezone: true }).notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    source: text('source').notNull(),
    orderId: uuid('order_id').unique(),
    grantedBy: uuid('granted_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    revokedBy: uuid('revoked_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    index('licences_user_idx').on(t.userId, t.expiresAt),
    index('licences_device_idx').on(t.deviceRowId),
    index('licences_created_idx').on(t.createdAt, t.id),
    check('licences_scope_ck', sql`${t.scope} in ('device', 'feature')`),
    check('licences_source_ck', sql`${t.source} in ('purchase', 'admin')`),
    check('licences_period_ck', sql`${t.expiresAt} > ${t.startsAt}`),
  ],
);

/**
 * §3 Payment card (id, last4, default) of a user, as the payment provider reported it. Never a card number or
 * CVC: brand, last4 and expiry only; `provider_ref` is the provider's own reference (Stripe payment method id;
 * the offline test provider's token).
 */
export const paymentCards = pgTable(
  'payment_cards',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref'),
    brand: text('brand').notNull(),
    last4: text('last4').notNull(),
    expMonth: integer('exp_month').notNull(),
    expYear: integer('exp_year').notNull(),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('payment_cards_user_idx').on(t.userId)],
);

/** §3 Address (id, default) with the selected-address fields a user saved for invoices. */
export const billingAddresses = pgTable(
  'billing_addresses',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    addressName: text('address_name').notNull(),
    name: text('name').notNull(),
    identityNumber: text('identity_number').notNull().default(''),
    companyName: text('company_name').notNull().default(''),
    taxOffice: text('tax_office').notNull().default(''),
    taxNumber: text('tax_number').notNull().default(''),
    address: text('address').notNull(),
    phone: text('phone').notNull().default(''),
    country: text('country').notNull(),
    city: text('city').notNull(),
    postalCode: text('postal_code').notNull().default(''),
    isDefault: boolean('is_default').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('billing_addresses_user_idx').on(t.userId)],
);

/**
 * One checkout: a plan bought by a user (for a device when the plan is per device), its amount, the provider and
 * its reference (`provider_ref`, unique: a payment or webhook is applied once), and its state
 * (pending → paid | failed). `address` is the billing address as it was at payment (jsonb snapshot).
 */
export const paymentOrders = pgTable(
  'payment_orders',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    planId: text('plan_id').notNull(),
    deviceRowId: uuid('device_row_id').references(() => devices.id, { onDelete: 'set null' }),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    provider: text('provider').notNull(),
    providerRef: text('provider_ref').unique(),
    status: text('status').notNull().default('pending'),
    failureMessage: text('failure_message'),
    cardId: uuid('card_id').references(() => paymentCards.id, { onDelete: 'set null' }),
    address: jsonb('address').$type<Record<string, unknown>>(),
    paidAt: timestamp('paid_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('payment_orders_user_idx').on(t.userId, t.createdAt),
    check('payment_orders_status_ck', sql`${t.status} in ('pending', 'paid', 'failed')`),
  ],
);

/**
 * Messages of the public contact form (/contact): stored, then mailed to CONTACT_MAIL_TO (`mailed_at` once
 * sent). `user_id` when the sender was signed in; `priority` when that user held the priority-support feature.
 */
export const contactMessages = pgTable(
  'contact_messages',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    subject: text('subject').notNull(),
    message: text('message').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    priority: boolean('priority').notNull().default(false),
    mailedAt: timestamp('mailed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('contact_messages_created_idx').on(t.createdAt)],
);
