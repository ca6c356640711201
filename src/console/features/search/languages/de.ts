/** Quick search's texts in German (§2 language 'de'); English is in en.ts. */
import type { SearchTranslation } from './en';

export const de: SearchTranslation = {
  label: 'Geräte und Kameras suchen',
  placeholder: 'Suchen…',
  hint: 'Mindestens 2 Zeichen',
  none: 'Nichts passt zu „{{text}}“.',
  device: 'Gerät',
  camera: 'Kamera',
  ipCamera: 'IP-Kamera',
  group: 'Gruppe',
  searching: 'Suche läuft…',
};
