/**
 * The billing screens' machines with their real calls (`.provide()`): pricing (billing.plans), checkout (plans,
 * §7 get-payment-cards and get-user-address, the user's devices; pay; an order back from Stripe) and the admin
 * licences (list, grant, revoke). Receipts are asked for in the interface language.
 */
import { fromPromise } from 'xstate';
import { adminLicencesMachine, ADMIN_PER_PAGE } from '../../../../machines/billing/adminLicences.machine';
import {
  checkoutMachine,
  type CheckoutLoaded,
  type PayInput,
} from '../../../../machines/billing/checkout.machine';
import { pricingMachine } from '../../../../machines/billing/pricing.machine';
import type { GrantBody } from '../../../protocol/billing';
import i18n from '../../i18n';
import { resolveLanguage } from '../../i18n/language';
import { billingHttp } from './http';

export const pricingLogic = () =>
  pricingMachine.provide({
    actors: { loadPlans: fromPromise(({ signal }) => billingHttp().call('billing.plans', { signal })) },
  });

export const checkoutLogic = () =>
  checkoutMachine.provide({
    actors: {
      loadCheckout: fromPromise<CheckoutLoaded, void>(async ({ signal }) => {
        const http = billingHttp();
        const [plans, cards, addresses, devices] = await Promise.all([
          http.call('billing.plans', { signal }),
          http.call('billing.paymentCards', { signal }),
          http.call('billing.userAddress', { signal }),
          http.call('billing.devices', { signal }),
        ]);
        return { ...plans, cards: cards.res, addresses: addresses.res, devices: devices.devices };
      }),
      pay: fromPromise(({ input, signal }: { input: PayInput; signal: AbortSignal }) =>
        billingHttp().call('billing.checkout', {
          body: { ...input, language: resolveLanguage(i18n.language) },
          signal,
        }),
      ),
      loadOrder: fromPromise(({ input, signal }: { input: { orderId: string }; signal: AbortSignal }) =>
        billingHttp().call('billing.order', { params: { id: input.orderId }, signal }),
      ),
    },
  });

export const adminLicencesLogic = () =>
  adminLicencesMachine.provide({
    actors: {
      loadLicences: fromPromise(
        ({ input, signal }: { input: { search: string; page: number }; signal: AbortSignal }) =>
          billingHttp().call('billing.adminLicences', {
            query: { search: input.search, page: input.page, per_page: ADMIN_PER_PAGE },
            signal,
          }),
      ),
      grant: fromPromise(({ input, signal }: { input: GrantBody; signal: AbortSignal }) =>
        billingHttp().call('billing.adminGrant', { body: input, signal }),
      ),
      revoke: fromPromise(({ input, signal }: { input: { id: string }; signal: AbortSignal }) =>
        billingHttp().call('billing.adminRevoke', { params: { id: input.id }, signal }),
      ),
    },
  });
