/**
 * Every interface text of the public pages, in the six languages of §2 (en, ch, es, jp, de, fr), registered
 * under `public` (contact form, page links) and `policies` (the five policy pages) when a screen loads.
 */
import { addTexts } from '../../i18n';
import { ch } from './languages/ch';
import { de } from './languages/de';
import { en } from './languages/en';
import { es } from './languages/es';
import { fr } from './languages/fr';
import { jp } from './languages/jp';
import { ch as pch } from './policies/ch';
import { de as pde } from './policies/de';
import { en as pen } from './policies/en';
import { es as pes } from './policies/es';
import { fr as pfr } from './policies/fr';
import { jp as pjp } from './policies/jp';

let registered = false;

/** Adds the texts (`public.*`, `policies.*`) to the console's i18next, once. */
export function registerPublicTexts(): void {
  if (registered) return;
  registered = true;
  addTexts('public', { en, ch, es, jp, de, fr });
  addTexts('policies', { en: pen, ch: pch, es: pes, jp: pjp, de: pde, fr: pfr });
}

registerPublicTexts();
