/**
 * Every interface text of the use cases feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `useCases` key (addTexts) when the feature's screens load. en is the complete set.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type UseCasesTexts, type UseCasesTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`useCases.*`) to the console's i18next, once. */
export function registerUseCasesTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('useCases', { en, ch, es, jp, de, fr });
}

registerUseCasesTexts();
