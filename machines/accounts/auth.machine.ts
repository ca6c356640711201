/**
 * Auth — spec §4 "Auth", §8 (login and token texts), §9 "Token refresh retried once".
 *
 * - Authenticated means a token is present; tokens persist in local storage (§3 "Stored settings").
 * - Login answer status 1 shows the confirm-mail dialog; status 2 is logged in and sets the user; status 3
 *   (issue 13: two-factor sign-in) keeps the challenge and invokes the twoFactor machine (/verification-code),
 *   whose status-1 output signs in like status 2 (§4 "Two-factor verify: status 1 saves token and refresh token").
 * - Logout clears tokens, user info and the other stores (the root system clears device links, streams and
 *   the devices table when this machine leaves `signedIn`).
 * - Token_expired: the API client sends `auth.tokenExpired`; this machine refreshes the access token ONCE
 *   (refresh token rotates). A refresh failure, or `auth.tokenRejected` (the retried request was refused
 *   again, or an invalid token / invalid refresh token answer), signs out with the §8 notice
 *   "You tried to access with invalid token" / "Please login again".
 *
 * - While signed out, the demo account (GET demo-account: `{ enabled, email, password }`) is read once per
 *   visit for the login form's demo line; none when demo mode is off or the server does not answer.
 *
 * Side effects (REST, local storage) are the named actors and actions below; `src/console/features/accounts/actors.ts`
 * provides the real ones with `.provide()`.
 */
import { assign, emit, fromPromise, setup } from 'xstate';
import type { LoginResponse, UserInfo } from '../../src/protocol/rest';
import { errorText, type ConsoleEmitted } from '../notifications/emitted';
import { twoFactorMachine, type TwoFactorSession } from './twoFactor.machine';

/** §8 / §5 texts shown under the login form. */
export const AUTH_ERRORS = {
  incorrect: 'The login detail is incorrect',
  failed: 'Login failed. Please try again.',
  unavailable: 'Servers are unavailable.',
} as const;

/** §8 notice when the session can no longer be used. */
export const INVALID_TOKEN_NOTICE = {
  title: 'You tried to access with invalid token',
  message: 'Please login again',
} as const;

/** What local storage holds between reloads (§3 "Stored settings"). */
export interface StoredSession {
  token: string;
  refreshToken: string;
  user: UserInfo | null;
}

export interface AuthContext {
  /** Access token sent as `Authorization: Token {token}`; null when signed out. */
  token: string | null;
  /** Refresh token sent as `Refresh-Token` to new_access_token; rotates on every refresh. */
  refreshToken: string | null;
  user: UserInfo | null;
  /** Text under the login form (one of AUTH_ERRORS), null when none. */
  error: string | null;
  /** Message of the confirm-mail dialog (login status 1), null when closed. */
  confirmMailMessage: string | null;
  /** The demo account the login form offers (demo mode): null when none, undefined until first read. */
  demoAccount: DemoAccount | null | undefined;
  /** The login challenge of a two-factor account (login status 3) while its code is asked; else null. */
  twoFactorChallenge: string | null;
}

/** GET demo-account when demo mode is on (the server's demo user, shown on the login form). */
export interface DemoAccount {
  email: string;
  password: string;
}

export type AuthEvent =
  | { type: 'auth.login'; email: string; password: string }
  | { type: 'auth.logout' }
  | { type: 'auth.dismissError' }
  | { type: 'auth.confirmMail.close' }
  /** Leave the two-factor step (back to the login form). */
  | { type: 'auth.twoFactor.cancel' }
  /** Internal (API client): a request answered 401 Token_expired; refresh once. */
  | { type: 'auth.tokenExpired' }
  /** Internal (API client): the session cannot be used any more (retry refused, invalid token). */
  | { type: 'auth.tokenRejected' };

/** Input of the `login` actor. */
export interface LoginInput {
  email: string;
  password: string;
}
/** Output of the `refreshToken` actor: the new access token and the rotated refresh token. */
export interface RefreshedTokens {
  token: string;
  refreshToken: string;
}

const notProvided = (name: string) => () => {
  throw new Error(`auth: actor '${name}' is not provided`);
};

