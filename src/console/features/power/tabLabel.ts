/**
 * The Power tab's label in the six languages (§2), registered with the feature (index.ts) so the device page
 * can name the tab before the tab's own chunk (with the rest of the texts, i18n.ts) loads.
 */
import { addTexts } from '../../i18n';

export const POWER_TAB_LABELS = {
  en: { tab: 'Power' },
  ch: { tab: '电源' },
  es: { tab: 'Energía' },
  jp: { tab: '電源' },
  de: { tab: 'Energie' },
  fr: { tab: 'Alimentation' },
} as const;

addTexts('power', POWER_TAB_LABELS);
