/**
 * What views read of the auth actor (§4 Auth, §5 login form): `snapshotToView` maps a snapshot to facts
 * with `matches` and `hasTag`; the hooks select from it (primitives, stable while unchanged).
 */
import { shallowEqual, useSelector } from '@xstate/react';
import type { ActorRefFrom, SnapshotFrom } from 'xstate';
import type { authMachine, DemoAccount } from '../../../../machines/accounts/auth.machine';
import { SYSTEM_IDS } from '../../../../machines/systemIds';
import { actorOf, useSystem, type ConsoleSystem } from '../../shell/SystemProvider';

export type AuthRef = ActorRefFrom<typeof authMachine>;
type AuthSnapshot = SnapshotFrom<typeof authMachine>;

/** The auth actor (§4 Auth). */
export const authRefOf = (system: ConsoleSystem): AuthRef => actorOf<AuthRef>(system, SYSTEM_IDS.auth);
export function useAuthRef(): AuthRef {
  return authRefOf(useSystem());
}

/** Sign-in facts the guards, the shell and the login form need. */
export interface AuthView {
  signedIn: boolean;
  restoring: boolean;
  /** Restoring, signing in, refreshing or signing out (the progress bar shows). */
  busy: boolean;
  isAdmin: boolean;
  email: string | null;
  /** The login form was sent and awaits the answer. */
  submitting: boolean;
  /** The server's error text (§5 §8), or null. */
  error: string | null;
  /** The confirm-mail message (§4 login status 1) while it is shown, else null. */
  confirmMail: string | null;
  /** Login answered status 3: the second step (/verification-code) is open. */
  twoFactor: boolean;
}

export function snapshotToView(s: AuthSnapshot): AuthView {
  return {
    signedIn: s.matches('signedIn'),
    restoring: s.matches('restoring'),
    busy: s.hasTag('busy'),
    isAdmin: s.context.user?.roles.includes('admin') ?? false,
    email: s.context.user?.email ?? null,
    submitting: s.matches({ signedOut: 'submitting' }),
    error: s.context.error,
    confirmMail: s.matches({ signedOut: 'confirmMail' }) ? s.context.confirmMailMessage : null,
    twoFactor: s.matches({ signedOut: 'twoFactor' }),
  };
}

/** Sign-in facts the guards and the shell need; stable while they do not change. */
export type SessionFacts = Pick<AuthView, 'signedIn' | 'isAdmin' | 'restoring' | 'busy' | 'email'>;
export function useSession(): SessionFacts {
  return useSelector(
    useAuthRef(),
    (s): SessionFacts => {
      const { signedIn, isAdmin, restoring, busy, email } = snapshotToView(s);
      return { signedIn, isAdmin, restoring, busy, email };
    },
    shallowEqual,
  );
}

/** Login screen facts: submitting, the server error text (§5 §8), the confirm-mail message (§4 status 1). */
export type LoginFacts = Pick<AuthView, 'submitting' | 'error' | 'confirmMail' | 'twoFactor'>;
/** The demo account the login form offers (auth context), null when demo mode is off. */
export function useDemoAccount(): DemoAccount | null {
  return useSelector(useAuthRef(), (s) => s.context.demoAccount ?? null, shallowEqual);
}

export function useLoginFacts(): LoginFacts {
  return useSelector(
    useAuthRef(),
    (s): LoginFacts => {
      const { submitting, error, confirmMail, twoFactor } = snapshotToView(s);
      return { submitting, error, confirmMail, twoFactor };
    },
    shallowEqual,
  );
}
