/** Quick search's texts in French (§2 language 'fr'); English is in en.ts. */
import type { SearchTranslation } from './en';

export const fr: SearchTranslation = {
  label: 'Rechercher des appareils et des caméras',
  placeholder: 'Rechercher…',
  hint: 'Au moins 2 caractères',
  none: 'Aucun résultat pour « {{text}} ».',
  device: 'Appareil',
  camera: 'Caméra',
  ipCamera: 'Caméra IP',
  group: 'Groupe',
  searching: 'Recherche…',
};
