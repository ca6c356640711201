/**
 * Every interface text of the uploads feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `uploads` key (addTexts) when the upload notification loads. en is the complete set; §2 and §8 texts
 * keep the spec's English wording in en ("Upload Progresses", the upload toasts).
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type UploadsTexts, type UploadsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`uploads.*`) to the console's i18next, once. */
export function registerUploadsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('uploads', { en, ch, es, jp, de, fr });
}

registerUploadsTexts();
