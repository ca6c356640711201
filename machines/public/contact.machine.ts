/**
 * The contact form — spec §2 /contact (public); issue 13 "a form that is stored and mailed".
 *
 * editing → (contact.submit with a valid form) → sending → sent | editing with the server's message (e.g.
 * "Too many attempts…" when rate-limited); an invalid form stays in editing with `attempted` set, so the view
 * shows each field's error (src/protocol/public.ts contactProblems). sent → contact.again → editing (empty).
 * Pure: the call is the provided actor `send`. Tag `busy` while sending.
 */
import { assign, fromPromise, setup } from 'xstate';
import { contactProblems, type ContactBody } from '../../src/protocol/public';
import { errorText } from '../notifications/emitted';

export interface ContactContext {
  attempted: boolean;
  error: string | null;
  /** The stored message's id once sent. */
  sentId: string | null;
}

export type ContactEvent = { type: 'contact.submit'; form: ContactBody } | { type: 'contact.again' };

export const contactMachine = setup({
  types: { context: {} as ContactContext, events: {} as ContactEvent },
  actors: {
    send: fromPromise<{ id: string }, ContactBody>(async () => {
      throw new Error('contact: send is not provided');
    }),
  },
  guards: {
    valid: ({ event }) =>
      event.type === 'contact.submit' && Object.keys(contactProblems(event.form)).length === 0,
  },
}).createMachine({
  id: 'contact',
  context: { attempted: false, error: null, sentId: null },
  initial: 'editing',
  states: {
    editing: {
      on: {
        'contact.submit': [
          { guard: 'valid', target: 'sending', actions: assign({ error: null }) },
          { actions: assign({ attempted: true }) },
        ],
      },
    },
    sending: {
      tags: ['busy'],
      invoke: {
        id: 'send',
        src: 'send',
        input: ({ event }) => (event as Extract<ContactEvent, { type: 'contact.submit' }>).form,
        onDone: { target: 'sent', actions: assign({ sentId: ({ event }) => event.output.id }) },
        onError: {
          target: 'editing',
          actions: assign({
            error: ({ event }) => errorText(event.error, 'Your message could not be sent.'),
          }),
        },
      },
    },
    sent: {
      on: {
        'contact.again': {
          target: 'editing',
          actions: assign({ attempted: false, error: null, sentId: null }),
        },
      },
    },
  },
});
