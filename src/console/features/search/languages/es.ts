/** Quick search's texts in Spanish (§2 language 'es'); English is in en.ts. */
import type { SearchTranslation } from './en';

export const es: SearchTranslation = {
  label: 'Buscar dispositivos y cámaras',
  placeholder: 'Buscar…',
  hint: 'Al menos 2 caracteres',
  none: 'Nada coincide con «{{text}}».',
  device: 'Dispositivo',
  camera: 'Cámara',
  ipCamera: 'Cámara IP',
  group: 'Grupo',
  searching: 'Buscando…',
};
