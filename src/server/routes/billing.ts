/**
 * Licences, plans, checkout and payments (src/protocol/billing.ts; spec §2 /pricing, /checkout,
 * /profile/my-licences, /admin-panel/licences; §3 payment card and address; §7 get-payment-cards,
 * get-user-address):
 *   GET    billing/plans             (public) plans, the provider in use, its test cards
 *   GET    billing/licences          the caller's licences and the lapsed ones
 *   GET    billing/devices           the caller's devices with their quota and licence end
 *   GET    get-payment-cards         §7 → { res }         DELETE payment-cards/:id
 *   GET    get-user-address          §7 → { res }
 *   POST   billing/checkout          paid | failed (nothing stored) | redirect (Stripe)
 *   GET    billing/orders/:id        one of the caller's orders
 *   GET    admin/licences            (admin) all licences    POST admin/licences (grant)
 *   POST   admin/licences/:id/revoke (admin)
 * Admin grants and revokes are written to the admin audit log (writeAudit) in the same transaction.
 * Beside the table: POST /api/billing/stripe-webhook (Stripe's signed events; raw body; see registerWebhook).
 */
import { and, asc, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { billingRoutes } from '../../protocol/billing';
import { BILLING_ERROR_CODES, FREE_MAX_STREAMS } from '../../protocol/billing';
import { writeAudit } from '../audit';
import { userOf } from '../auth/guard';
import { findOwnDevice } from '../db/scope';
import { devices, licences, paymentCards, paymentOrders, streamLimits, users } from '../db/schema';
import { HttpError, notFound } from '../errors';
import { mailerOf, publicUrlOf } from '../mail';
import {
  addressesOf,
  applyPaymentEvent,
  cardsOf,
  checkout,
  toOrder,
  type CheckoutDeps,
} from '../billing/checkout';
import {
  adminLicence,
  adminLicences,
  createLicence,
  licencesOf,
  licensedStreams,
  revokeLicence,
} from '../billing/licences';
import { PLANS, planById } from '../billing/plans';
import { providerFromEnv } from '../billing/provider';
import type { HandlersOf } from './register';

/** Where Stripe posts its events. */
export const STRIPE_WEBHOOK_PATH = '/api/billing/stripe-webhook';

/** Checkouts per minute per client address. */
const CHECKOUT_RATE_LIMIT = { hook: 'preHandler' as const, max: 30, timeWindow: 60_000 };

export const billingHandlers: HandlersOf<typeof billingRoutes> = (ctx, app) => {
  const provider = providerFromEnv();
  const { mailer, settings } = mailerOf(ctx, app);
  const deps: CheckoutDeps = { db: ctx.db, provider, send: (m) => mailer.send(m), log: app.log };
  const baseUrl = (request: FastifyRequest) => publicUrlOf(settings, ctx.config, request);
  registerWebhook(app, deps, baseUrl);

  return {
    'billing.plans': async () => ({
      plans: [...PLANS],
      provider: { id: provider.id, test: provider.test },
      test_cards: [...provider.testCards],
    }),

    'billing.myLicences': async (_input, request) => licencesOf(ctx.db, userOf(request).id),

    'billing.devices': async (_input, request) => {
      const rows = await ctx.db
        .select({
          id: devices.id,
          deviceId: devices.deviceId,
          label: devices.label,
          base: streamLimits.maxStreams,
        })
        .from(devices)
        .leftJoin(streamLimits, eq(streamLimits.deviceRowId, devices.id))
        .where(eq(devices.ownerId, userOf(request).id))
        .orderBy(asc(devices.label), asc(devices.deviceId))
        .limit(1000);
      const licensed = await licensedStreams(
        ctx.db,
        rows.map((r) => r.id),
      );
      return {
        devices: rows.map((r) => {
          const base = r.base ?? FREE_MAX_STREAMS;
          const l = licensed.get(r.id);
          return {
            device_id: r.deviceId,
            label: r.label,
            max_streams: l ? Math.max(base, l.maxStreams) : base,
            licensed_until: l ? l.until.toISOString() : null,
          };
        }),
      };
    },

    'billing.paymentCards': async (_input, request) => ({ res: await cardsOf(ctx.db, userOf(request).id) }),

    'billing.deleteCard': async ({ params }, request) => {
      const userId = userOf(request).id;
      const [gone] = await ctx.db
        .delete(paymentCards)
        .where(and(eq(paymentCards.id, params.id), eq(paymentCards.userId, userId)))
        .returning({ isDefault: paymentCards.isDefault });
      if (!gone) throw notFound('Card');
      if (gone.isDefault) {
        // The oldest remaining card becomes the default.
        const [next] = await ctx.db
          .select({ id: paymentCards.id })
          .from(paymentCards)
          .where(eq(paymentCards.userId, userId))
          .orderBy(asc(paymentCards.createdAt))
          .limit(1);
        if (next)
          await ctx.db.update(paymentCards).set({ isDefault: true }).where(eq(paymentCards.id, next.id));
      }
      return { ok: true as const };
    },

    'billing.userAddress': async (_input, request) => ({
      res: await addressesOf(ctx.db, userOf(request).id),
    }),

    'billing.checkout': {
      rateLimit: CHECKOUT_RATE_LIMIT,
      handle: async ({ body }, request) => checkout(deps, userOf(request), body, baseUrl(request)),
    },

    'billing.order': async ({ params }, request) => {
      const [row] = await ctx.db
        .select({ order: paymentOrders, deviceId: devices.deviceId, licenceId: licences.id })
        .from(paymentOrders)
        .leftJoin(devices, eq(devices.id, paymentOrders.deviceRowId))
        .leftJoin(licences, eq(licences.orderId, paymentOrders.id))
        .where(and(eq(paymentOrders.id, params.id), eq(paymentOrders.userId, userOf(request).id)));
      if (!row) throw notFound('Order');
      return toOrder(row.order, row.deviceId, row.licenceId);
    },

    'billing.adminLicences': async ({ query }) => adminLicences(ctx.db, query),

    'billing.adminGrant': async ({ body }, request) => {
      const admin = userOf(request);
      const plan = planById(body.plan_id);
      if (!plan || plan.scope === 'free') {
        throw new HttpError(404, BILLING_ERROR_CODES.unknownPlan, `There is no plan '${body.plan_id}'.`);
      }
      const [holder] = await ctx.db
        .select()
        .from(users)
        .where(eq(users.email, body.email.toLowerCase()))
        .limit(1);
      if (!holder) throw notFound('User');
      let device: { id: string; deviceId: string } | null = null;
      if (plan.scope === 'device') {
        if (!body.device_id) {
          throw new HttpError(400, BILLING_ERROR_CODES.deviceRequired, 'device_id: this plan is per device');
        }
        const row = await findOwnDevice(ctx.db, holder.id, body.device_id);
        if (!row) throw notFound('Device of that user');
        device = { id: row.id, deviceId: row.deviceId };
      }
      const id = await ctx.db.transaction(async (tx) => {
        const row = await createLicence(tx, {
          userId: holder.id,
          plan,
          device,
          days: body.days ?? undefined,
          source: 'admin',
          grantedBy: admin.id,
        });
        await writeAudit(tx, {
          actorId: admin.id,
          action: 'licence.grant',
          targetType: 'licence',
          targetId: row.id,
          details: {
            user: holder.email,
            plan: plan.id,
            device: device?.deviceId ?? null,
            starts_at: row.startsAt.toISOString(),
            expires_at: row.expiresAt.toISOString(),
          },
        });
        return row.id;
      });
      return (await adminLicence(ctx.db, id))!;
    },

    'billing.adminRevoke': async ({ params }, request) => {
      const admin = userOf(request);
      await ctx.db.transaction(async (tx) => {
        const row = await revokeLicence(tx, params.id, admin.id);
        if (row === null) throw notFound('Licence');
        if (row === 'revoked') {
          throw new HttpError(409, BILLING_ERROR_CODES.alreadyRevoked, 'This licence is already revoked.');
        }
        await writeAudit(tx, {
          actorId: admin.id,
          action: 'licence.revoke',
          targetType: 'licence',
          targetId: row.id,
          details: { user_id: row.userId, plan: row.planId, device: row.deviceId },
        });
      });
      return (await adminLicence(ctx.db, params.id))!;
    },
  };
};

/**
 * POST /api/billing/stripe-webhook: Stripe's events, verified against STRIPE_WEBHOOK_SECRET over the raw body
 * bytes (in a scope of its own, so no other route reads raw JSON). 400 `{ code, message }` for a missing or
 * bad signature; 200 `{ received: true }` otherwise (also for events that concern no order, so Stripe stops
 * retrying). With the offline test provider the path answers 404: there are no webhooks.
 */
function registerWebhook(
  app: FastifyInstance,
  deps: CheckoutDeps,
  baseUrl: (request: FastifyRequest) => string,
): void {
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: 512 * 1024 }, (_req, body, done) =>
      done(null, body),
    );
    scope.post(STRIPE_WEBHOOK_PATH, { schema: { hide: true } }, async (request, reply) => {
      if (deps.provider.id !== 'stripe') {
        return reply
          .code(404)
          .send({ code: 'Not_found', message: 'No payment provider webhooks are configured.' });
      }
      const signature = request.headers['stripe-signature'];
      if (typeof signature !== 'string' || !Buffer.isBuffer(request.body)) {
        return reply
          .code(400)
          .send({ code: 'Signature_missing', message: 'The Stripe-Signature header is missing.' });
      }
      let event;
      try {
        event = deps.provider.parseWebhook(request.body, signature);
      } catch {
        return reply
          .code(400)
          .send({ code: 'Signature_invalid', message: 'The webhook signature does not verify.' });
      }
      if (event) {
        const outcome = await applyPaymentEvent(deps, event, baseUrl(request));
        request.log.info({ event: event.eventId, outcome }, 'stripe webhook');
      }
      return { received: true };
    });
  });
}
