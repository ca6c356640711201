/**
 * The billing and public screens' pure parts: checkout drafts (§3 selected card and address: field checks, what
 * the pay call sends — never card fields with Stripe), snapshot → view of the checkout (steps, field errors only
 * after trying), of my licences and the admin list, the renew link, money and the contact form's view and the
 * policy a path names.
 */
import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { adminLicencesMachine } from '../../../machines/billing/adminLicences.machine';
import { checkoutMachine, payInputOf } from '../../../machines/billing/checkout.machine';
import {
  addressErrors,
  cardErrors,
  EMPTY_ADDRESS,
  EMPTY_CARD,
  selectedCardOf,
} from '../../../machines/billing/checkoutDraft';
import { myLicencesMachine } from '../../../machines/billing/myLicences.machine';
import { contactMachine } from '../../../machines/public/contact.machine';
import {
  adminLicencesToView,
  checkoutToView,
  formatMoney,
  myLicencesToView,
  planProblem,
  renewHref,
} from '../../../src/console/features/billing/selectors';
import { contactToView, policyOf } from '../../../src/console/features/public/selectors';
import { adminLicence, licence, loadedStripe, loadedTest } from '../../model/billing/fixtures';

const flush = () => new Promise((r) => setTimeout(r, 0));

describe('checkout drafts', () => {
  it('checks address and card fields', () => {
    expect(addressErrors(EMPTY_ADDRESS)).toEqual({
      name: 'errors.required',
      address: 'errors.required',
      country: 'errors.required',
      city: 'errors.required',
    });
    expect(addressErrors({ ...EMPTY_ADDRESS, address_id: 'a1' })).toEqual({});
    const full = { ...EMPTY_ADDRESS, name: 'A', address: 'B', country: 'C', city: 'D' };
    expect(addressErrors({ ...full, is_saved: true })).toEqual({ address_name: 'errors.addressNameToSave' });
    expect(addressErrors({ ...full, phone: 'call me' })).toEqual({ phone: 'errors.phone' });
    expect(cardErrors(EMPTY_CARD)).toEqual({
      card_number: 'errors.cardNumber',
      card_month: 'errors.month',
      card_year: 'errors.year',
      card_cvc: 'errors.cvc',
    });
    const card = {
      ...EMPTY_CARD,
      card_number: '4242 4242 4242 4242',
      card_month: '7',
      card_year: '31',
      card_cvc: '123',
    };
    expect(cardErrors(card)).toEqual({});
    expect(cardErrors({ ...card, card_month: '13' })).toEqual({ card_month: 'errors.month' });
    expect(cardErrors({ ...EMPTY_CARD, pay_with_new_card: false })).toEqual({ card_id: 'errors.chooseCard' });
    expect(selectedCardOf(card, true)).toEqual({
      card_id: null,
      pay_with_new_card: true,
      card_number: '4242424242424242',
      card_month: 7,
      card_year: 31,
      card_cvc: '123',
      is_saved: false,
    });
    expect(selectedCardOf(card, false)).toBeNull();
  });
});

