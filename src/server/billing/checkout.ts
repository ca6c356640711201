/**
 * A checkout (spec §2 /checkout; §3 selected card and selected address; issue 13): plan → address → card →
 * payment through the provider → order, licence and receipt.
 *
 * Order of work, so that a declined payment stores nothing: the plan, device, address and card are checked and
 * read first; the provider is asked; only a paid (or, with Stripe, redirected) payment writes, in one
 * transaction: the address and card when `is_saved`, the order, and for a paid order its licence. The receipt is
 * mailed after the commit. A Stripe order stays pending until its webhook (`applyPaymentEvent`), which marks it
 * paid once (a conditional update on the order's provider reference: a repeated webhook changes nothing) and
 * creates its licence (licences.order_id is unique).
 */
import { randomUUID } from 'node:crypto';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { z } from 'zod';
import type { MailLanguage } from '../../protocol/accounts';
import {
  AddressFields,
  BILLING_ERROR_CODES,
  cardDigits,
  fullCardYear,
  luhnValid,
  type Address,
  CheckoutBody as CheckoutBodySchema,
  type CheckoutResponse,
  type Order,
  type PaymentCard,
  type Plan,
} from '../../protocol/billing';
import type { Db } from '../db';
import { findOwnDevice } from '../db/scope';
import { billingAddresses, devices, paymentCards, paymentOrders, users } from '../db/schema';
import { HttpError, notFound } from '../errors';
import type { OutgoingMail } from '../mail';
import { createLicence, toLicence } from './licences';
import { planById } from './plans';
import type { CardFacts, PaymentEvent, PaymentProvider } from './provider';
import { receiptMail } from './receipt';

type OrderRow = typeof paymentOrders.$inferSelect;
type CheckoutInput = z.output<typeof CheckoutBodySchema>;

export interface CheckoutDeps {
  db: Db;
  provider: PaymentProvider;
  send: (mail: OutgoingMail) => Promise<void>;
  log: FastifyBaseLogger;
}

const bad = (code: string, message: string) => new HttpError(400, code, message);

/** §3 Payment card as the list shows it. */
export const toCard = (r: typeof paymentCards.$inferSelect): PaymentCard => ({
  id: r.id,
  last4: r.last4,
  default: r.isDefault,
  brand: r.brand,
  exp_month: r.expMonth,
  exp_year: r.expYear,
});

/** §3 Address as the list shows it. */
export const toAddress = (r: typeof billingAddresses.$inferSelect): Address => ({
  id: r.id,
  default: r.isDefault,
  name: r.name,
  identity_number: r.identityNumber,
  company_name: r.companyName,
  tax_office: r.taxOffice,
  address: r.address,
  tax_number: r.taxNumber,
  phone: r.phone,
  country: r.country,
  city: r.city,
  postal_code: r.postalCode,
  address_name: r.addressName,
});

export function toOrder(r: OrderRow, deviceId: string | null, licenceId: string | null): Order {
  return {
    id: r.id,
    plan_id: r.planId,
    device_id: deviceId,
    amount_cents: r.amountCents,
    currency: r.currency,
    provider: r.provider as Order['provider'],
    status: r.status as Order['status'],
    failure_message: r.failureMessage,
    created_at: r.createdAt.toISOString(),
    paid_at: r.paidAt?.toISOString() ?? null,
    licence_id: licenceId,
  };
}

export async function cardsOf(db: Db, userId: string): Promise<PaymentCard[]> {
  const rows = await db
    .select()
    .from(paymentCards)
    .where(eq(paymentCards.userId, userId))
    .orderBy(desc(paymentCards.isDefault), asc(paymentCards.createdAt));
  return rows.map(toCard);
}

export async function addressesOf(db: Db, userId: string): Promise<Address[]> {
  const rows = await db
    .select()
    .from(billingAddresses)
    .where(eq(billingAddresses.userId, userId))
    .orderBy(desc(billingAddresses.isDefault), asc(billingAddresses.createdAt));
  return rows.map(toAddress);
}

/** The address fields to pay with: a saved address of the caller's, or the typed fields (validated). */
async function resolveAddress(db: Db, userId: string, body: CheckoutInput) {
  const selected = body.address;
  if (selected.address_id) {
    const [row] = await db
      .select()
      .from(billingAddresses)
      .where(and(eq(billingAddresses.id, selected.address_id), eq(billingAddresses.userId, userId)));
    if (!row) throw notFound('Address');
    const { id: _id, default: _d, ...fields } = toAddress(row);
    return { fields, save: false };
  }
  const { address_id: _a, is_saved, ...typed } = selected;
  const parsed = AddressFields.safeParse(typed);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw bad(
      BILLING_ERROR_CODES.addressInvalid,
      `address.${String(issue?.path[0] ?? '')}: ${issue?.message ?? 'invalid'}`,
    );
  }
  if (is_saved && !parsed.data.address_name) {
    throw bad(BILLING_ERROR_CODES.addressInvalid, 'address.address_name: required to save the address');
  }
  return { fields: parsed.data, save: is_saved };
}

