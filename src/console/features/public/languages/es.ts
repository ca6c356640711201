/** The public pages' texts (es). */
import type { PublicTranslation } from './en';

export const es: PublicTranslation = {
  contact: {
    title: 'Contacto',
    intro:
      'Preguntas sobre planes, licencias, sus datos o la consola: escríbanos y le responderemos por correo.',
    name: 'Su nombre',
    email: 'Su correo electrónico',
    subject: 'Asunto',
    message: 'Mensaje',
    count: '{{count}} / {{max}} caracteres',
    privacy: 'Guardamos su mensaje y lo enviamos a nuestro equipo; consulte la política de privacidad.',
    send: 'Enviar mensaje',
    sending: 'Enviando…',
    sentTitle: 'Mensaje enviado',
    sentText: 'Gracias. Le responderemos en {{email}}.',
    again: 'Enviar otro mensaje',
    errors: {
      required: 'Este campo es obligatorio.',
      email: 'Introduzca un correo electrónico válido.',
      tooLong: 'Es demasiado largo.',
      tooShort: 'Escriba al menos {{min}} caracteres.',
    },
  },
  policies: { nav: 'Políticas', contact: '¿Preguntas? Contáctenos', pricing: 'Precios' },
};
