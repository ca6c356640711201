/** The remote desktop feature's texts in French (§2 language 'fr'); English is in en.ts. */
import type { RemoteDesktopTranslation } from './en';

export const fr: RemoteDesktopTranslation = {
  tab: 'Bureau à distance',
  title: 'Bureau à distance',
  intro: "Voyez l'écran de {{device}} et contrôlez-le avec la souris et le clavier.",
  open: 'Ouvrir le bureau à distance',
  notConnected: "Connectez d'abord l'appareil : le bureau à distance passe par sa liaison.",
  dialogTitle: 'Bureau à distance : {{device}}',
  screenLabel:
    "Écran distant de {{device}}. Cliquez pour le contrôler ; les touches vont à l'appareil tant qu'il a le focus. Échap libère le clavier.",
  connecting: 'Connexion au bureau…',
  failed: "Le bureau à distance s'est arrêté : {{error}}",
  retry: 'Réessayer',
  close: 'Fermer',
  fullScreen: 'Plein écran',
  exitFullScreen: 'Quitter le plein écran',
  keyboardCaptured: "Le clavier contrôle l'appareil. Appuyez sur Échap pour le libérer.",
  keyboardReleased: "Cliquez sur l'écran pour le contrôler.",
  windows: 'Fenêtres ouvertes',
  noWindows: 'Aucune fenêtre ouverte.',
  closeWindow: 'Fermer la fenêtre {{title}}',
  focused: 'active',
  untitled: '(sans titre)',
  stats: "Fréquence d'images {{fps}} i/s · Résolution {{resolution}} · Aller-retour {{rtt}} ms",
  backend: { x11: "Écran de l'appareil (X11)", sim: 'Bureau simulé' },
  inputFailed: 'Saisie non transmise : {{error}}',
  windowsFailed: 'Liste des fenêtres : {{error}}',
};
