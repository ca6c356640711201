/**
 * The checkout flow — spec §2 /checkout; §3 "Payment card: id, last4, default. Selected card: card_id,
 * pay_with_new_card, card_number, card_month, card_year, card_cvc, is_saved" and "Address: id, default.
 * Selected address: …, is_saved"; §7 get-payment-cards, get-user-address; issue 13 "Licences, pricing and
 * payments".
 *
 * loading (plans, provider, saved cards and addresses, the user's devices) → plan → address → card → paying →
 * paid | declined | redirecting (Stripe: its Checkout page takes the card, so there is no card step). Back
 * steps keep what was typed. A declined payment stores nothing; step.back returns to the card (or address).
 * Back from Stripe (`orderId` input): confirming ⇄ waiting (every 2 s, at most 30 times) until the webhook has
 * marked the order paid or failed, else stillPending. Pure: the calls are the provided actors `loadCheckout`,
 * `pay` and `loadOrder`. Tags: `busy` while loading, paying or confirming.
 */
import { assign, fromPromise, setup } from 'xstate';
import type {
  Address,
  CheckoutResponse,
  LicensableDevice,
  Order,
  PaymentCard,
  Plan,
  ProviderInfo,
  SelectedAddress,
  SelectedCard,
  TestCard,
} from '../../src/protocol/billing';
import { errorText } from '../notifications/emitted';
import {
  addressValid,
  cardValid,
  EMPTY_ADDRESS,
  EMPTY_CARD,
  selectedAddressOf,
  selectedCardOf,
  type AddressDraft,
  type CardDraft,
} from './checkoutDraft';

/** What the checkout screen needs first. */
export interface CheckoutLoaded {
  plans: Plan[];
  provider: ProviderInfo;
  test_cards: TestCard[];
  cards: PaymentCard[];
  addresses: Address[];
  devices: LicensableDevice[];
}

/** The body of the pay call (the language is added by the call). */
export interface PayInput {
  plan_id: string;
  device_id: string | null;
  card: SelectedCard | null;
  address: SelectedAddress;
}

export interface CheckoutInput {
  planId?: string | null;
  deviceId?: string | null;
  /** Back from Stripe's page: the order to confirm. */
  orderId?: string | null;
  /** Back from Stripe's page with "cancel". */
  canceled?: boolean;
}

/** Longest wait for a Stripe webhook: POLL_MS × POLL_MAX. */
export const POLL_MS = 2000;
export const POLL_MAX = 30;

export interface CheckoutContext {
  plans: Plan[];
  provider: ProviderInfo | null;
  testCards: TestCard[];
  cards: PaymentCard[];
  addresses: Address[];
  devices: LicensableDevice[];
  planId: string | null;
  deviceId: string | null;
  address: AddressDraft;
  card: CardDraft;
  /** The user tried to go on: the view shows the step's field errors. */
  attempted: boolean;
  /** Why loading or paying failed (a clear message), null otherwise. */
  error: string | null;
  /** 'canceled' when the user came back from Stripe's page without paying. */
  notice: 'canceled' | null;
  result: Extract<CheckoutResponse, { status: 'paid' }> | null;
  /** Stripe's Checkout page to open. */
  redirectUrl: string | null;
  orderId: string | null;
  order: Order | null;
  polls: number;
}

export type CheckoutEvent =
  | { type: 'plan.choose'; planId: string }
  | { type: 'plan.device'; deviceId: string }
  | { type: 'plan.next' }
  | { type: 'address.use'; addressId: string | null }
  | { type: 'address.change'; patch: Partial<AddressDraft> }
  | { type: 'address.next' }
  | { type: 'card.use'; cardId: string | null }
  | { type: 'card.change'; patch: Partial<CardDraft> }
  | { type: 'card.pay' }
  | { type: 'step.back' }
  | { type: 'checkout.retry' }
  | { type: 'checkout.again' };

const buyable = (plans: Plan[], id: string | null | undefined) =>
  plans.find((p) => p.id === id && p.scope !== 'free') ?? null;

const chosenPlan = (c: CheckoutContext) => buyable(c.plans, c.planId);

/** The body of the pay call from the drafts. Pure. */
export function payInputOf(c: CheckoutContext): PayInput {
  const plan = chosenPlan(c);
  return {
    plan_id: c.planId ?? '',
    device_id: plan?.scope === 'device' ? c.deviceId : null,
    card: selectedCardOf(c.card, c.provider?.id === 'test'),
    address: selectedAddressOf(c.address),
  };
}

