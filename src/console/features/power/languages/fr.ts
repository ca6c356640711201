/** The power feature's texts in French (§2 'fr'). */
import type { PowerTranslation } from './en';

export const fr: PowerTranslation = {
  tab: 'Alimentation',
  title: 'Alimentation',
  intro:
    'Redémarrer ou éteindre {{device}}, ou redémarrer son client. Le redémarrage et l’arrêt demandent les droits sudo sur l’appareil.',
  notConnected: 'Connectez l’appareil pour utiliser ses actions d’alimentation.',
  actions: {
    reboot: 'Redémarrer',
    shutdown: 'Éteindre',
    forceShutdown: 'Forcer l’arrêt',
    restartClient: 'Redémarrer le client',
  },
  confirmTitle: {
    reboot: 'Redémarrer l’appareil ?',
    shutdown: 'Éteindre l’appareil ?',
    forceShutdown: 'Forcer l’arrêt de l’appareil ?',
    restartClient: 'Redémarrer le client ?',
  },
  confirmText: {
    reboot: '{{device}} redémarre et reste hors ligne un moment.',
    shutdown: '{{device}} s’éteint et le reste jusqu’à ce qu’il soit rallumé.',
    forceShutdown:
      '{{device}} est coupé tout de suite, sans fermer ses programmes, et le reste jusqu’à ce qu’il soit rallumé.',
    restartClient: 'Le client de {{device}} redémarre 10 s après votre confirmation.',
  },
  confirm: 'Confirmer',
  cancel: 'Annuler',
  sudo: {
    title: 'Mot de passe sudo',
    intro: 'Saisissez le mot de passe sudo de {{device}}.',
    password: 'Mot de passe',
    save: 'Enregistrer le mot de passe sur l’appareil (chiffré)',
    submit: 'Continuer',
  },
  steps: {
    confirming: 'En attente de confirmation…',
    restartDelay: 'Le client redémarre dans 10 s…',
    checking: 'Vérification de sudo…',
    askingSudo: 'En attente du mot de passe sudo…',
    sending: 'Envoi…',
    waitingOffline: 'En attente de la déconnexion de l’appareil…',
    waitingOnline: 'Hors ligne : en attente du retour de l’appareil…',
    waitingPoweredOn: 'Éteint : en attente de sa remise sous tension…',
    done: 'Terminé : l’appareil est de nouveau en ligne.',
    failed: 'Échec : {{error}}',
    cancelled: 'Annulé.',
  },
  dismiss: 'Fermer',
  saved: {
    label: 'Mot de passe sudo enregistré',
    yes: 'Oui',
    no: 'Non',
    notNeeded: 'Inutile (le client tourne en root)',
    unknown: 'Lecture…',
    remove: 'Supprimer',
    removeLabel: 'Supprimer le mot de passe sudo enregistré',
    failed: 'Lecture impossible : {{error}}',
  },
  texts: {
    emptyPassword: 'Le champ du mot de passe ne peut pas être vide',
    invalidPassword: 'Mot de passe invalide.',
    sudoRequired: 'Les privilèges sudo sont requis',
    forceFailed: 'Impossible de forcer l’arrêt de l’appareil',
    success: 'Succès',
    mayTakeMinutes: 'L’appareil peut prendre quelques minutes.',
    shutdownSuccessful: 'Arrêt réussi',
  },
  flow: {
    backOnline: 'L’appareil est de nouveau en ligne',
    notOffline: 'L’appareil ne s’est pas déconnecté',
    notBack: 'L’appareil n’est pas revenu en ligne',
    failed: 'L’action d’alimentation a échoué',
  },
};
