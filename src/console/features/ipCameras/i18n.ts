/**
 * Every interface text of the ipCameras feature, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under the `ipCameras` key (addTexts). English (languages/en.ts) is the complete set; the type checks the others.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

let registered = false;

/** Adds the feature's texts (`ipCameras.*`) in the six languages to the console's i18next, once. */
export function registerIpCamerasTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('ipCameras', { en, ch, es, jp, de, fr });
}

registerIpCamerasTexts();
