/**
 * Pieces the licence screens share: a licence's state badge, what it grants, what it is for, and its period.
 */
import { useTranslation } from 'react-i18next';
import type { Licence } from '../../../../protocol/billing';
import { formatDay } from '../selectors';
import { usePlanText } from './PricingScreen';

export function StateBadge({ state }: { state: Licence['state'] }) {
  const { t } = useTranslation();
  return (
    <span className={`billing-state billing-state--${state}`}>{t(`billing.licences.states.${state}`)}</span>
  );
}

/** What the licence grants: its streams, its features. */
export function grantsText(l: Licence, t: (key: string, o?: Record<string, unknown>) => string): string {
  return [
    ...(l.max_streams !== null ? [t('billing.licences.grantsStreams', { count: l.max_streams })] : []),
    ...l.features.map((f) => t(`billing.features.${f}`)),
  ].join('; ');
}

/** What the licence is for: its device (label and id; a deleted device by id) or the whole account. */
export function forText(l: Licence, t: (key: string, o?: Record<string, unknown>) => string): string {
  if (l.scope === 'feature') return t('billing.licences.account');
  if (l.device_label) return `${l.device_label} (${l.device_id})`;
  return t('billing.licences.deviceGone', { id: l.device_id ?? '?' });
}

export const periodText = (l: Licence, locale: string) =>
  `${formatDay(l.starts_at, locale)} – ${formatDay(l.expires_at, locale)}`;

/** The plan's name in the interface language. */
export function usePlanName() {
  const planText = usePlanText();
  return (l: Pick<Licence, 'plan_id' | 'plan_name'>) =>
    planText({ id: l.plan_id, name: l.plan_name, description: '' }).name;
}
