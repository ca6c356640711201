/**
 * The billing feature (spec §1 "licences, payments (cards and addresses)"; §2 /pricing, /checkout,
 * /profile/my-licences, /admin-panel/licences; §3 payment card and address; §7 get-payment-cards,
 * get-user-address; issue 13): plans, the checkout through the payment provider (the offline test provider by
 * default, Stripe when configured), the user's licences with a renew banner in the header, and the admins'
 * licence list with grant and revoke. The user's licences actor loads after sign-in.
 */
import { lazyScreen } from '../../shell/lazyScreen';
import type { ConsoleFeature } from '../feature';
import { setBillingHttp } from './http';

export const billing: ConsoleFeature = {
  name: 'billing',
  routes: {
    pricing: lazyScreen(() => import('./screens/PricingScreen')),
    checkout: lazyScreen(() => import('./screens/CheckoutScreen')),
    myLicences: lazyScreen(() => import('./screens/MyLicencesScreen')),
    adminLicences: lazyScreen(() => import('./screens/AdminLicencesScreen')),
  },
  provide: ({ http }) => {
    setBillingHttp(http);
    return {};
  },
  loadActors: () => import('./actors').then((m) => m.billingActors),
  headerSlots: [lazyScreen(() => import('./screens/RenewBanner'))],
};
