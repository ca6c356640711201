/**
 * Every interface text of the download feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `download` key (addTexts) when the feature's screens load. en is the complete set.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type DownloadTexts, type DownloadTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`download.*`) to the console's i18next, once. */
export function registerDownloadTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('download', { en, ch, es, jp, de, fr });
}

registerDownloadTexts();
