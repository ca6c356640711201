/**
 * Interface language choice (§2: "Interface language comes from local storage, default en; supported: en,
 * ch, es, jp, de, fr"). Pure helpers; i18n/index.ts wires them to i18next and localStorage.
 */
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '../../protocol/constants';

/** Native names for the language picker. */
export const LANGUAGE_NAMES: Record<Language, string> = {
  en: 'English',
  ch: '中文',
  es: 'Español',
  jp: '日本語',
  de: 'Deutsch',
  fr: 'Français',
};

/** The language to use for a stored value: a supported code, else the default 'en'. */
export function resolveLanguage(stored: string | null | undefined): Language {
  return (LANGUAGES as readonly string[]).includes(stored ?? '') ? (stored as Language) : DEFAULT_LANGUAGE;
}
