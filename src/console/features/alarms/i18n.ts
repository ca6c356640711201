/**
 * Every interface text of the alarms feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `alarms` key (addTexts) when the feature's screens load. en is the complete set.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type AlarmsTexts, type AlarmsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`alarms.*`) to the console's i18next, once. */
export function registerAlarmsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('alarms', { en, ch, es, jp, de, fr });
}

registerAlarmsTexts();
