/**
 * Two-factor sign-in — the second step (spec §2 /verification-code, §4 "Two-factor verify: status 1 saves token and
 * refresh token; status 0 returns the result", §7 verify-2fa-auth and resend-verify-code (PUT)).
 *
 * Invoked by the auth machine while it holds a login challenge (login status 3). The user enters the 6-digit code
 * of their authenticator app, a recovery code, or a code mailed by `twoFactor.resend` (resend-verify-code: the
 * e-mail fallback when the app is out of reach). Status 1 ends this machine with the session (auth saves token
 * and refresh token); status 0 stays here with the server's text. The challenge expires after 10 minutes or
 * five wrong codes: the server then says so and the user signs in again.
 */
import { assign, fromPromise, setup } from 'xstate';
import type { UserInfo } from '../../src/protocol/rest';
import { errorText } from '../notifications/emitted';

/** §8 network-level failure text. */
export const TWO_FACTOR_ERRORS = { unavailable: 'Servers are unavailable.' } as const;

/** What verify-2fa-auth answers, as this machine reads it. */
export type VerifyResult =
  | { status: 0; message: string }
  | { status: 1; tokens: { token: string; refresh_token: string }; user_info: UserInfo };

/** The session the machine ends with (its output). */
export interface TwoFactorSession {
  token: string;
  refreshToken: string;
  user: UserInfo;
}

export interface TwoFactorContext {
  challenge: string;
  /** Status 0 text or a failure, shown under the code field; null when none. */
  error: string | null;
  /** A mailed code was asked for (the screen says where it went). */
  codeMailed: boolean;
  session: TwoFactorSession | null;
}

export type TwoFactorEvent = { type: 'twoFactor.verify'; code: string } | { type: 'twoFactor.resend' };

const notProvided = (name: string) => () => {
  throw new Error(`twoFactor: actor '${name}' is not provided`);
};

export const twoFactorMachine = setup({
  types: {
    context: {} as TwoFactorContext,
    events: {} as TwoFactorEvent,
    input: {} as { challenge: string },
    output: {} as TwoFactorSession | null,
  },
  actors: {
    /** POST verify-2fa-auth { challenge, code }. Rejects only when the server cannot be reached or errs. */
    verify: fromPromise<VerifyResult, { challenge: string; code: string }>(async () =>
      notProvided('verify')(),
    ),
    /** PUT resend-verify-code { challenge }: mails a one-time code. */
    resend: fromPromise<void, { challenge: string }>(async () => notProvided('resend')()),
  },
  guards: {
    verified: (_, params: { result: VerifyResult }) => params.result.status === 1,
  },
}).createMachine({
  id: 'twoFactor',
  initial: 'idle',
  context: ({ input }) => ({ challenge: input.challenge, error: null, codeMailed: false, session: null }),
  output: ({ context }) => context.session,
  states: {
    idle: {
      on: {
        'twoFactor.verify': { target: 'verifying', actions: assign({ error: null }) },
        'twoFactor.resend': { target: 'resending', actions: assign({ error: null }) },
      },
    },
    verifying: {
      tags: ['busy'],
      invoke: {
        id: 'verify',
        src: 'verify',
        input: ({ context, event }) => ({
          challenge: context.challenge,
          code: event.type === 'twoFactor.verify' ? event.code : '',
        }),
        onDone: [
          {
            // §4 status 1: saves token and refresh token (auth does, with this output).
            guard: { type: 'verified', params: ({ event }) => ({ result: event.output }) },
            target: 'verified',
            actions: assign({
              session: ({ event }) =>
                event.output.status === 1
                  ? {
                      token: event.output.tokens.token,
                      refreshToken: event.output.tokens.refresh_token,
                      user: event.output.user_info,
                    }
                  : null,
            }),
          },
          {
            // §4 status 0: returns the result (its text is shown).
            target: 'idle',
            actions: assign({
              error: ({ event }) => (event.output.status === 0 ? event.output.message : null),
            }),
          },
        ],
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorText(event.error, TWO_FACTOR_ERRORS.unavailable) }),
        },
      },
    },
    resending: {
      tags: ['busy'],
      invoke: {
        id: 'resend',
        src: 'resend',
        input: ({ context }) => ({ challenge: context.challenge }),
        onDone: { target: 'idle', actions: assign({ codeMailed: true }) },
        onError: {
          target: 'idle',
          actions: assign({ error: ({ event }) => errorText(event.error, TWO_FACTOR_ERRORS.unavailable) }),
        },
      },
    },
    verified: { type: 'final' },
  },
});
