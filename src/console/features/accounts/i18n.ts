/**
 * Every interface text of the accounts feature's issue-13 screens (register, mail confirmation, password reset,
 * two-factor sign-in and enrolment, the development mailbox) in the six languages of §2, under the `accounts`
 * key (addTexts), registered when those screens load. The login form's own texts stay in the shell's
 * i18n (the first page must stay small).
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

export { en, type AccountsTexts, type AccountsTranslation } from './languages/en';

let registered = false;

/** Adds the feature's texts (`accounts.*`) to the console's i18next, once. */
export function registerAccountsTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('accounts', { en, ch, es, jp, de, fr });
}

registerAccountsTexts();
