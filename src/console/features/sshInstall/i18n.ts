/**
 * Every interface text of the SSH install feature, in the six languages of §2 (en, ch, es, jp, de, fr),
 * registered under the `sshInstall` key of i18next's `translation` namespace when the feature's slot or
 * screen loads. English (languages/en.ts) is the complete set; the type checks every other gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type SshInstallTexts, type SshInstallTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`sshInstall.*`) in the six languages to the console's i18next, once. */
export function registerSshInstallTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('sshInstall', { en, ch, es, jp, de, fr });
}

registerSshInstallTexts();
