/**
 * Every interface text of the demo apps, in the six languages of §2 (en, ch, es, jp, de, fr), registered under
 * the `demoApps` key (addTexts) when the feature's screens load. en is the complete set.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

let registered = false;

export function registerDemoAppsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('demoApps', { en, ch, es, jp, de, fr });
}

registerDemoAppsTexts();
