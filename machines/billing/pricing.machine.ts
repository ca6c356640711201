/**
 * The pricing page's plans — spec §2 /pricing (readable signed in or out); issue 13 "plans from the server".
 * loading → ready | failed; pricing.retry from failed. Pure: the call is the provided actor `loadPlans`.
 * Tag `busy` while loading.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { PlansResponse } from '../../src/protocol/billing';
import { errorText } from '../notifications/emitted';

export interface PricingContext {
  plans: PlansResponse | null;
  error: string | null;
}

export const pricingMachine = setup({
  types: { context: {} as PricingContext, events: {} as { type: 'pricing.retry' } },
  actors: {
    loadPlans: fromPromise<PlansResponse>(async () => {
      throw new Error('pricing: loadPlans is not provided');
    }),
  },
}).createMachine({
  id: 'pricing',
  context: { plans: null, error: null },
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadPlans',
        src: 'loadPlans',
        onDone: { target: 'ready', actions: assign({ plans: ({ event }) => event.output, error: null }) },
        onError: {
          target: 'failed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The plans could not be read.') }),
        },
      },
    },
    ready: {},
    failed: { on: { 'pricing.retry': 'loading' } },
  },
});
