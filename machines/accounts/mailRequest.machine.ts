/**
 * Mail requests — "send me a mail" forms (spec §2 /forgot-password; §7 reset-password-request; issue 13): the user gives an
 * address, the server answers the same whatever it is (no account enumeration), so the machine only knows "sent".
 * `mailRequest.again` goes back to the form. A failure stays on the form with its text (§8 "Server not
 * Accessible." for the reset request).
 */
import { assign, fromPromise, setup } from 'xstate';
import { errorText } from '../notifications/emitted';

export const MAIL_REQUEST_ERRORS = { failed: 'Server not Accessible.' } as const;

export interface MailRequestContext {
  email: string;
  error: string | null;
}

export type MailRequestEvent = { type: 'mailRequest.submit'; email: string } | { type: 'mailRequest.again' };

export const mailRequestMachine = setup({
  types: { context: {} as MailRequestContext, events: {} as MailRequestEvent },
  actors: {
    /** POST reset-password-request { email }. */
    request: fromPromise<void, { email: string }>(async () => {
      throw new Error("mailRequest: actor 'request' is not provided");
    }),
  },
}).createMachine({
  id: 'mailRequest',
  initial: 'editing',
  context: { email: '', error: null },
  states: {
    editing: {
      on: {
        'mailRequest.submit': {
          target: 'sending',
          actions: assign({ email: ({ event }) => event.email, error: null }),
        },
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'request',
        src: 'request',
        input: ({ context }) => ({ email: context.email }),
        onDone: { target: 'sent' },
        onError: {
          target: 'editing',
          actions: assign({ error: ({ event }) => errorText(event.error, MAIL_REQUEST_ERRORS.failed) }),
        },
      },
    },
    sent: { on: { 'mailRequest.again': { target: 'editing' } } },
  },
});
