/**
 * Registration (spec §2 /register and /success-register; §7 register, resend-verification; issue 13 "Accounts").
 *
 * On start it reads whether the server asks for reCAPTCHA (register-config: off by default). The form sends
 * `register.submit`; the server answers the same for a new and a known address, so success only means "a mail is
 * on its way": the machine is then `sent` (the screen shows /success-register), from where `register.resend`
 * asks resend-verification for the same address. Failures stay on the form with the §8 text.
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
  /** How many times the verification mail was sent again. */
  resent: number;
}

export type RegisterEvent =
  | { type: 'register.submit'; form: RegisterForm }
  | { type: 'register.resend' }
  | { type: 'register.dismissError' };

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
    /** POST resend-verification { email }. */
    resend: fromPromise<void, { email: string }>(async () => notProvided('resend')()),
  },
}).createMachine({
  id: 'register',
  initial: 'loading',
  context: { recaptchaSiteKey: undefined, email: '', error: null, resent: 0 },
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
    sent: {
      initial: 'idle',
      states: {
        idle: { on: { 'register.resend': { target: 'resending', actions: assign({ error: null }) } } },
        resending: {
          tags: ['busy'],
          invoke: {
            id: 'resend',
            src: 'resend',
            input: ({ context }) => ({ email: context.email }),
            onDone: { target: 'idle', actions: assign({ resent: ({ context }) => context.resent + 1 }) },
            onError: {
              target: 'idle',
              actions: assign({ error: ({ event }) => errorText(event.error, REGISTER_ERRORS.failed) }),
            },
          },
        },
      },
    },
  },
});
