/** The connectivity notice's texts in Spanish (§2 language 'es'). */
import type { ConnectivityTranslation } from './en';

export const es: ConnectivityTranslation = {
  offline: 'Estás sin conexión. La consola se reconectará sola cuando vuelva la red.',
  reconnecting: 'Se perdió la conexión con el servidor. Reconectando…',
  unreachable: 'El servidor sigue sin responder. La consola sigue intentándolo.',
  retry: 'Intentar ahora',
};
