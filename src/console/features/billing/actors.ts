/**
 * The billing feature's long-lived actor (loaded after sign-in): the user's licences (systemId 'myLicences',
 * GET billing/licences), loaded at sign-in and forgotten at sign-out; /profile/my-licences and the header's
 * renew banner read it, a paid checkout refreshes it.
 */
import { fromPromise } from 'xstate';
import { myLicencesMachine } from '../../../../machines/billing/myLicences.machine';
import { featureActor, type FeatureActor } from '../../../../machines/system.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import type { Platform } from '../feature';

export function billingActors({ http }: Platform): FeatureActor[] {
  return [
    featureActor({
      systemId: SYSTEM_IDS.myLicences,
      logic: myLicencesMachine.provide({
        actors: { loadLicences: fromPromise(({ signal }) => http.call('billing.myLicences', { signal })) },
      }),
      onSignIn: [{ type: 'licences.load' }],
      onSignOut: [{ type: 'licences.reset' }],
    }),
  ];
}
