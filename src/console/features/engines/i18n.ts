/**
 * Every interface text of the engines feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `engines` key when the feature's screen loads. §5's text keeps the spec's English wording in en.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type EnginesTexts, type EnginesTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`engines.*`) to the console's i18next, once. */
export function registerEnginesTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('engines', { en, ch, es, jp, de, fr });
}

registerEnginesTexts();
