/**
 * Server answers the console words itself, in the interface language (§2), instead of the server's English
 * `message`: 503 Database_unavailable (issue 15, src/server/db/availability.ts). Read by the REST transport
 * (./http.ts `toError`); the language is the stored choice (§2, i18n/index.ts `setLanguage` stores it), so this
 * module needs no i18next and stays in the first chunk cheaply.
 */
import { STORAGE_KEYS, type Language } from '../../protocol/constants';
import { resolveLanguage } from '../i18n/language';

/** 503 Database_unavailable, in each language. */
const DATABASE_UNAVAILABLE: Record<Language, string> = {
  en: 'The database is unavailable right now. Please try again in a few seconds.',
  ch: '数据库暂时不可用。请过几秒钟再试。',
  es: 'La base de datos no está disponible en este momento. Vuelva a intentarlo en unos segundos.',
  jp: 'データベースは現在利用できません。数秒後にもう一度お試しください。',
  de: 'Die Datenbank ist gerade nicht erreichbar. Bitte versuchen Sie es in ein paar Sekunden erneut.',
  fr: 'La base de données est indisponible pour le moment. Réessayez dans quelques secondes.',
};

/** Texts by error code. */
const BY_CODE: Record<string, Record<Language, string>> = {
  Database_unavailable: DATABASE_UNAVAILABLE,
};

function storedLanguage(): Language {
  try {
    return resolveLanguage(globalThis.localStorage?.getItem(STORAGE_KEYS.language) ?? null);
  } catch {
    return resolveLanguage(null);
  }
}

/** The console's own text for error `code` in `language` (default: the stored one), or null to show the server's. */
export function serverErrorText(code: string, language: Language = storedLanguage()): string | null {
  return BY_CODE[code]?.[language] ?? null;
}
