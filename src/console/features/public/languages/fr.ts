/** The public pages' texts (fr). */
import type { PublicTranslation } from './en';

export const fr: PublicTranslation = {
  contact: {
    title: 'Nous contacter',
    intro:
      'Questions sur les offres, les licences, vos données ou la console : écrivez-nous, nous répondons par e-mail.',
    name: 'Votre nom',
    email: 'Votre adresse e-mail',
    subject: 'Objet',
    message: 'Message',
    count: '{{count}} / {{max}} caractères',
    privacy:
      'Nous enregistrons votre message et l’envoyons à notre équipe ; voir la politique de confidentialité.',
    send: 'Envoyer le message',
    sending: 'Envoi…',
    sentTitle: 'Message envoyé',
    sentText: 'Merci. Nous répondrons à {{email}}.',
    again: 'Envoyer un autre message',
    errors: {
      required: 'Ce champ est obligatoire.',
      email: 'Saisissez une adresse e-mail valide.',
      tooLong: 'C’est trop long.',
      tooShort: 'Écrivez au moins {{min}} caractères.',
    },
  },
  policies: { nav: 'Politiques', contact: 'Des questions ? Contactez-nous', pricing: 'Tarifs' },
};
