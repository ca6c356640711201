/**
 * The checkout machine on model-based paths (§2 /checkout; §3 selected card and address): with the offline
 * test provider plan → address → card → paying → paid | declined (back to the card, number cleared) and load
 * failures; with Stripe the card step is skipped and paying redirects; back from Stripe the order is confirmed
 * by polling (paid, failed, still pending after POLL_MAX polls). Each reached state is checked on the real
 * machine; a pay call is only ever made with a complete plan, address and card.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type EventObject, type SnapshotFrom } from 'xstate';
import {
  checkoutMachine,
  POLL_MAX,
  type CheckoutInput,
  type CheckoutLoaded,
  type PayInput,
} from '../../../machines/billing/checkout.machine';
import { addressValid, cardValid } from '../../../machines/billing/checkoutDraft';
import { createMachineTestModel, Driver, runPaths } from '../harness';
import { licence, loadedStripe, loadedTest, order } from './fixtures';

type Snap = SnapshotFrom<typeof checkoutMachine>;
const ev = (e: object) => e as unknown as EventObject;

function eventsFor(loaded: CheckoutLoaded) {
  return (s: Snap, type: string): EventObject[] | undefined => {
    switch (type) {
      case 'xstate.done.actor.loadCheckout':
        return [ev({ type, output: loaded })];
      case 'xstate.error.actor.loadCheckout':
        return [ev({ type, error: new Error('Servers are unavailable.') })];
      case 'plan.choose':
        return ['device-pro-monthly', 'priority-support', 'free'].map((planId) => ev({ type, planId }));
      case 'plan.device':
        return [ev({ type, deviceId: 'dev-2' }), ev({ type, deviceId: 'nope' })];
      case 'address.use':
        return [ev({ type, addressId: 'a1' }), ev({ type, addressId: null })];
      case 'address.change':
        return [ev({ type, patch: { name: 'Bo', address: '2 Rd', country: 'DE', city: 'Berlin' } })];
      case 'card.use':
        return s.context.cards.length
          ? [ev({ type, cardId: 'c1' }), ev({ type, cardId: null })]
          : [ev({ type, cardId: null })];
      case 'card.change':
        return [
          ev({
            type,
            patch: { card_number: '4242 4242 4242 4242', card_month: '12', card_year: '40', card_cvc: '123' },
          }),
        ];
      case 'xstate.done.actor.pay':
        return [
          ev({ type, output: { status: 'paid', order: order('paid'), licence } }),
          ev({
            type,
            output: { status: 'failed', code: 'card_declined', message: 'Your card was declined.' },
          }),
          ev({
            type,
            output: { status: 'redirect', order: order('pending'), url: 'https://checkout.stripe.test/x' },
          }),
        ];
      case 'xstate.error.actor.pay':
        return [ev({ type, error: new Error('Too many attempts.') })];
      case 'xstate.done.actor.loadOrder':
        return [
          ev({ type, output: order('paid') }),
          ev({ type, output: order('failed') }),
          ev({ type, output: order('pending') }),
        ];
      case 'xstate.error.actor.loadOrder':
        return [ev({ type, error: new Error('Order not found.') })];
      default:
        return undefined;
    }
  };
}

const key = (s: Snap) =>
  JSON.stringify([
    s.value,
    s.context.planId,
    s.context.deviceId,
    s.context.address.address_id ?? addressValid(s.context.address),
    s.context.card.card_id ?? cardValid(s.context.card),
    s.context.attempted,
    s.context.error,
    Math.min(s.context.polls, 2),
    s.context.redirectUrl,
  ]);

async function run(loaded: CheckoutLoaded, input: CheckoutInput) {
  const paths = createMachineTestModel(checkoutMachine, {
    events: eventsFor(loaded),
    key,
    input,
  }).getShortestPaths({
    allowDuplicatePaths: true,
  });
  const start = (driver: Driver) =>
    createActor(
      checkoutMachine.provide({
        actors: {
          loadCheckout: driver.promise('loadCheckout'),
          pay: driver.promise<unknown, PayInput>('pay') as never,
          loadOrder: driver.promise('loadOrder'),
        },
      }),
      { input, clock: driver.clock },
    ).start();
  const steps = await runPaths(paths, start, key);
  return { paths, steps };
}

describe('checkout machine (model-based paths)', () => {
  it('test provider: plan → address → card → paid | declined, load failures', async () => {
    const { paths, steps } = await run(loadedTest, { planId: 'device-pro-monthly', deviceId: 'dev-1' });
    expect(steps).toBeGreaterThan(paths.length);
    const ends = paths.map((p) => p.state);
    for (const st of [
      'loading',
      'loadFailed',
      'plan',
      'address',
      'card',
      'paying',
      'paid',
      'declined',
      'redirecting',
    ])
      expect(ends.some((s) => s.matches(st as never))).toBe(true);
    for (const p of paths)
      for (const step of p.steps) {
        const s = step.state;
        // Paying only with a buyable plan (and device), a valid address and card.
        if (s.matches('paying')) {
          expect(s.context.planId).not.toBe('free');
          expect(addressValid(s.context.address)).toBe(true);
          expect(cardValid(s.context.card)).toBe(true);
          if (s.context.planId === 'device-pro-monthly') expect(s.context.deviceId).not.toBeNull();
        }
        // A declined card is cleared when the user goes back to it.
        if (
          s.matches('card') &&
          step.event.type === 'step.back' &&
          p.steps.some((x) => x.state.matches('declined'))
        )
          expect(s.context.card.card_number).toBe('');
      }
  });

  it('Stripe: no card step, paying redirects; back from Stripe the order is polled until settled', async () => {
    const fresh = await run(loadedStripe, { planId: 'priority-support' });
    for (const p of fresh.paths) for (const step of p.steps) expect(step.state.matches('card')).toBe(false);
    expect(fresh.paths.some((p) => p.state.matches('redirecting'))).toBe(true);

    const back = await run(loadedStripe, { orderId: 'o1' });
    const ends = back.paths.map((p) => p.state);
    for (const st of ['confirming', 'waiting', 'paid', 'declined', 'loadFailed'])
      expect(ends.some((s) => s.matches(st as never))).toBe(true);
  });

  it('gives up polling after POLL_MAX and can be asked again', async () => {
    const driver = new Driver();
    const polled = createActor(
      checkoutMachine.provide({
        actors: { loadCheckout: driver.promise('loadCheckout'), loadOrder: driver.promise('loadOrder') },
      }),
      { input: { orderId: 'o1' }, clock: driver.clock },
    ).start();
    await driver.exec(polled, ev({ type: 'xstate.done.actor.loadCheckout', output: loadedStripe }));
    for (let i = 0; i <= POLL_MAX; i++) {
      await driver.exec(polled, ev({ type: 'xstate.done.actor.loadOrder', output: order('pending') }));
      await driver.exec(polled, ev({ type: 'xstate.after.2000.checkout.waiting' }));
    }
    expect(polled.getSnapshot().value).toBe('stillPending');
    polled.send({ type: 'checkout.retry' });
    expect(polled.getSnapshot().value).toBe('confirming');
    polled.stop();
  });
});
