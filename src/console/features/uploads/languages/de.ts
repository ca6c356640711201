/** The uploads feature's texts (de). */
import type { UploadsTranslation } from './en';

export const de: UploadsTranslation = {
  button: 'Uploads ({{count}})',
  buttonLabel: 'Upload-Fortschritt anzeigen: {{count}} laufen',
  dialogTitle: 'Upload-Fortschritt',
  running: 'Laufende Uploads',
  none: 'Es läuft kein Upload.',
  preparing: '{{name}} wird geprüft',
  percent: '{{percent}} %',
  progressLabel: 'Upload von {{name}}',
  cancel: 'Upload von {{name}} abbrechen',
  results: 'Beendete Uploads',
  succeeded: 'Erfolgreich',
  failedLine: 'Fehlgeschlagen',
  close: 'Schließen',
  toast: {
    uploadedTitle: 'Hochgeladen',
    uploaded: '{{file}} wurde erfolgreich hochgeladen',
    failedTitle: 'Upload fehlgeschlagen',
    failed: '{{file}} konnte nicht hochgeladen werden',
  },
};