describe('checkout view', () => {
  it('shows the steps, errors only after trying, and sends only what the provider takes', async () => {
    const actor = createActor(
      checkoutMachine.provide({ actors: { loadCheckout: fromPromise(async () => loadedTest) } }),
      { input: { planId: 'device-pro-monthly', deviceId: null } },
    ).start();
    await flush();
    let view = checkoutToView(actor.getSnapshot());
    expect(view).toMatchObject({
      state: 'plan',
      steps: ['plan', 'address', 'card'],
      current: 0,
      provider: 'test',
    });
    expect(view.plans.map((p) => p.id)).toEqual(['device-pro-monthly', 'priority-support']);
    expect(planProblem(actor.getSnapshot())).toBeNull();
    actor.send({ type: 'plan.next' });
    expect(planProblem(actor.getSnapshot())).toBe('chooseDevice');
    actor.send({ type: 'plan.device', deviceId: 'dev-2' });
    actor.send({ type: 'plan.next' });
    view = checkoutToView(actor.getSnapshot());
    expect(view).toMatchObject({ state: 'address', current: 1, addressErrors: {} });
    // The saved default address and card are preselected.
    expect(payInputOf(actor.getSnapshot().context)).toEqual({
      plan_id: 'device-pro-monthly',
      device_id: 'dev-2',
      card: { pay_with_new_card: false, card_id: 'c1' },
      address: { address_id: 'a1' },
    });
    actor.send({ type: 'address.use', addressId: null });
    actor.send({ type: 'address.next' });
    expect(checkoutToView(actor.getSnapshot()).addressErrors.city).toBe('errors.required');
    actor.stop();

    const stripe = createActor(
      checkoutMachine.provide({ actors: { loadCheckout: fromPromise(async () => loadedStripe) } }),
      { input: { planId: 'priority-support' } },
    ).start();
    await flush();
    expect(checkoutToView(stripe.getSnapshot()).steps).toEqual(['plan', 'address']);
    expect(payInputOf(stripe.getSnapshot().context)).toMatchObject({ device_id: null, card: null });
    stripe.stop();
  });
});

describe('licence views', () => {
  it('lists licences and lapsed ones; renew links keep plan and device', async () => {
    const actor = createActor(
      myLicencesMachine.provide({
        actors: { loadLicences: fromPromise(async () => ({ licences: [licence], lapsed: [licence] })) },
      }),
    ).start();
    actor.send({ type: 'licences.load' });
    await flush();
    expect(myLicencesToView(actor.getSnapshot())).toMatchObject({
      state: 'ready',
      licences: [licence],
      lapsed: [licence],
      freeStreams: 16,
    });
    expect(renewHref(licence)).toBe('/checkout?plan=device-pro-monthly&device=dev-1');
    expect(renewHref({ plan_id: 'priority-support', device_id: null })).toBe(
      '/checkout?plan=priority-support',
    );
    expect(formatMoney(1900, 'EUR', 'en')).toBe('€19.00');
    expect(formatMoney(19000, 'EUR', 'de')).toMatch(/190,00\s€/);
  });

  it('admin view: pages, the revoke target and the grant sub-state', async () => {
    const actor = createActor(
      adminLicencesMachine.provide({
        actors: {
          loadLicences: fromPromise(async () => ({ licences: [adminLicence('l1', 'active')], total: 41 })),
        },
      }),
    ).start();
    await flush();
    expect(adminLicencesToView(actor.getSnapshot())).toMatchObject({
      state: 'ready',
      pages: 3,
      page: 1,
      granting: null,
    });
    actor.send({ type: 'revoke.ask', id: 'l1' });
    expect(adminLicencesToView(actor.getSnapshot()).target).toEqual({
      id: 'l1',
      email: 'ada@x.io',
      plan: 'Device Pro',
    });
    actor.send({ type: 'revoke.cancel' });
    actor.send({ type: 'grant.open' });
    expect(adminLicencesToView(actor.getSnapshot())).toMatchObject({
      state: 'granting',
      granting: 'editing',
    });
    actor.stop();
  });
});

describe('public views', () => {
  it('shows contact field errors only after trying, and picks the policy from the path', () => {
    const actor = createActor(contactMachine).start();
    const bad = { name: '', email: 'x', subject: 's', message: 'short' };
    expect(contactToView(actor.getSnapshot(), bad).errors).toEqual({});
    actor.send({ type: 'contact.submit', form: bad });
    expect(contactToView(actor.getSnapshot(), bad).errors).toEqual({
      name: 'public.contact.errors.required',
      email: 'public.contact.errors.email',
      message: 'public.contact.errors.tooShort',
    });
    expect(policyOf('/policies/cookie-policy')).toBe('cookie-policy');
    expect(policyOf('/policies/unknown')).toBe('privacy-policy');
  });
});
