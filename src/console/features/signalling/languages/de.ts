/** The connectivity notice's texts in German (§2 language 'de'). */
import type { ConnectivityTranslation } from './en';

export const de: ConnectivityTranslation = {
  offline: 'Sie sind offline. Die Konsole verbindet sich von selbst neu, sobald das Netzwerk zurück ist.',
  reconnecting: 'Verbindung zum Server verloren. Neu verbinden…',
  unreachable: 'Der Server ist weiterhin nicht erreichbar. Die Konsole versucht es weiter.',
  retry: 'Jetzt versuchen',
};
