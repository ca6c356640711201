/** The connectivity notice's texts in French (§2 language 'fr'). */
import type { ConnectivityTranslation } from './en';

export const fr: ConnectivityTranslation = {
  offline: 'Vous êtes hors ligne. La console se reconnecte d’elle-même dès que le réseau revient.',
  reconnecting: 'Connexion au serveur perdue. Reconnexion…',
  unreachable: 'Le serveur est toujours injoignable. La console continue d’essayer.',
  retry: 'Réessayer maintenant',
};
