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

/** BCP 47 tag for <html lang> (the spec's codes 'ch' and 'jp' are not BCP 47). */
export function htmlLang(language: Language): string {
  return language === 'ch' ? 'zh' : language === 'jp' ? 'ja' : language;
}

/** The BCP 47 locale for dates and numbers in an i18next language (anything unsupported: the default's). */
export const localeOf = (language: string): string => htmlLang(resolveLanguage(language));
