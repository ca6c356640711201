/**
 * Every interface text of the records feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `records` key (addTexts) when the feature's screens load. en is the complete set; §8 texts keep the
 * spec's English wording in en (`texts.*`).
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type RecordsTexts, type RecordsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`records.*`) to the console's i18next, once. */
export function registerRecordsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('records', { en, ch, es, jp, de, fr });
}

registerRecordsTexts();
