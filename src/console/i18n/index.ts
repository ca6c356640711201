/**
 * i18next set-up (react-i18next). The language is read from localStorage key STORAGE_KEYS.language
 * (§2, §3 stored settings), default 'en'; `setLanguage` stores a new choice.
 */
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { LANGUAGES, STORAGE_KEYS, type Language } from '../../protocol/constants';
import { en } from './en';
import { ch } from './ch';
import { de } from './de';
import { es } from './es';
import { fr } from './fr';
import { jp } from './jp';
import { htmlLang, resolveLanguage } from './language';
import * as titles from '../routes/titles';

function readStoredLanguage(): string | null {
  try {
    return globalThis.localStorage?.getItem(STORAGE_KEYS.language) ?? null;
  } catch {
    return null; // storage disabled (private mode): use the default
  }
}

const initial = resolveLanguage(readStoredLanguage());
if (typeof document !== 'undefined') document.documentElement.lang = htmlLang(initial);

void i18n.use(initReactI18next).init({
  resources: {
    en: { translation: { ...en, routeTitles: titles.en } },
    ch: { translation: { ...ch, routeTitles: titles.ch } },
    es: { translation: { ...es, routeTitles: titles.es } },
    jp: { translation: { ...jp, routeTitles: titles.jp } },
    de: { translation: { ...de, routeTitles: titles.de } },
    fr: { translation: { ...fr, routeTitles: titles.fr } },
  },
  lng: initial,
  supportedLngs: [...LANGUAGES],
  fallbackLng: 'en',
  interpolation: { escapeValue: false }, // React escapes
  showSupportNotice: false,
});

/** Switches the interface language and remembers it in localStorage. */
export function setLanguage(language: Language): void {
  try {
    globalThis.localStorage?.setItem(STORAGE_KEYS.language, language);
  } catch {
    // storage disabled: the choice lasts for this page only
  }
  void i18n.changeLanguage(language);
  document.documentElement.lang = htmlLang(language);
}

/**
 * Adds a feature's texts under `key` (namespace 'translation') in each given language — for features whose
 * screens load lazily and carry their own texts in all six languages (§2). Before i18next is initialised, they
 * are added as soon as it is. Imported from here (not from 'i18next') so a feature's chunk reuses the
 * console's i18next instead of splitting it out of the first chunk.
 */
export function addTexts(key: string, texts: Partial<Record<Language, object>>): void {
  const add = () => {
    for (const [lang, resource] of Object.entries(texts)) {
      i18n.addResourceBundle(lang, 'translation', { [key]: resource }, true, true);
    }
  };
  if (i18n.isInitialized) add();
  else i18n.on('initialized', add);
}

export default i18n;
