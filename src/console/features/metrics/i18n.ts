/**
 * Every interface text of the metrics feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `metrics` key of i18next's `translation` namespace when the tab loads (addTexts). Each
 * language is languages/<lang>.ts; English (en.ts) is the complete set, and the type checks that every other
 * gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type MetricsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`metrics.*`) in the six languages to the console's i18next, once. */
export function registerMetricsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('metrics', { en, ch, es, jp, de, fr });
}

registerMetricsTexts();
