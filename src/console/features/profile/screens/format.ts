/** Date and size formatting of the profile screens, in the interface language. */
import { useTranslation } from 'react-i18next';
export { formatBytes } from '../../repositories/selectors';

const locale = (lang: string) => (lang === 'ch' ? 'zh' : lang === 'jp' ? 'ja' : lang);

/** Formats ISO times as date + time, and UTC days as dates, in the interface language. */
export function useFormats() {
  const { i18n } = useTranslation();
  const lang = locale(i18n.language);
  const dateTime = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' });
  const day = new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeZone: 'UTC' });
  return {
    dateTime: (iso: string) => dateTime.format(new Date(iso)),
    day: (d: string) => day.format(new Date(`${d}T00:00:00Z`)),
  };
}
