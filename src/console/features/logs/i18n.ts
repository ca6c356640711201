/**
 * Every interface text of the logs feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `logs` key of i18next's `translation` namespace when the feature's screens load (addTexts). §8
 * texts keep their English wording in en (`texts.*`, the contract's LOG_TEXTS). English (languages/en.ts) is
 * the complete set; the type checks that every other language gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type LogsTexts, type LogsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`logs.*`) in the six languages to the console's i18next, once. */
export function registerLogsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('logs', { en, ch, es, jp, de, fr });
}

registerLogsTexts();
