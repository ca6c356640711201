/**
 * Every interface text of the remote desktop feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `remoteDesktop` key when the feature's screens load (addTexts). English
 * (languages/en.ts) is the complete set; the type checks that every other language gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

let registered = false;

/** Adds the feature's texts (`remoteDesktop.*`) in the six languages to the console's i18next, once. */
export function registerRemoteDesktopTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('remoteDesktop', { en, ch, es, jp, de, fr });
}

registerRemoteDesktopTexts();
