/**
 * Every interface text of the faces feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `faces` key (addTexts) when the feature's screens load. en is the complete set.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type FacesTexts, type FacesTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`faces.*`) to the console's i18next, once. */
export function registerFacesTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('faces', { en, ch, es, jp, de, fr });
}

registerFacesTexts();
