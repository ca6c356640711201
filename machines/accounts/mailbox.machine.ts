/**
 * Mailbox — the development mailbox (issue 13 "Mail": /dev/mailbox, admins, only while the server runs its embedded SMTP
 * catcher): loads the caught mails, `mailbox.refresh` reloads, `mailbox.clear` empties it.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { CaughtMail } from '../../src/protocol/mail';
import { errorText } from '../notifications/emitted';

export interface MailboxContext {
  /** Whether the server runs the catcher (false: mail goes to SMTP_URL, nothing to show). */
  enabled: boolean;
  messages: CaughtMail[];
  error: string | null;
}

export type MailboxEvent = { type: 'mailbox.refresh' } | { type: 'mailbox.clear' };

const notProvided = (name: string) => () => {
  throw new Error(`mailbox: actor '${name}' is not provided`);
};

export const mailboxMachine = setup({
  types: { context: {} as MailboxContext, events: {} as MailboxEvent },
  actors: {
    /** GET dev/mailbox. */
    load: fromPromise<{ enabled: boolean; messages: CaughtMail[] }>(async () => notProvided('load')()),
    /** DELETE dev/mailbox. */
    clear: fromPromise<void>(async () => notProvided('clear')()),
  },
}).createMachine({
  id: 'mailbox',
  initial: 'loading',
  context: { enabled: false, messages: [], error: null },
  states: {
    loading: {
      tags: ['busy'],
      invoke: {
        id: 'load',
        src: 'load',
        onDone: {
          target: 'ready',
          actions: assign(({ event }) => ({ ...event.output, error: null })),
        },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => errorText(event.error, 'Servers are unavailable.') }),
        },
      },
    },
    ready: {
      on: {
        'mailbox.refresh': { target: 'loading' },
        'mailbox.clear': { target: 'clearing' },
      },
    },
    clearing: {
      tags: ['busy'],
      invoke: {
        id: 'clear',
        src: 'clear',
        onDone: { target: 'loading' },
        onError: {
          target: 'ready',
          actions: assign({ error: ({ event }) => errorText(event.error, 'Servers are unavailable.') }),
        },
      },
    },
  },
});
