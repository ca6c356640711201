/**
 * Every interface text of the schedulers feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `schedulers` key (addTexts) when the feature's screens load. en is the complete set.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type SchedulersTexts, type SchedulersTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`schedulers.*`) to the console's i18next, once. */
export function registerSchedulersTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('schedulers', { en, ch, es, jp, de, fr });
}

registerSchedulersTexts();
