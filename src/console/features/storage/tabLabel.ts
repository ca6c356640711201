/**
 * The Storage tab's label in the six languages (§2), registered with the feature (index.ts) so the device
 * page can name the tab before the tab's own chunk (with the rest of the texts, i18n.ts) loads.
 */
import { addTexts } from '../../i18n';

export const STORAGE_TAB_LABELS = {
  en: { tab: 'Storage' },
  ch: { tab: '存储' },
  es: { tab: 'Almacenamiento' },
  jp: { tab: 'ストレージ' },
  de: { tab: 'Speicher' },
  fr: { tab: 'Stockage' },
} as const;

addTexts('storage', STORAGE_TAB_LABELS);
