/** The public pages' texts (de). */
import type { PublicTranslation } from './en';

export const de: PublicTranslation = {
  contact: {
    title: 'Kontakt',
    intro:
      'Fragen zu Tarifen, Lizenzen, Ihren Daten oder der Konsole: Schreiben Sie uns, wir antworten per E-Mail.',
    name: 'Ihr Name',
    email: 'Ihre E-Mail-Adresse',
    subject: 'Betreff',
    message: 'Nachricht',
    count: '{{count}} / {{max}} Zeichen',
    privacy: 'Wir speichern Ihre Nachricht und senden sie an unser Team; siehe Datenschutzerklärung.',
    send: 'Nachricht senden',
    sending: 'Wird gesendet…',
    sentTitle: 'Nachricht gesendet',
    sentText: 'Vielen Dank. Wir antworten an {{email}}.',
    again: 'Weitere Nachricht senden',
    errors: {
      required: 'Dieses Feld ist erforderlich.',
      email: 'Geben Sie eine gültige E-Mail-Adresse ein.',
      tooLong: 'Das ist zu lang.',
      tooShort: 'Schreiben Sie mindestens {{min}} Zeichen.',
    },
  },
  policies: { nav: 'Richtlinien', contact: 'Fragen? Kontaktieren Sie uns', pricing: 'Preise' },
};
