/**
 * The plan catalogue (spec §2 /pricing; issue 13 "Licences per device or feature with expiry"). Prices are
 * integer cents in EUR. The free tier is what every device has without a licence (today's default quota,
 * FREE_MAX_STREAMS); it is listed first and never sold.
 *   device-pro-monthly  per device, 30 days:  32 concurrent streams on that device
 *   device-pro-annual   per device, 365 days: 32 concurrent streams on that device
 *   priority-support    per account, 365 days: contact messages flagged as priority (answered first)
 */
import { FREE_MAX_STREAMS, type Plan } from '../../protocol/billing';

/** Streams a Device Pro licence allows on its device. */
export const PRO_MAX_STREAMS = 32;

export const PLANS: readonly Plan[] = [
  {
    id: 'free',
    name: 'Free',
    description: `Every device, no licence needed: ${FREE_MAX_STREAMS} concurrent streams per device.`,
    scope: 'free',
    price_cents: 0,
    currency: 'EUR',
    period_days: 0,
    max_streams: FREE_MAX_STREAMS,
    features: [],
  },
  {
    id: 'device-pro-monthly',
    name: 'Device Pro (monthly)',
    description: `One device: ${PRO_MAX_STREAMS} concurrent streams for 30 days.`,
    scope: 'device',
    price_cents: 1900,
    currency: 'EUR',
    period_days: 30,
    max_streams: PRO_MAX_STREAMS,
    features: [],
  },
  {
    id: 'device-pro-annual',
    name: 'Device Pro (annual)',
    description: `One device: ${PRO_MAX_STREAMS} concurrent streams for 365 days (two months free).`,
    scope: 'device',
    price_cents: 19000,
    currency: 'EUR',
    period_days: 365,
    max_streams: PRO_MAX_STREAMS,
    features: [],
  },
  {
    id: 'priority-support',
    name: 'Priority support',
    description: 'Your whole account for 365 days: your contact messages are flagged and answered first.',
    scope: 'feature',
    price_cents: 9900,
    currency: 'EUR',
    period_days: 365,
    max_streams: null,
    features: ['priority-support'],
  },
];

/** The plan with this id, or undefined. */
export const planById = (id: string): Plan | undefined => PLANS.find((p) => p.id === id);

/** A plan's display name (the id when the catalogue no longer has it). */
export const planName = (id: string): string => planById(id)?.name ?? id;
