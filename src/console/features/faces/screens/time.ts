/** Date and time in the interface language (§2 languages: ch → zh, jp → ja for Intl). */
import { useTranslation } from 'react-i18next';

export function useTimeFormat(): (iso: string) => string {
  const { i18n } = useTranslation();
  const lang = i18n.language === 'ch' ? 'zh' : i18n.language === 'jp' ? 'ja' : i18n.language;
  const fmt = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'medium' });
  return (iso: string) => fmt.format(new Date(iso));
}
