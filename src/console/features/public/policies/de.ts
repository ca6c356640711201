/** The five policy pages in German (same sections as en.ts). */
import type { PolicyTranslation } from './en';

export const de: PolicyTranslation = {
  updated: 'Zuletzt geändert: 27. November 2026',
  nav: 'Richtlinien',
  'privacy-policy': {
    title: 'Datenschutzerklärung',
    summary: 'Was diese Konsole über Sie speichert, warum, wie lange, und was Sie verlangen können.',
    sections: [
      {
        heading: 'Verantwortlich',
        paragraphs: [
          'Diese Konsole wird von der Organisation betrieben, die diesen Server betreibt („wir“). Fragen zu Ihren Daten richten Sie über die Kontaktseite an uns; wir antworten innerhalb von 30 Tagen.',
        ],
      },
      {
        heading: 'Was wir speichern',
        paragraphs: [
          'Ihr Konto: E-Mail-Adresse, Benutzername, optional Kurzbeschreibung und Bild, einen gesalzenen argon2id-Hash Ihres Passworts (nie das Passwort selbst), Ihre Rollen und, wenn Sie die Zwei-Faktor-Anmeldung einschalten, was diese braucht (das Authenticator-Geheimnis und Ihre Wiederherstellungscodes, geschützt gespeichert).',
          'Ihre Geräte und deren Einstellungen: Namen, Gerätekennungen, Gruppen, Kartenpositionen, Stream-Limits, Kamera-Layouts, Adressen von IP-Kameras (deren Passwörter verschlüsselt sind und nur an das Gerät gehen, das die Kamera erreicht), Modelle und Anwendungen, die Sie hochladen oder anlegen.',
          'Lizenzen und Zahlungen: Ihre Lizenzen, Bestellungen (Tarif, Betrag, Zeitpunkt) und, wenn Sie es wünschen, Rechnungsadressen und Karten. Von einer Karte behalten wir nur Marke, letzte vier Ziffern und Ablaufdatum; Kartennummer und Prüfnummer werden nie gespeichert. Mit Stripe geben Sie die Karte auf der Seite von Stripe ein; sie erreicht diesen Server nie.',
          'Nachrichten über das Kontaktformular: Name, E-Mail-Adresse, Betreff und Text.',
        ],
      },
      {
        heading: 'Was wir nicht speichern',
        paragraphs: [
          'Live-Video läuft direkt (Peer-to-Peer) von Ihrem Gerät zu Ihrem Browser. Über unsere Server läuft es nur, wenn ein Relay (TURN) nötig ist, Ende-zu-Ende-verschlüsselt, und wir zeichnen es nicht auf. Ihre Aufnahmen bleiben in Ihrem Browser oder auf Ihrem eigenen Gerät.',
        ],
      },
      {
        heading: 'Warum',
        paragraphs: [
          'Um den Dienst zu erbringen, für den Sie sich angemeldet haben (Vertrag), um ihn sicher zu halten (berechtigtes Interesse: Begrenzung von Anmeldeversuchen, Protokoll der Administratoraktionen), um Ihre Käufe abzurechnen und Belege aufzubewahren (gesetzliche Pflicht) und um Ihre Nachrichten zu beantworten.',
        ],
      },
      {
        heading: 'Wie lange',
        paragraphs: [
          'Kontodaten bleiben gespeichert, bis Ihr Konto gelöscht wird. Bestellungen bewahren wir so lange auf, wie das Steuerrecht es verlangt (meist 10 Jahre). Kontaktnachrichten behalten wir, solange wir sie für die Antwort brauchen; auf Wunsch löschen wir Ihre. Anmeldesitzungen laufen nach 30 Tagen ohne Nutzung ab.',
        ],
      },
      {
        heading: 'Wer sie sonst sieht',
        paragraphs: [
          'Niemand außer den für den Betrieb nötigen Auftragsverarbeitern: dem Zahlungsanbieter, wenn Sie bezahlen (Stripe, sofern eingerichtet), dem Mail-Anbieter, der unsere E-Mails zustellt, und Google reCAPTCHA auf dem Registrierungsformular, wenn es eingeschaltet ist. Wir verkaufen keine Daten und nutzen sie nicht für Werbung.',
        ],
      },
      {
        heading: 'Ihre Rechte',
        paragraphs: [
          'Sie können Ihre Daten in Ihrem Profil einsehen und berichtigen und über die Kontaktseite eine Kopie, ihre Berichtigung oder Löschung verlangen oder ihrer Nutzung widersprechen. Sie können sich auch bei Ihrer Datenschutzaufsichtsbehörde beschweren.',
        ],
      },
    ],
  },
  'cookie-policy': {
    title: 'Cookie-Richtlinie',
    summary: 'Diese Konsole verwendet keine Werbe- oder Tracking-Cookies.',
    sections: [
      {
        heading: 'Was die Konsole in Ihrem Browser speichert',
        paragraphs: [
          'Ihre Anmelde-Tokens und Ihre Sprache liegen im lokalen Speicher Ihres Browsers, damit Sie angemeldet bleiben und die Konsole in Ihrer Sprache sehen. Beim Abmelden werden sie entfernt (die Sprache bleibt).',
          'Dateien, die Sie hochladen, liegen bis zum Ende des Uploads in der IndexedDB des Browsers, damit ein Upload nach einem Neuladen weiterlaufen kann.',
        ],
      },
      {
        heading: 'Cookies, die wir setzen',
        paragraphs: [
          'Ein Cookie, nur wenn Sie eine Web-Anwendung auf einem Ihrer Geräte öffnen (zum Beispiel JupyterLab): Es belegt, dass die Seite Ihnen gehört, gilt nur für die Adresse dieser Anwendung, ist für Skripte nicht lesbar (HttpOnly, SameSite=Strict) und läuft nach 8 Stunden ab.',
        ],
      },
      {
        heading: 'Cookies anderer',
        paragraphs: [
          'Die Zahlungsseite von Stripe (wenn Zahlungen über Stripe laufen) und Google reCAPTCHA (wenn auf dem Registrierungsformular eingeschaltet) setzen eigene Cookies auf ihren eigenen Domains, nach ihren eigenen Richtlinien.',
        ],
      },
      {
        heading: 'Ihre Wahl',
        paragraphs: [
          'Da wir nur nutzen, was der Dienst zum Funktionieren braucht, gibt es nichts einzuwilligen. Sie können lokalen Speicher und Cookies jederzeit in Ihrem Browser löschen; Sie werden dann abgemeldet.',
        ],
      },
    ],
  },
  'terms-conditions': {
    title: 'Allgemeine Geschäftsbedingungen',
    summary: 'Die Vereinbarung zwischen Ihnen und uns, wenn Sie diese Konsole nutzen.',
    sections: [
      {
        heading: 'Der Dienst',
        paragraphs: [
          'Mit der Konsole verwalten Sie Ihre Edge-AI-Geräte: Sie sehen sie, verbinden sich mit ihnen, sehen ihre Kameras, betreiben Container und Modelle und installieren die Gerätesoftware. Sie funktioniert nur mit Geräten, die Ihnen gehören oder die Sie betreiben dürfen.',
        ],
      },
      {
        heading: 'Ihr Konto',
        paragraphs: [
          'Halten Sie Ihr Passwort und Ihre Geräte-Tokens geheim; Sie sind für ihre Verwendung verantwortlich. Melden Sie sich sofort, wenn Sie einen Missbrauch Ihres Kontos vermuten. Für ein Konto müssen Sie mindestens 16 Jahre alt sein.',
        ],
      },
      {
        heading: 'Tarife, Lizenzen und Zahlung',
        paragraphs: [
          'Der kostenlose Tarif ist für jedes Gerät enthalten. Bezahlte Lizenzen gelten für ein Gerät oder für Ihr Konto, für den beim Kauf angezeigten Zeitraum, und beginnen mit der Zahlung (oder wenn Ihre laufende Lizenz desselben Tarifs endet). Preise werden an der Kasse vor der Zahlung angezeigt. Lizenzen verlängern sich nicht automatisch.',
          'Endet eine Lizenz, fällt das Gerät auf den kostenlosen Tarif zurück: Es wird nichts gelöscht, aber was die Lizenz hinzugefügt hat, endet. Erstattungen erbitten Sie über die Kontaktseite; Verbraucher in der EU können innerhalb von 14 Tagen vom Kauf zurücktreten.',
        ],
      },
      {
        heading: 'Zulässige Nutzung',
        paragraphs: [
          'Sie müssen die Nutzungsrichtlinien und das Gesetz befolgen, besonders zu Videoüberwachung und personenbezogenen Daten. Wir können ein Konto sperren, das andere oder den Dienst gefährdet, und sagen Ihnen, warum.',
        ],
      },
      {
        heading: 'Verfügbarkeit und Haftung',
        paragraphs: [
          'Wir betreiben den Dienst sorgfältig, können aber nicht versprechen, dass er nie unterbrochen wird. Wir haften für Schäden, die wir vorsätzlich oder grob fahrlässig verursachen; im Übrigen ist unsere Haftung auf den Betrag begrenzt, den Sie uns in den letzten 12 Monaten gezahlt haben.',
        ],
      },
      {
        heading: 'Änderungen und Beendigung',
        paragraphs: [
          'Änderungen dieser Bedingungen teilen wir 30 Tage vor ihrem Inkrafttreten mit; Sie können Ihr Konto vorher schließen. Sie können jederzeit über die Kontaktseite verlangen, dass wir Ihr Konto schließen.',
        ],
      },
    ],
  },
  'user-guidelines': {
    title: 'Nutzungsrichtlinien',
    summary: 'Wie Sie die Konsole sicher und fair nutzen.',
    sections: [
      {
        heading: 'Kameras und Menschen',
        paragraphs: [
          'Schließen Sie nur Kameras an, die Sie nutzen dürfen. Weisen Sie auf Kameras hin, filmen Sie keine privaten Orte und beachten Sie die Regeln Ihres Landes zu Videoüberwachung und Datenschutz. Gesichts- und Kennzeichenerkennung braucht oft eine Rechtsgrundlage und einen Hinweis: Prüfen Sie das vor dem Einschalten.',
        ],
      },
      {
        heading: 'Geräte und Zugang',
        paragraphs: [
          'Installieren Sie die Gerätesoftware nur auf Rechnern, die Sie verwalten. Geben Sie Zugang, indem Sie Konten für Personen anlegen, nicht indem Sie Ihr Passwort teilen. Ersetzen Sie ein Geräte-Token sofort, wenn es bekannt geworden sein könnte; das alte funktioniert dann nicht mehr.',
        ],
      },
      {
        heading: 'Modelle und Container',
        paragraphs: [
          'Laden Sie nur Modelle und Images hoch, die Sie nutzen dürfen, und beachten Sie deren Lizenzen. Betreiben Sie keine Software, die andere Systeme angreift, auf gemeinsamen Ressourcen Kryptowährung schürft oder verbirgt, was sie tut.',
        ],
      },
      {
        heading: 'Faire Nutzung',
        paragraphs: [
          'Stream-Kontingente und Ratenbegrenzungen halten den Dienst für alle schnell: Umgehen Sie sie nicht. Automatisierter Zugriff läuft über API-Schlüssel mit den Berechtigungen, die Sie brauchen.',
        ],
      },
      {
        heading: 'Probleme melden',
        paragraphs: [
          'Melden Sie Sicherheitslücken und Missbrauch über die Kontaktseite. Wir lesen jede Meldung und gehen nicht gegen Sicherheitsforschung in gutem Glauben vor.',
        ],
      },
    ],
  },
  'legal-guidelines': {
    title: 'Rechtliche Hinweise',
    summary: 'Der rechtliche Rahmen des Dienstes und wie Sie uns erreichen.',
    sections: [
      {
        heading: 'Betreiber',
        paragraphs: [
          'Der Betreiber dieses Servers nennt auf Anfrage über die Kontaktseite Namen, Anschrift und Registerangaben; eine selbst gehostete Installation betreibt die Organisation, die sie installiert hat.',
        ],
      },
      {
        heading: 'Anwendbares Recht',
        paragraphs: [
          'Für diese Seiten gilt das Recht des Landes des Betreibers; Verbraucher behalten den Schutz des Rechts ihres eigenen Landes. Für personenbezogene Daten, die wir verarbeiten, gilt die Datenschutz-Grundverordnung der EU.',
        ],
      },
      {
        heading: 'Hinweise und Anfragen',
        paragraphs: [
          'Hinweise auf rechtswidrige Inhalte, Ansprüche aus geistigem Eigentum und Anfragen von Behörden senden Sie über die Kontaktseite mit „Legal“ im Betreff. Wir bestätigen den Eingang und handeln unverzüglich.',
        ],
      },
      {
        heading: 'Streitigkeiten',
        paragraphs: [
          'Bitte wenden Sie sich zuerst an uns; die meisten Probleme lösen sich schnell. Verbraucher in der EU können sich auch an ihre nationalen Verbraucherschlichtungsstellen wenden.',
        ],
      },
      {
        heading: 'Open Source',
        paragraphs: [
          'Die Konsole ist mit Open-Source-Software gebaut; jede Komponente behält ihre eigene Lizenz, die mit dem Quellcode aufgeführt ist.',
        ],
      },
    ],
  },
};
