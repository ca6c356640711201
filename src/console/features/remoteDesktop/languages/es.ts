/** The remote desktop feature's texts in Spanish (§2 language 'es'); English is in en.ts. */
import type { RemoteDesktopTranslation } from './en';

export const es: RemoteDesktopTranslation = {
  tab: 'Escritorio remoto',
  title: 'Escritorio remoto',
  intro: 'Vea la pantalla de {{device}} y contrólela con el ratón y el teclado.',
  open: 'Abrir escritorio remoto',
  notConnected: 'Conecte primero el dispositivo: el escritorio remoto funciona a través de su enlace.',
  dialogTitle: 'Escritorio remoto: {{device}}',
  screenLabel:
    'Pantalla remota de {{device}}. Haga clic para controlarla; las teclas van al dispositivo mientras tenga el foco. Escape libera el teclado.',
  connecting: 'Conectando con el escritorio…',
  failed: 'El escritorio remoto se detuvo: {{error}}',
  retry: 'Reintentar',
  close: 'Cerrar',
  fullScreen: 'Pantalla completa',
  exitFullScreen: 'Salir de pantalla completa',
  keyboardCaptured: 'El teclado controla el dispositivo. Pulse Escape para liberarlo.',
  keyboardReleased: 'Haga clic en la pantalla para controlarla.',
  windows: 'Ventanas abiertas',
  noWindows: 'No hay ventanas abiertas.',
  closeWindow: 'Cerrar la ventana {{title}}',
  focused: 'activa',
  untitled: '(sin título)',
  stats: 'Fotogramas {{fps}} fps · Resolución {{resolution}} · Ida y vuelta {{rtt}} ms',
  backend: { x11: 'Pantalla del dispositivo (X11)', sim: 'Escritorio simulado' },
  inputFailed: 'Entrada no entregada: {{error}}',
  windowsFailed: 'Lista de ventanas: {{error}}',
};
