/**
 * Mailed links — a single-use link opened in the console (spec §2 /confirm-mail/{token}, /forgot-password/{token},
 * /expired; issue 13): confirming the address, or choosing a new password.
 *
 * - kind 'confirm': POST confirm-mail at once → `done` (the address is confirmed: sign in) or `expired` (used,
 *   unknown or past its expiry: the screen goes to /expired), or `failed` (§8 text, `mailLink.retry`).
 * - kind 'reset': waits for `mailLink.submit` with the new password → POST reset-password → `done` (the screen
 *   goes to /success), `expired`, or back to the form with "Server not Accessible." (§8 reset failure).
 */
import { assign, fromPromise, setup } from 'xstate';

/** §8 "Reset password failure" and the network text. */
export const MAIL_LINK_ERRORS = {
  resetFailed: 'Server not Accessible.',
  unavailable: 'Servers are unavailable.',
} as const;

/** How a link call ended: done, or the link is no longer valid. Other failures reject. */
export type LinkOutcome = 'done' | 'expired';

export interface MailLinkInput {
  kind: 'confirm' | 'reset';
  token: string;
}

export interface MailLinkContext extends MailLinkInput {
  error: string | null;
  /** The confirmed address (kind confirm). */
  email: string | null;
}

export type MailLinkEvent = { type: 'mailLink.submit'; password: string } | { type: 'mailLink.retry' };

const notProvided = (name: string) => () => {
  throw new Error(`mailLink: actor '${name}' is not provided`);
};

export const mailLinkMachine = setup({
  types: {
    context: {} as MailLinkContext,
    events: {} as MailLinkEvent,
    input: {} as MailLinkInput,
  },
  actors: {
    /** POST confirm-mail { token } → { outcome, email }. */
    confirm: fromPromise<{ outcome: LinkOutcome; email: string | null }, { token: string }>(async () =>
      notProvided('confirm')(),
    ),
    /** POST reset-password { token, password }. */
    reset: fromPromise<LinkOutcome, { token: string; password: string }>(async () => notProvided('reset')()),
  },
  guards: {
    isConfirm: ({ context }) => context.kind === 'confirm',
    isExpired: (_, params: { outcome: LinkOutcome }) => params.outcome === 'expired',
  },
}).createMachine({
  id: 'mailLink',
  context: ({ input }) => ({ ...input, error: null, email: null }),
  initial: 'start',
  states: {
    start: { always: [{ guard: 'isConfirm', target: 'confirming' }, { target: 'editing' }] },
    confirming: {
      tags: ['busy'],
      invoke: {
        id: 'confirm',
        src: 'confirm',
        input: ({ context }) => ({ token: context.token }),
        onDone: [
          {
            guard: { type: 'isExpired', params: ({ event }) => ({ outcome: event.output.outcome }) },
            target: 'expired',
          },
          { target: 'done', actions: assign({ email: ({ event }) => event.output.email }) },
        ],
        onError: { target: 'failed', actions: assign({ error: MAIL_LINK_ERRORS.unavailable }) },
      },
    },
    failed: { on: { 'mailLink.retry': { target: 'confirming', actions: assign({ error: null }) } } },
    editing: {
      on: { 'mailLink.submit': { target: 'saving', actions: assign({ error: null }) } },
    },
    saving: {
      tags: ['busy'],
      invoke: {
        id: 'reset',
        src: 'reset',
        input: ({ context, event }) => ({
          token: context.token,
          password: event.type === 'mailLink.submit' ? event.password : '',
        }),
        onDone: [
          {
            guard: { type: 'isExpired', params: ({ event }) => ({ outcome: event.output }) },
            target: 'expired',
          },
          { target: 'done' },
        ],
        // §8 "Reset password failure: Server not Accessible."
        onError: { target: 'editing', actions: assign({ error: MAIL_LINK_ERRORS.resetFailed }) },
      },
    },
    done: { type: 'final' },
    expired: { type: 'final' },
  },
});
