/**
 * Every interface text of the containers feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `containers` key of i18next's `translation` namespace when the feature's screens load
 * (addTexts, so the shared src/console/i18n files do not grow). §8 texts keep their English wording in en
 * (`texts.*`, the contract's CONTAINER_TEXTS). Each language is languages/<lang>.ts; English (en.ts) is the
 * complete set, and the type checks that every other gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type ContainersTexts, type ContainersTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`containers.*`) in the six languages to the console's i18next, once. */
export function registerContainersTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('containers', { en, ch, es, jp, de, fr });
}

registerContainersTexts();