/** The card part of the payment request (test provider), validated. */
async function resolveCard(db: Db, userId: string, body: CheckoutInput, provider: PaymentProvider) {
  const card = body.card;
  if (!provider.takesCardNumbers) {
    if (card && (card.pay_with_new_card || card.card_number || card.card_cvc || card.card_id)) {
      throw bad(
        BILLING_ERROR_CODES.stripeFields,
        'Card details are entered on Stripe’s payment page; send no card fields with Stripe.',
      );
    }
    return { request: {}, save: false, savedId: null };
  }
  if (!card) throw bad(BILLING_ERROR_CODES.cardInvalid, 'card: choose a saved card or enter a new one');
  if (!card.pay_with_new_card) {
    if (!card.card_id) throw bad(BILLING_ERROR_CODES.cardInvalid, 'card.card_id: choose a saved card');
    const [row] = await db
      .select()
      .from(paymentCards)
      .where(and(eq(paymentCards.id, card.card_id), eq(paymentCards.userId, userId)));
    if (!row) throw notFound('Card');
    const savedCard: CardFacts = {
      brand: row.brand,
      last4: row.last4,
      expMonth: row.expMonth,
      expYear: row.expYear,
      ref: row.providerRef ?? '',
    };
    return { request: { savedCard }, save: false, savedId: row.id };
  }
  const digits = cardDigits(card.card_number);
  if (!luhnValid(digits))
    throw bad(BILLING_ERROR_CODES.cardInvalid, 'card.card_number: not a valid card number');
  if (card.card_month === null || card.card_year === null) {
    throw bad(BILLING_ERROR_CODES.cardInvalid, 'card.card_month, card.card_year: the expiry is required');
  }
  if (!/^\d{3,4}$/.test(card.card_cvc)) {
    throw bad(BILLING_ERROR_CODES.cardInvalid, 'card.card_cvc: 3 or 4 digits');
  }
  return {
    request: {
      newCard: {
        number: digits,
        month: card.card_month,
        year: fullCardYear(card.card_year),
        cvc: card.card_cvc,
      },
    },
    save: card.is_saved,
    savedId: null,
  };
}

/** What the plan is for: a device of the caller's for a per-device plan. */
async function resolvePlan(db: Db, userId: string, body: CheckoutInput) {
  const plan = planById(body.plan_id);
  if (!plan || plan.scope === 'free') {
    throw new HttpError(404, BILLING_ERROR_CODES.unknownPlan, `There is no plan '${body.plan_id}' to buy.`);
  }
  if (plan.scope !== 'device') return { plan, device: null };
  if (!body.device_id) throw bad(BILLING_ERROR_CODES.deviceRequired, 'device_id: this plan is per device');
  const device = await findOwnDevice(db, userId, body.device_id);
  if (!device) throw notFound('Device');
  return { plan, device: { id: device.id, deviceId: device.deviceId, label: device.label } };
}

/** One line naming what is bought. */
const describe = (plan: Plan, device: { label: string } | null) =>
  device ? `${plan.name} — ${device.label}` : plan.name;

/**
 * Runs a checkout for `user`. baseUrl: the console's address (Stripe's return pages, the receipt's link).
 * @throws HttpError 400 (invalid card or address, device missing), 404 (plan, device, saved card or address).
 */
export async function checkout(
  deps: CheckoutDeps,
  user: { id: string; email: string; username: string },
  body: CheckoutInput,
  baseUrl: string,
): Promise<CheckoutResponse> {
  const { db, provider } = deps;
  const { plan, device } = await resolvePlan(db, user.id, body);
  const address = await resolveAddress(db, user.id, body);
  const card = await resolveCard(db, user.id, body, provider);
  const orderId = randomUUID();
  const started = await provider.startPayment({
    orderId,
    amountCents: plan.price_cents,
    currency: plan.currency,
    description: describe(plan, device),
    customerEmail: user.email,
    ...card.request,
    successUrl: `${baseUrl}/checkout?order=${orderId}`,
    cancelUrl: `${baseUrl}/checkout?order=${orderId}&canceled=1`,
  });
  if (started.kind === 'declined') return { status: 'failed', code: started.code, message: started.message };

  const result = await db.transaction(async (tx) => {
    if (address.save) {
      const existing = await tx
        .select({ id: billingAddresses.id })
        .from(billingAddresses)
        .where(eq(billingAddresses.userId, user.id))
        .limit(1);
      const f = address.fields;
      await tx.insert(billingAddresses).values({
        userId: user.id,
        addressName: f.address_name,
        name: f.name,
        identityNumber: f.identity_number,
        companyName: f.company_name,
        taxOffice: f.tax_office,
        taxNumber: f.tax_number,
        address: f.address,
        phone: f.phone,
        country: f.country,
        city: f.city,
        postalCode: f.postal_code,
        isDefault: existing.length === 0,
      });
    }
    let cardId = card.savedId;
    if (card.save && started.kind === 'paid') {
      const existing = await tx
        .select({ id: paymentCards.id })
        .from(paymentCards)
        .where(eq(paymentCards.userId, user.id))
        .limit(1);
      const [saved] = await tx
        .insert(paymentCards)
        .values({
          userId: user.id,
          provider: provider.id,
          providerRef: started.card.ref,
          brand: started.card.brand,
          last4: started.card.last4,
          expMonth: started.card.expMonth,
          expYear: started.card.expYear,
          isDefault: existing.length === 0,
        })
        .returning({ id: paymentCards.id });
      cardId = saved?.id ?? null;
    }
    const [order] = await tx
      .insert(paymentOrders)
      .values({
        id: orderId,
        userId: user.id,
        planId: plan.id,
        deviceRowId: device?.id ?? null,
        amountCents: plan.price_cents,
        currency: plan.currency,
        provider: provider.id,
        providerRef: started.ref,
        status: started.kind === 'paid' ? 'paid' : 'pending',
        cardId,
        address: address.fields,
        paidAt: started.kind === 'paid' ? new Date() : null,
      })
      .returning();
    if (!order) throw new Error('order insert returned nothing');
    if (started.kind !== 'paid') return { order, licence: null };
    const licence = await createLicence(tx, { userId: user.id, plan, device, source: 'purchase', orderId });
    return { order, licence };
  });

  if (started.kind === 'redirect') {
    return {
      status: 'redirect',
      order: toOrder(result.order, device?.deviceId ?? null, null),
      url: started.url,
    };
  }
  const licence = result.licence!;
  await mailReceipt(deps, {
    user,
    plan,
    device,
    order: result.order,
    licence,
    card: started.kind === 'paid' ? started.card : null,
    baseUrl,
    language: body.language,
  });
  return {
    status: 'paid',
    order: toOrder(result.order, device?.deviceId ?? null, licence.id),
    licence: toLicence(licence, device?.label ?? null),
  };
}

