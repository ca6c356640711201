/** The uploads feature's texts (fr). */
import type { UploadsTranslation } from './en';

export const fr: UploadsTranslation = {
  button: 'Envois ({{count}})',
  buttonLabel: 'Voir la progression des envois : {{count}} en cours',
  dialogTitle: 'Progression des envois',
  running: 'Envois en cours',
  none: 'Aucun envoi en cours.',
  preparing: 'Vérification de {{name}}',
  percent: '{{percent}} %',
  progressLabel: 'Envoi de {{name}}',
  cancel: "Annuler l'envoi de {{name}}",
  results: 'Envois terminés',
  succeeded: 'Réussi',
  failedLine: 'Échoué',
  close: 'Fermer',
  toast: {
    uploadedTitle: 'Envoyé',
    uploaded: '{{file}} a bien été envoyé',
    failedTitle: "Échec de l'envoi",
    failed: "L'envoi de {{file}} a échoué",
  },
};