/** A placeholder actor that must be provided (`.provide()`). */
function fromPromiseStub<TOutput, TInput>(name: string) {
  return fromPromise<TOutput, TInput>(async () => {
    throw new Error(`checkout: ${name} is not provided`);
  });
}

export const checkoutMachine = setup({
  types: {
    context: {} as CheckoutContext,
    events: {} as CheckoutEvent,
    input: {} as CheckoutInput,
  },
  actors: {
    loadCheckout: fromPromiseStub<CheckoutLoaded, void>('loadCheckout'),
    pay: fromPromiseStub<CheckoutResponse, PayInput>('pay'),
    loadOrder: fromPromiseStub<Order, { orderId: string }>('loadOrder'),
  },
  guards: {
    watching: ({ context }) => context.orderId !== null,
    buyablePlan: ({ context, event }) =>
      event.type === 'plan.choose' && buyable(context.plans, event.planId) !== null,
    knownDevice: ({ context, event }) =>
      event.type === 'plan.device' && context.devices.some((d) => d.device_id === event.deviceId),
    planReady: ({ context }) => {
      const plan = chosenPlan(context);
      return plan !== null && (plan.scope !== 'device' || context.deviceId !== null);
    },
    knownAddress: ({ context, event }) =>
      event.type === 'address.use' &&
      (event.addressId === null || context.addresses.some((a) => a.id === event.addressId)),
    addressReadyWithCards: ({ context }) => addressValid(context.address) && context.provider?.id === 'test',
    addressReady: ({ context }) => addressValid(context.address),
    knownCard: ({ context, event }) =>
      event.type === 'card.use' &&
      (event.cardId === null || context.cards.some((c) => c.id === event.cardId)),
    cardReady: ({ context }) => cardValid(context.card),
    takesCards: ({ context }) => context.provider?.id === 'test',
    paid: ({ event }) => (event as unknown as { output: CheckoutResponse }).output.status === 'paid',
    redirect: ({ event }) => (event as unknown as { output: CheckoutResponse }).output.status === 'redirect',
    orderPaid: ({ event }) => (event as unknown as { output: Order }).output.status === 'paid',
    orderFailed: ({ event }) => (event as unknown as { output: Order }).output.status === 'failed',
    mayPollAgain: ({ context }) => context.polls < POLL_MAX,
  },
  actions: {
    tried: assign({ attempted: true }),
    fresh: assign({ attempted: false, error: null }),
  },
}).createMachine({
  id: 'checkout',
  context: ({ input }) => ({
    plans: [],
    provider: null,
    testCards: [],
    cards: [],
    addresses: [],
    devices: [],
    planId: input.planId ?? null,
    deviceId: input.deviceId ?? null,
    address: EMPTY_ADDRESS,
    card: EMPTY_CARD,
    attempted: false,
    error: null,
    notice: input.canceled ? 'canceled' : null,
    result: null,
    redirectUrl: null,
    orderId: input.canceled ? null : (input.orderId ?? null),
    order: null,
    polls: 0,
  }),
  initial: 'loading',
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadCheckout',
        src: 'loadCheckout',
        onDone: [
          {
            guard: 'watching',
            target: 'confirming',
            actions: assign(({ event }) => ({ plans: event.output.plans, provider: event.output.provider })),
          },
          {
            target: 'plan',
            actions: assign(({ context, event }) => {
              const o = event.output;
              const plan = buyable(o.plans, context.planId);
              const device = o.devices.find((d) => d.device_id === context.deviceId);
              const defaultCard = o.cards.find((c) => c.default) ?? o.cards[0];
              const defaultAddress = o.addresses.find((a) => a.default) ?? o.addresses[0];
              return {
                plans: o.plans,
                provider: o.provider,
                testCards: o.test_cards,
                cards: o.cards,
                addresses: o.addresses,
                devices: o.devices,
                planId: plan?.id ?? null,
                deviceId: device?.device_id ?? (o.devices.length === 1 ? o.devices[0]!.device_id : null),
                address: defaultAddress ? { ...EMPTY_ADDRESS, address_id: defaultAddress.id } : EMPTY_ADDRESS,
                card: defaultCard
                  ? { ...EMPTY_CARD, pay_with_new_card: false, card_id: defaultCard.id }
                  : EMPTY_CARD,
                error: null,
                attempted: false,
                result: null,
              };
            }),
          },
        ],
        onError: {
          target: 'loadFailed',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'The checkout could not be loaded.'),
          }),
        },
      },
    },
    loadFailed: { on: { 'checkout.retry': 'loading' } },
    plan: {
      on: {
        'plan.choose': { guard: 'buyablePlan', actions: assign({ planId: ({ event }) => event.planId }) },
        'plan.device': { guard: 'knownDevice', actions: assign({ deviceId: ({ event }) => event.deviceId }) },
        'plan.next': [{ guard: 'planReady', target: 'address', actions: 'fresh' }, { actions: 'tried' }],
      },
    },
    address: {
      on: {
        'address.use': {
          guard: 'knownAddress',
          actions: assign({
            address: ({ context, event }) => ({ ...context.address, address_id: event.addressId }),
          }),
        },
        'address.change': {
          actions: assign({
            address: ({ context, event }) => ({ ...context.address, ...event.patch, address_id: null }),
          }),
        },
        'address.next': [
          { guard: 'addressReadyWithCards', target: 'card', actions: 'fresh' },
          { guard: 'addressReady', target: 'paying', actions: 'fresh' },
          { actions: 'tried' },
        ],
        'step.back': { target: 'plan', actions: 'fresh' },
      },
    },
    card: {
      on: {
        'card.use': {
          guard: 'knownCard',
          actions: assign({
            card: ({ context, event }) => ({
              ...context.card,
              card_id: event.cardId,
              pay_with_new_card: event.cardId === null,
            }),
          }),
        },
        'card.change': {
          actions: assign({
            card: ({ context, event }) => ({
              ...context.card,
              ...event.patch,
              card_id: null,
              pay_with_new_card: true,
            }),
          }),
        },
        'card.pay': [{ guard: 'cardReady', target: 'paying', actions: 'fresh' }, { actions: 'tried' }],
        'step.back': { target: 'address', actions: 'fresh' },
      },
    },
    paying: {
      tags: ['busy'],
      invoke: {
        id: 'pay',
        src: 'pay',
        input: ({ context }) => payInputOf(context),
        onDone: [
          {
            guard: 'paid',
            target: 'paid',
            actions: assign({ result: ({ event }) => event.output as CheckoutContext['result'] }),
          },
          {
            guard: 'redirect',
            target: 'redirecting',
            actions: assign({
              redirectUrl: ({ event }) => (event.output as { url: string }).url,
            }),
          },
          {
            target: 'declined',
            actions: assign({ error: ({ event }) => (event.output as { message: string }).message }),
          },
        ],
        onError: {
          target: 'declined',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The payment could not be made.') }),
        },
      },
    },
    declined: {
      on: {
        'step.back': [
          {
            guard: 'takesCards',
            target: 'card',
            // A declined number is cleared: typing it again is a conscious choice.
            actions: assign({
              error: null,
              card: ({ context }) => ({ ...context.card, card_number: '', card_cvc: '' }),
            }),
          },
          { target: 'address', actions: 'fresh' },
        ],
      },
    },
    paid: {
      on: { 'checkout.again': { target: 'loading', actions: assign({ planId: null, result: null }) } },
    },
    redirecting: { type: 'final' },
    confirming: {
      tags: ['busy'],
      invoke: {
        id: 'loadOrder',
        src: 'loadOrder',
        input: ({ context }) => ({ orderId: context.orderId! }),
        onDone: [
          { guard: 'orderPaid', target: 'paid', actions: assign({ order: ({ event }) => event.output }) },
          {
            guard: 'orderFailed',
            target: 'declined',
            actions: assign({
              order: ({ event }) => event.output,
              error: ({ event }) => event.output.failure_message ?? 'The payment did not complete.',
            }),
          },
          { target: 'waiting', actions: assign({ order: ({ event }) => event.output }) },
        ],
        onError: {
          target: 'loadFailed',
          actions: assign({ error: ({ event }) => errorText(event.error, 'The order could not be read.') }),
        },
      },
    },
    waiting: {
      after: {
        [POLL_MS]: [
          {
            guard: 'mayPollAgain',
            target: 'confirming',
            actions: assign({ polls: ({ context }) => context.polls + 1 }),
          },
          { target: 'stillPending' },
        ],
      },
    },
    stillPending: {
      on: { 'checkout.retry': { target: 'confirming', actions: assign({ polls: 0 }) } },
    },
  },
});