async function mailReceipt(
  deps: CheckoutDeps,
  f: {
    user: { email: string; username: string };
    plan: Plan;
    device: { label: string; deviceId: string } | null;
    order: OrderRow;
    licence: { startsAt: Date; expiresAt: Date };
    card: { brand: string; last4: string } | null;
    baseUrl: string;
    language?: MailLanguage;
  },
): Promise<void> {
  try {
    await deps.send(
      receiptMail({
        to: f.user.email,
        name: f.user.username,
        planName: f.plan.name,
        device: f.device ? `${f.device.label} (${f.device.deviceId})` : null,
        amountCents: f.order.amountCents,
        currency: f.order.currency,
        card: f.card,
        startsAt: f.licence.startsAt,
        expiresAt: f.licence.expiresAt,
        orderId: f.order.id,
        testProvider: f.order.provider === 'test',
        baseUrl: f.baseUrl,
        language: f.language,
      }),
    );
  } catch (err) {
    // The payment and licence stand; a mail server that refuses the receipt is logged, not fatal.
    deps.log.error({ err }, 'receipt mail not sent');
  }
}

/**
 * Applies a verified provider event to its order: 'paid' marks a pending order paid once and creates its
 * licence and receipt; 'failed' marks a pending order failed. Answers what happened (for the webhook's log).
 */
export async function applyPaymentEvent(
  deps: CheckoutDeps,
  event: PaymentEvent,
  baseUrl: string,
): Promise<'paid' | 'failed' | 'already-applied' | 'unknown-order'> {
  const { db } = deps;
  const outcome = await db.transaction(async (tx) => {
    const [order] = await tx
      .update(paymentOrders)
      .set(
        event.outcome === 'paid'
          ? { status: 'paid', paidAt: new Date() }
          : { status: 'failed', failureMessage: 'The payment did not complete.' },
      )
      .where(and(eq(paymentOrders.providerRef, event.ref), eq(paymentOrders.status, 'pending')))
      .returning();
    if (!order) {
      const [known] = await tx
        .select({ id: paymentOrders.id })
        .from(paymentOrders)
        .where(eq(paymentOrders.providerRef, event.ref));
      return known ? ('already-applied' as const) : ('unknown-order' as const);
    }
    if (event.outcome === 'failed') return 'failed' as const;
    const plan = planById(order.planId);
    if (!plan) throw new Error(`order ${order.id}: plan ${order.planId} is no longer in the catalogue`);
    const [device] = order.deviceRowId
      ? await tx.select().from(devices).where(eq(devices.id, order.deviceRowId))
      : [];
    if (plan.scope === 'device' && !device) {
      // The device was deleted between payment and webhook: the order is paid, the licence has no device.
      deps.log.warn({ order: order.id }, 'paid order for a deleted device: licence created without device');
    }
    const licence = await createLicence(tx, {
      userId: order.userId,
      plan,
      device: device ? { id: device.id, deviceId: device.deviceId } : null,
      source: 'purchase',
      orderId: order.id,
    });
    const [user] = await tx.select().from(users).where(eq(users.id, order.userId));
    return { order, plan, device: device ?? null, licence, user: user! };
  });
  if (typeof outcome === 'string') return outcome;
  await mailReceipt(deps, {
    user: outcome.user,
    plan: outcome.plan,
    device: outcome.device,
    order: outcome.order,
    licence: outcome.licence,
    card: null,
    baseUrl,
  });
  return 'paid';
}
