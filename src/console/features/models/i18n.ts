/**
 * Every interface text of the models feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `models` key (addTexts) when the feature's screens load. en is the complete set; §8 texts keep the
 * spec's English wording in en (`texts.*`).
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type ModelsTexts, type ModelsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`models.*`) to the console's i18next, once. */
export function registerModelsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('models', { en, ch, es, jp, de, fr });
}

registerModelsTexts();
