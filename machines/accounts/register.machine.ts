/**
 * Registration — /register (spec §2 /register and /success-register; §7 register, resend-verification; issue 13 "Accounts").
 *
 * On start it reads whether the server asks for reCAPTCHA (register-config: off by default). The form sends
 * `register.submit`; the server answers the same for a new and a known address, so success only means "a mail is
 * on its way": the machine is then `sent` (final; the screen goes to /success-register, whose "send again" is a
 * mailRequest machine over resend-verification). Failures stay on the form with their text.
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';

/** What the form sends (the view has validated it; the server validates again). */
export interface RegisterForm {
  email: string;
  username: string;
  password: string;
  /** The reCAPTCHA answer when the server asks for one. */
  recaptcha?: string;
}

export const REGISTER_ERRORS = { failed: 'Registration failed. Please try again.' } as const;

export interface RegisterContext {
  /** reCAPTCHA site key: null when off, undefined until read. */
  recaptchaSiteKey: string | null | undefined;
  email: string;
  error: string | null;
}

export type RegisterEvent =
  { type: 'register.submit'; form: RegisterForm } | { type: 'register.dismissError' };

const notProvided = (name: string) => () => {
  throw new Error(`register: actor '${name}' is not provided`);
};

export const registerMachine = setup({
  types: { context: {} as RegisterContext, events: {} as RegisterEvent },
  actors: {
    /** GET register-config → the reCAPTCHA site key or null. */
    loadConfig: fromPromise<string | null>(async () => notProvided('loadConfig')()),
    /** POST register. Rejects with an Error whose message is the text to show. */
    register: fromPromise<void, RegisterForm>(async () => notProvided('register')()),
  },
}).createMachine({
  id: 'register',
  initial: 'loading',
  context: { recaptchaSiteKey: undefined, email: '', error: null },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'loadConfig',
        src: 'loadConfig',
        onDone: { target: 'editing', actions: assign({ recaptchaSiteKey: ({ event }) => event.output }) },
        // Unknown: the form still works; the server says so if it wants a captcha.
        onError: { target: 'editing', actions: assign({ recaptchaSiteKey: null }) },
      },
    },
    editing: {
      on: {
        'register.submit': {
          target: 'submitting',
          actions: assign({ email: ({ event }) => event.form.email, error: null }),
        },
        'register.dismissError': { actions: assign({ error: null }) },
      },
    },
    submitting: {
      tags: ['busy'],
      invoke: {
        id: 'register',
        src: 'register',
        input: ({ event }) =>
          event.type === 'register.submit' ? event.form : { email: '', username: '', password: '' },
        onDone: { target: 'sent' },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => errorText(event.error, REGISTER_ERRORS.failed) }),
        },
      },
    },
    // A mail is on its way (or a notice, for a known address): the screen goes to /success-register.
    sent: { type: 'final' },
  },
});