export const authMachine = setup({
  types: {
    context: {} as AuthContext,
    events: {} as AuthEvent,
    emitted: {} as ConsoleEmitted,
  },
  actors: {
    /** Reads the stored session (local storage). Resolves null when there is none. */
    restoreSession: fromPromise<StoredSession | null>(async () => notProvided('restoreSession')()),
    /** POST login. Rejects with an Error whose message is an AUTH_ERRORS text. */
    login: fromPromise<LoginResponse, LoginInput>(async () => notProvided('login')()),
    /** POST new_access_token with `Refresh-Token`. Rejects when the refresh token is refused. */
    refreshToken: fromPromise<RefreshedTokens, { refreshToken: string | null }>(async () =>
      notProvided('refreshToken')(),
    ),
    /** GET demo-account → the demo account, or null when demo mode is off. */
    loadDemoAccount: fromPromise<DemoAccount | null>(async () => notProvided('loadDemoAccount')()),
    /** POST logout (best effort: the local session ends whatever it answers). */
    logout: fromPromise<void, { token: string | null }>(async () => notProvided('logout')()),
    /** The second sign-in step (twoFactor.machine.ts); its output is the session, null when it did not end so. */
    twoFactor: twoFactorMachine,
  },
  actions: {
    /** Writes token, refresh token and user to local storage. Provided by services. */
    persistSession: (_, _params: StoredSession) => {},
    /** Removes token, refresh token and user (and other stored state) from local storage. */
    clearSession: () => {},
    clearCredentials: assign({ token: null, refreshToken: null, user: null }),
    clearError: assign({ error: null }),
    emitInvalidTokenNotice: emit({
      type: 'notice',
      title: INVALID_TOKEN_NOTICE.title,
      message: INVALID_TOKEN_NOTICE.message,
      variant: 'warning',
    } as const),
    emitConfirmMailDialog: emit(({ context }) => ({
      type: 'dialog' as const,
      title: 'Confirm your e-mail',
      message: context.confirmMailMessage ?? '',
    })),
  },
  guards: {
    hasStoredSession: (_, params: { session: StoredSession | null }) => params.session !== null,
    needsMailConfirmation: (_, params: { response: LoginResponse }) => params.response.status === 1,
    needsSecondFactor: (_, params: { response: LoginResponse }) => params.response.status === 3,
    hasSession: (_, params: { session: TwoFactorSession | null }) => params.session !== null,
  },
}).createMachine({
  id: 'auth',
  initial: 'restoring',
  context: {
    token: null,
    refreshToken: null,
    user: null,
    error: null,
    confirmMailMessage: null,
    demoAccount: undefined,
    twoFactorChallenge: null,
  },
  states: {
    restoring: {
      tags: ['busy'],
      invoke: {
        id: 'restoreSession',
        src: 'restoreSession',
        onDone: [
          {
            guard: { type: 'hasStoredSession', params: ({ event }) => ({ session: event.output }) },
            target: 'signedIn',
            actions: assign(({ event }) => ({
              token: event.output?.token ?? null,
              refreshToken: event.output?.refreshToken ?? null,
              user: event.output?.user ?? null,
            })),
          },
          { target: 'signedOut' },
        ],
        onError: { target: 'signedOut' },
      },
    },
    signedOut: {
      initial: 'idle',
      invoke: {
        id: 'loadDemoAccount',
        src: 'loadDemoAccount',
        onDone: { actions: assign({ demoAccount: ({ event }) => event.output }) },
        // No demo line when the server does not answer; the form still works.
        onError: { actions: assign({ demoAccount: null }) },
      },
      on: {
        'auth.dismissError': { actions: 'clearError' },
      },
      states: {
        idle: {
          on: {
            'auth.login': { target: 'submitting', actions: 'clearError' },
          },
        },
        submitting: {
          tags: ['busy'],
          invoke: {
            id: 'login',
            src: 'login',
            input: ({ event }) =>
              event.type === 'auth.login'
                ? { email: event.email, password: event.password }
                : { email: '', password: '' },
            onDone: [
              {
                // §4 status 1: confirm mail, no tokens.
                guard: { type: 'needsMailConfirmation', params: ({ event }) => ({ response: event.output }) },
                target: 'confirmMail',
                actions: [
                  assign({
                    confirmMailMessage: ({ event }) =>
                      event.output.status === 1 ? event.output.message : '',
                  }),
                  'emitConfirmMailDialog',
                ],
              },
              {
                // Issue 13 status 3: the account signs in with a second factor (/verification-code).
                guard: { type: 'needsSecondFactor', params: ({ event }) => ({ response: event.output }) },
                target: 'twoFactor',
                actions: assign({
                  twoFactorChallenge: ({ event }) =>
                    event.output.status === 3 ? event.output.challenge : null,
                }),
              },
              {
                // §4 status 2: logged in, user set.
                target: '#auth.signedIn',
                actions: [
                  assign(({ event }) =>
                    event.output.status === 2
                      ? {
                          token: event.output.token,
                          refreshToken: event.output.refresh_token,
                          user: event.output.user_info,
                          error: null,
                        }
                      : {},
                  ),
                  {
                    type: 'persistSession',
                    params: ({ context }) => ({
                      token: context.token ?? '',
                      refreshToken: context.refreshToken ?? '',
                      user: context.user,
                    }),
                  },
                ],
              },
            ],
            onError: {
              target: 'idle',
              actions: assign({ error: ({ event }) => errorText(event.error, AUTH_ERRORS.failed) }),
            },
          },
        },
        twoFactor: {
          exit: assign({ twoFactorChallenge: null }),
          invoke: {
            id: 'twoFactor',
            src: 'twoFactor',
            input: ({ context }) => ({ challenge: context.twoFactorChallenge ?? '' }),
            onDone: [
              {
                // §4 two-factor status 1: saves token and refresh token.
                guard: { type: 'hasSession', params: ({ event }) => ({ session: event.output }) },
                target: '#auth.signedIn',
                actions: [
                  assign(({ event }) => ({
                    token: event.output?.token ?? null,
                    refreshToken: event.output?.refreshToken ?? null,
                    user: event.output?.user ?? null,
                    error: null,
                  })),
                  {
                    type: 'persistSession',
                    params: ({ context }) => ({
                      token: context.token ?? '',
                      refreshToken: context.refreshToken ?? '',
                      user: context.user,
                    }),
                  },
                ],
              },
              { target: 'idle' },
            ],
          },
          on: {
            'auth.twoFactor.cancel': { target: 'idle' },
            'auth.login': { target: 'submitting', actions: 'clearError' },
          },
        },
        confirmMail: {
          on: {
            'auth.confirmMail.close': { target: 'idle', actions: assign({ confirmMailMessage: null }) },
            'auth.login': {
              target: 'submitting',
              actions: ['clearError', assign({ confirmMailMessage: null })],
            },
          },
        },
      },
    },
    signedIn: {
      initial: 'active',
      // Leaving signedIn always means the session ended: forget it everywhere.
      exit: ['clearCredentials', 'clearSession'],
      on: {
        'auth.tokenRejected': { target: 'signedOut', actions: 'emitInvalidTokenNotice' },
      },
      states: {
        active: {
          on: {
            'auth.logout': { target: 'signingOut' },
            'auth.tokenExpired': { target: 'refreshing' },
          },
        },
        refreshing: {
          tags: ['busy'],
          invoke: {
            id: 'refreshToken',
            src: 'refreshToken',
            input: ({ context }) => ({ refreshToken: context.refreshToken }),
            onDone: {
              target: 'active',
              actions: [
                assign({
                  token: ({ event }) => event.output.token,
                  refreshToken: ({ event }) => event.output.refreshToken,
                }),
                {
                  type: 'persistSession',
                  params: ({ context }) => ({
                    token: context.token ?? '',
                    refreshToken: context.refreshToken ?? '',
                    user: context.user,
                  }),
                },
              ],
            },
            // §8: the refresh token was refused: sign out with the notice.
            onError: { target: '#auth.signedOut', actions: 'emitInvalidTokenNotice' },
          },
          on: {
            'auth.logout': { target: 'signingOut' },
          },
        },
        signingOut: {
          tags: ['busy'],
          invoke: {
            id: 'logout',
            src: 'logout',
            input: ({ context }) => ({ token: context.token }),
            onDone: { target: '#auth.signedOut' },
            onError: { target: '#auth.signedOut' },
          },
        },
      },
    },
  },
});
