/** The power feature's texts in German (§2 'de'). */
import type { PowerTranslation } from './en';

export const de: PowerTranslation = {
  tab: 'Energie',
  title: 'Energie',
  intro:
    '{{device}} neu starten oder herunterfahren, oder seinen Client neu starten. Neustart und Herunterfahren brauchen sudo-Rechte auf dem Gerät.',
  notConnected: 'Verbinden Sie das Gerät, um seine Energie-Aktionen zu nutzen.',
  actions: {
    reboot: 'Neu starten',
    shutdown: 'Herunterfahren',
    forceShutdown: 'Erzwungen ausschalten',
    restartClient: 'Client neu starten',
  },
  confirmTitle: {
    reboot: 'Gerät neu starten?',
    shutdown: 'Gerät herunterfahren?',
    forceShutdown: 'Gerät erzwungen ausschalten?',
    restartClient: 'Client neu starten?',
  },
  confirmText: {
    reboot: '{{device}} startet neu und ist eine Weile offline.',
    shutdown: '{{device}} fährt herunter und bleibt aus, bis es wieder eingeschaltet wird.',
    forceShutdown:
      '{{device}} wird sofort ausgeschaltet, ohne seine Programme zu beenden, und bleibt aus, bis es wieder eingeschaltet wird.',
    restartClient: 'Der Client auf {{device}} startet 10 s nach der Bestätigung neu.',
  },
  confirm: 'Bestätigen',
  cancel: 'Abbrechen',
  sudo: {
    title: 'sudo-Passwort',
    intro: 'Geben Sie das sudo-Passwort von {{device}} ein.',
    password: 'Passwort',
    save: 'Passwort auf dem Gerät speichern (verschlüsselt)',
    submit: 'Weiter',
  },
  steps: {
    confirming: 'Warte auf Bestätigung…',
    restartDelay: 'Der Client startet in 10 s neu…',
    checking: 'sudo wird geprüft…',
    askingSudo: 'Warte auf das sudo-Passwort…',
    sending: 'Wird gesendet…',
    waitingOffline: 'Warte, bis das Gerät offline geht…',
    waitingOnline: 'Offline: warte, bis das Gerät wieder online ist…',
    waitingPoweredOn: 'Heruntergefahren: warte, bis es wieder eingeschaltet wird…',
    done: 'Fertig: das Gerät ist wieder online.',
    failed: 'Fehlgeschlagen: {{error}}',
    cancelled: 'Abgebrochen.',
  },
  dismiss: 'Schließen',
  saved: {
    label: 'Gespeichertes sudo-Passwort',
    yes: 'Ja',
    no: 'Nein',
    notNeeded: 'Nicht nötig (der Client läuft als root)',
    unknown: 'Wird gelesen…',
    remove: 'Entfernen',
    removeLabel: 'Gespeichertes sudo-Passwort entfernen',
    failed: 'Konnte nicht gelesen werden: {{error}}',
  },
  texts: {
    emptyPassword: 'Das Passwortfeld darf nicht leer sein',
    invalidPassword: 'Ungültiges Passwort.',
    sudoRequired: 'sudo-Rechte sind erforderlich',
    forceFailed: 'Das Gerät konnte nicht erzwungen ausgeschaltet werden',
    success: 'Erfolg',
    mayTakeMinutes: 'Das Gerät kann einige Minuten brauchen.',
    shutdownSuccessful: 'Erfolgreich heruntergefahren',
  },
  flow: {
    backOnline: 'Das Gerät ist wieder online',
    notOffline: 'Das Gerät ist nicht offline gegangen',
    notBack: 'Das Gerät ist nicht wieder online gekommen',
    failed: 'Die Energie-Aktion ist fehlgeschlagen',
  },
};
