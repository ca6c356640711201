/** The remote desktop feature's texts in German (§2 language 'de'); English is in en.ts. */
import type { RemoteDesktopTranslation } from './en';

export const de: RemoteDesktopTranslation = {
  tab: 'Remote-Desktop',
  title: 'Remote-Desktop',
  intro: 'Sehen Sie den Bildschirm von {{device}} und steuern Sie ihn mit Maus und Tastatur.',
  open: 'Remote-Desktop öffnen',
  notConnected: 'Verbinden Sie zuerst das Gerät: Der Remote-Desktop läuft über seine Verbindung.',
  dialogTitle: 'Remote-Desktop: {{device}}',
  screenLabel:
    'Entfernter Bildschirm von {{device}}. Klicken Sie, um ihn zu steuern; Tasten gehen an das Gerät, solange er den Fokus hat. Escape gibt die Tastatur frei.',
  connecting: 'Verbindung zum Desktop wird hergestellt…',
  failed: 'Der Remote-Desktop wurde beendet: {{error}}',
  retry: 'Erneut versuchen',
  close: 'Schließen',
  fullScreen: 'Vollbild',
  exitFullScreen: 'Vollbild verlassen',
  keyboardCaptured: 'Die Tastatur steuert das Gerät. Escape gibt sie frei.',
  keyboardReleased: 'Klicken Sie auf den Bildschirm, um ihn zu steuern.',
  windows: 'Offene Fenster',
  noWindows: 'Keine Fenster geöffnet.',
  closeWindow: 'Fenster {{title}} schließen',
  focused: 'aktiv',
  untitled: '(ohne Titel)',
  stats: 'Bildrate {{fps}} fps · Auflösung {{resolution}} · Umlaufzeit {{rtt}} ms',
  backend: { x11: 'Bildschirm des Geräts (X11)', sim: 'Simulierter Desktop' },
  inputFailed: 'Eingabe nicht zugestellt: {{error}}',
  windowsFailed: 'Fensterliste: {{error}}',
};
