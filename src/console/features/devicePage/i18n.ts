/**
 * The device page's interface texts in the six languages of §2 (en, ch, es, jp, de, fr), registered under the
 * `devicePage` key when its screens load (addTexts). English (languages/en.ts) is the complete set; the type
 * checks that every other language gives every key.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

addTexts('devicePage', { en, ch, es, jp, de, fr });
