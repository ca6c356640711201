/** The public pages' texts in English (§2 'en'); the complete set. Policy texts: ../policies/. */
export const en = {
  contact: {
    title: 'Contact us',
    intro: 'Questions about plans, licences, your data or the console: write to us and we answer by e-mail.',
    name: 'Your name',
    email: 'Your e-mail address',
    subject: 'Subject',
    message: 'Message',
    count: '{{count}} / {{max}} characters',
    privacy: 'We store your message and mail it to our team; see the privacy policy.',
    send: 'Send message',
    sending: 'Sending…',
    sentTitle: 'Message sent',
    sentText: 'Thank you. We will answer at {{email}}.',
    again: 'Send another message',
    errors: {
      required: 'This field is required.',
      email: 'Enter a valid e-mail address.',
      tooLong: 'This is too long.',
      tooShort: 'Write at least {{min}} characters.',
    },
  },
  policies: {
    nav: 'Policies',
    contact: 'Questions? Contact us',
    pricing: 'Pricing',
  },
};

/** Every key of English, any wording. */
type Deep<T> = { [K in keyof T]: T[K] extends string ? string : Deep<T[K]> };
export type PublicTexts = typeof en;
export type PublicTranslation = Deep<PublicTexts>;
