/**
 * Pure views of the billing screens (§2 /pricing, /checkout, /profile/my-licences, /admin-panel/licences; §3
 * payment card and address) and their hooks: each machine's snapshot → what the screen shows.
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { AnyActorRef, SnapshotFrom } from 'xstate';
import type { adminLicencesMachine } from '../../../../machines/billing/adminLicences.machine';
import { ADMIN_PER_PAGE } from '../../../../machines/billing/adminLicences.machine';
import type { checkoutMachine } from '../../../../machines/billing/checkout.machine';
import {
  addressErrors,
  cardErrors,
  type AddressErrors,
  type CardErrors,
} from '../../../../machines/billing/checkoutDraft';
import type { myLicencesMachine } from '../../../../machines/billing/myLicences.machine';
import type { pricingMachine } from '../../../../machines/billing/pricing.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { FREE_MAX_STREAMS, type Licence, type Plan } from '../../../protocol/billing';
import { actorOf, useSystem } from '../../shell/SystemProvider';

/** "€19.00" in the interface language's number format. */
export function formatMoney(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(cents / 100);
}

/** A date (ISO 8601) as the interface language writes a day. */
export const formatDay = (iso: string, locale: string): string =>
  new Intl.DateTimeFormat(locale, { year: 'numeric', month: 'short', day: 'numeric' }).format(new Date(iso));

/** The checkout link that renews a licence: the same plan, for the same device. */
export function renewHref(l: Pick<Licence, 'plan_id' | 'device_id'>): string {
  const q = new URLSearchParams({ plan: l.plan_id });
  if (l.device_id) q.set('device', l.device_id);
  return `/checkout?${q.toString()}`;
}

// ── pricing ───────────────────────────────────────────────────────────────────────────────────────────────

export type PricingSnapshot = SnapshotFrom<typeof pricingMachine>;

export interface PricingView {
  state: 'loading' | 'ready' | 'failed';
  plans: Plan[];
  /** 'test': the offline test provider; 'stripe': Stripe; null before loading. */
  provider: 'test' | 'stripe' | null;
  error: string | null;
}

export function pricingToView(s: PricingSnapshot): PricingView {
  return {
    state: s.value as PricingView['state'],
    plans: s.context.plans?.plans ?? [],
    provider: s.context.plans?.provider.id ?? null,
    error: s.context.error,
  };
}

// ── checkout ──────────────────────────────────────────────────────────────────────────────────────────────

export type CheckoutSnapshot = SnapshotFrom<typeof checkoutMachine>;
export type CheckoutStep = 'plan' | 'address' | 'card';

export interface CheckoutView {
  state:
    | 'loading'
    | 'loadFailed'
    | 'plan'
    | 'address'
    | 'card'
    | 'paying'
    | 'paid'
    | 'declined'
    | 'redirecting'
    | 'confirming'
    | 'waiting'
    | 'stillPending';
  /** The steps the user goes through (no card step with Stripe) and the current one's index (-1: none). */
  steps: CheckoutStep[];
  current: number;
  busy: boolean;
  plans: Plan[];
  plan: Plan | null;
  provider: 'test' | 'stripe' | null;
  /** Field errors of the current step, once the user tried to go on. */
  addressErrors: AddressErrors;
  cardErrors: CardErrors;
  error: string | null;
  notice: 'canceled' | null;
}

export function checkoutToView(s: CheckoutSnapshot): CheckoutView {
  const c = s.context;
  const state = s.value as CheckoutView['state'];
  const steps: CheckoutStep[] =
    c.provider?.id === 'stripe' ? ['plan', 'address'] : ['plan', 'address', 'card'];
  return {
    state,
    steps,
    current: steps.indexOf(state as CheckoutStep),
    busy: s.hasTag('busy'),
    plans: c.plans.filter((p) => p.scope !== 'free'),
    plan: c.plans.find((p) => p.id === c.planId && p.scope !== 'free') ?? null,
    provider: c.provider?.id ?? null,
    addressErrors: c.attempted && state === 'address' ? addressErrors(c.address) : {},
    cardErrors: c.attempted && state === 'card' ? cardErrors(c.card) : {},
    error: c.error,
    notice: c.notice,
  };
}

/** The plan step's missing choice, once the user tried to go on. */
export function planProblem(s: CheckoutSnapshot): 'choosePlan' | 'chooseDevice' | null {
  const c = s.context;
  if (!c.attempted || !s.matches('plan')) return null;
  const plan = c.plans.find((p) => p.id === c.planId && p.scope !== 'free');
  if (!plan) return 'choosePlan';
  return plan.scope === 'device' && !c.deviceId ? 'chooseDevice' : null;
}

// ── my licences ───────────────────────────────────────────────────────────────────────────────────────────

export type MyLicencesSnapshot = SnapshotFrom<typeof myLicencesMachine>;

export interface MyLicencesView {
  state: 'idle' | 'loading' | 'ready' | 'failed';
  licences: Licence[];
  lapsed: Licence[];
  error: string | null;
  /** The free tier's streams per device, what an expired device licence falls back to. */
  freeStreams: number;
}

export function myLicencesToView(s: MyLicencesSnapshot): MyLicencesView {
  return {
    state: s.value as MyLicencesView['state'],
    licences: s.context.licences,
    lapsed: s.context.lapsed,
    error: s.context.error,
    freeStreams: FREE_MAX_STREAMS,
  };
}

export function useMyLicencesRef(): AnyActorRef {
  return actorOf(useSystem(), SYSTEM_IDS.myLicences);
}

export function useMyLicences(): MyLicencesView {
  return useSelector(useMyLicencesRef(), myLicencesToView, shallowEqual);
}

// ── admin licences ────────────────────────────────────────────────────────────────────────────────────────

export type AdminLicencesSnapshot = SnapshotFrom<typeof adminLicencesMachine>;

export interface AdminLicencesView {
  state: 'loading' | 'failed' | 'ready' | 'granting' | 'confirmingRevoke' | 'revoking';
  granting: 'editing' | 'sending' | null;
  licences: AdminLicencesSnapshot['context']['licences'];
  total: number;
  page: number;
  pages: number;
  search: string;
  error: string | null;
  target: { id: string; email: string; plan: string } | null;
  done: AdminLicencesSnapshot['context']['done'];
  busy: boolean;
}

export function adminLicencesToView(s: AdminLicencesSnapshot): AdminLicencesView {
  const c = s.context;
  const top = (typeof s.value === 'string' ? s.value : Object.keys(s.value)[0]) as AdminLicencesView['state'];
  return {
    state: top,
    granting: s.matches({ granting: 'sending' }) ? 'sending' : s.matches('granting') ? 'editing' : null,
    licences: c.licences,
    total: c.total,
    page: c.page,
    pages: Math.max(1, Math.ceil(c.total / ADMIN_PER_PAGE)),
    search: c.search,
    error: c.error,
    target: c.target ? { id: c.target.id, email: c.target.user_email, plan: c.target.plan_name } : null,
    done: c.done,
    busy: s.hasTag('busy'),
  };
}
