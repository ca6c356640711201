/**
 * Every interface text of the map feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `map` key of i18next's `translation` namespace when the feature's screens load (addTexts). The
 * range texts keep the server's English wording (src/protocol/map.ts MAP_TEXTS) in en. English (languages/en.ts) is
 * the complete set; the type checks that every other language gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type MapTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`map.*`) in the six languages to the console's i18next, once. */
export function registerMapTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('map', { en, ch, es, jp, de, fr });
}

registerMapTexts();
