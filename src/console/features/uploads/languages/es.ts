/** The uploads feature's texts (es). */
import type { UploadsTranslation } from './en';

export const es: UploadsTranslation = {
  button: 'Subidas ({{count}})',
  buttonLabel: 'Ver el progreso de las subidas: {{count}} en curso',
  dialogTitle: 'Progreso de las subidas',
  running: 'Subidas en curso',
  none: 'No hay ninguna subida en curso.',
  preparing: 'Comprobando {{name}}',
  percent: '{{percent}} %',
  progressLabel: 'Subida de {{name}}',
  cancel: 'Cancelar la subida de {{name}}',
  results: 'Subidas terminadas',
  succeeded: 'Correcta',
  failedLine: 'Fallida',
  close: 'Cerrar',
  toast: {
    uploadedTitle: 'Subido',
    uploaded: '{{file}} se ha subido correctamente',
    failedTitle: 'Error al subir',
    failed: 'No se pudo subir {{file}}',
  },
};
