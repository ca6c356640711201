/** The connectivity notice's texts in the six languages of §2, registered under `connectivity` (addTexts). */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';

addTexts('connectivity', { en, ch, es, jp, de, fr });
