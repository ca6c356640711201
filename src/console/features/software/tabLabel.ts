/**
 * The Software tab's label in the six languages (§2), registered with the feature (index.ts) so the device
 * page can name the tab before the tab's own chunk (with the rest of the texts, i18n.ts) loads.
 */
import { addTexts } from '../../i18n';

export const SOFTWARE_TAB_LABELS = {
  en: { tab: 'Software' },
  ch: { tab: '软件' },
  es: { tab: 'Software' },
  jp: { tab: 'ソフトウェア' },
  de: { tab: 'Software' },
  fr: { tab: 'Logiciel' },
} as const;

addTexts('software', SOFTWARE_TAB_LABELS);
